// Reads a sing-box rule-set file of either form, told from its content: binary when it starts with
// "SRS", source JSON otherwise. The result is one branchgate list; its code comes from the caller
// or, failing that, from the file's name (geosite-google.srs -> GOOGLE).
import { GeoError } from '../../errors.js';
import { ruleSetCode } from './rule-set-code.js';
import type { RuleSetDocument } from './rule-set-rule.js';
import { type RuleSetList, ruleSetToList } from './rule-set-to-list.js';
import { readRuleSetSource } from './source-json-reader.js';
import { readSrs, SRS_MAGIC } from './srs-reader.js';

/** Options of readRuleSet. */
export interface ReadRuleSetOptions {
  /** The list's code; default: ruleSetCode(name). */
  readonly code?: string | undefined;
  /** What a rule-set with no rules is read as (default `site`). */
  readonly emptyKind?: 'site' | 'ip' | undefined;
}

/** A rule-set read: its form, its version and the list it holds. */
export type ReadRuleSetResult = RuleSetList & {
  readonly format: 'binary' | 'source';
  readonly version: number;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads an .srs or source .json rule-set; `name` (the file's name) is used in errors. */
export function readRuleSet(
  bytes: Uint8Array,
  name: string,
  options: ReadRuleSetOptions = {},
): ReadRuleSetResult {
  const binary = SRS_MAGIC.every((b, i) => bytes[i] === b);
  let doc: RuleSetDocument;
  if (binary) doc = readSrs(bytes, name);
  else {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      text = '';
    }
    // Source JSON is an object: anything else is neither form (an empty or damaged file).
    if (!/^[ \t\r\n]*\{/.test(text)) {
      throw new GeoError(
        'ruleset_corrupt',
        `${name}: at byte 0: neither a binary rule-set ("SRS") nor source JSON (UTF-8 text starting with "{")`,
      );
    }
    doc = readRuleSetSource(text, name);
  }
  const list = ruleSetToList(doc.rules, {
    code: options.code ?? ruleSetCode(name),
    name,
    emptyKind: options.emptyKind,
  });
  return { ...list, format: binary ? 'binary' : 'source', version: doc.version };
}
