// Reads a mihomo .mrs rule set: zstd envelope, then magic `MRS` 1, behavior (domain or ipcidr;
// classical is refused), count, extra bytes, and the domain set or IP ranges, with nothing after.
// Errors name the file and the offset: file bytes for the envelope, payload bytes after it.
import { ByteCursor } from './byte-cursor.js';
import { keyRules } from './domain-keys.js';
import { decodeDomainSet } from './domain-set.js';
import { decodeIpRanges } from './ip-ranges.js';
import { MRS_BEHAVIOR, MRS_MAGIC } from './mrs-writer.js';
import { codeFromName, type ProviderBehavior, type ProviderList } from './provider-list.js';
import { unzstd } from './unzstd.js';

/** Reads a .mrs file; `hint`, when given, must be the behavior the file declares. */
export function readMrs(
  bytes: Uint8Array,
  name: string,
  hint?: ProviderBehavior,
  code = codeFromName(name),
): ProviderList {
  const cur = new ByteCursor(unzstd(bytes, name), `${name}: decompressed`);
  for (let k = 0; k < 3; k++) {
    if (cur.u8('magic') !== MRS_MAGIC[k]) cur.fail('not an .mrs payload (no "MRS" magic)', k);
  }
  const version = cur.u8('format version');
  if (version !== MRS_MAGIC[3]) cur.fail(`.mrs format version ${version} is not supported (only 1)`, 3);
  const behaviorByte = cur.u8('behavior');
  let behavior: ProviderBehavior;
  if (behaviorByte === MRS_BEHAVIOR.domain) behavior = 'domain';
  else if (behaviorByte === MRS_BEHAVIOR.ipcidr) behavior = 'ipcidr';
  else if (behaviorByte === MRS_BEHAVIOR.classical) return cur.fail('behavior classical is not supported', 4);
  else return cur.fail(`unknown behavior ${behaviorByte}`, 4);
  if (hint !== undefined && hint !== behavior) cur.fail(`behavior is ${behavior}, expected ${hint}`, 4);
  // mihomo counts the entries it was built from; informative only, never used to allocate.
  cur.i64('rule count', 1, Number.MAX_SAFE_INTEGER);
  const extra = cur.length('extra length', 1, 0);
  cur.take(extra, 'extra bytes');
  let result: ProviderList;
  if (behavior === 'ipcidr') {
    result = { kind: 'ip', form: 'mrs', list: { code, cidrs: decodeIpRanges(cur), inverseMatch: false } };
  } else {
    const setAt = cur.pos;
    const keys = decodeDomainSet(cur);
    const rules = keyRules(keys, (what) => cur.fail(what, setAt));
    result = { kind: 'site', form: 'mrs', list: { code, rules } };
  }
  if (cur.remaining > 0) cur.fail(`${cur.remaining} bytes after the rule set`);
  return result;
}
