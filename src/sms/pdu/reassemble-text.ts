// Joins the texts of the parts of one concatenated message, in sequence order, after checking
// that they belong together and that none is missing or repeated.

import { PduError } from './pdu-error.js';
import type { DecodedPdu } from './types.js';

/** Joins the texts of the decoded parts of one message in sequence order; throws when a part is missing. */
export function reassembleText(parts: readonly DecodedPdu[]): string {
  const first = parts[0];
  if (first === undefined) throw new PduError('incomplete', 'parts', undefined, 'no parts');
  if (first.concat === undefined) {
    if (parts.length !== 1)
      throw new PduError('incomplete', 'parts', undefined, 'several parts without concatenation');
    return first.text;
  }
  const { reference, total, referenceBits } = first.concat;
  const texts: (string | undefined)[] = new Array(total);
  for (const part of parts) {
    const c = part.concat;
    if (
      c === undefined ||
      c.reference !== reference ||
      c.total !== total ||
      c.referenceBits !== referenceBits
    ) {
      throw new PduError(
        'incomplete',
        'parts',
        undefined,
        `a part does not belong to reference ${reference}/${total}`,
      );
    }
    if (texts[c.sequence - 1] !== undefined) {
      throw new PduError('incomplete', 'parts', undefined, `part ${c.sequence} given twice`);
    }
    texts[c.sequence - 1] = part.text;
  }
  // biome-ignore lint/complexity/useIndexOf: indexOf skips the holes a missing part leaves in the array; findIndex visits them
  const missing = texts.findIndex((t) => t === undefined);
  if (missing >= 0 || texts.length !== total) {
    throw new PduError('incomplete', 'parts', undefined, `part ${missing + 1} of ${total} is missing`);
  }
  return texts.join('');
}
