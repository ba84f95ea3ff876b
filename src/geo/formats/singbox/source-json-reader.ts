// Reads a sing-box source rule-set (JSON: {"version": N, "rules": [headless rules]}) as strictly as
// sing-box does: version 1 to 4 required, unknown fields refused, a list field may be one bare
// value. Items a branchgate list cannot hold (ports, process names, logical rules, ...) are refused
// by name unless empty. Errors name the file and a line:column (syntax) or a JSON path (content).
import { GeoError } from '../../errors.js';
import { cidrBytes, parseCidr } from '../../ip/ip-address.js';
import type { Cidr } from '../../model.js';
import { jsonErrorPosition } from './json-error-position.js';
import type { RuleSetDocument, RuleSetRule } from './rule-set-rule.js';
import { SRS_ITEM_NAMES } from './srs-item-names.js';

const HELD = new Set([
  'domain',
  'domain_suffix',
  'domain_keyword',
  'domain_regex',
  'ip_cidr',
  'invert',
  'type',
]);
const NOT_HELD = new Set(
  [...SRS_ITEM_NAMES.values()].filter((n) => !HELD.has(n) && n !== 'final' && n !== 'adguard_domain'),
);

/** Reads source JSON text; `name` (the file's name) is used in errors. */
export function readRuleSetSource(text: string, name: string): RuleSetDocument {
  const fail = (code: 'ruleset_corrupt' | 'ruleset_unsupported', where: string, what: string): never => {
    throw new GeoError(code, `${name}: ${where}: ${what}`);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const at = jsonErrorPosition(text);
    const where =
      at < 0 || at >= text.length ? `${lineColumn(text, text.length)} (the end)` : lineColumn(text, at);
    return fail('ruleset_corrupt', where, `not valid JSON (${(err as Error).message.slice(0, 200)})`);
  }
  if (!isObject(doc)) return fail('ruleset_corrupt', 'top level', 'a rule-set is a JSON object');
  const top = foldKeys(doc);
  for (const key of Object.keys(top)) {
    if (key !== 'version' && key !== 'rules') fail('ruleset_corrupt', key, 'unknown field');
  }
  const version = top.version;
  if (version === undefined || version === 0) fail('ruleset_corrupt', 'version', 'missing rule-set version');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return fail('ruleset_corrupt', 'version', `${JSON.stringify(version)} is not a version number`);
  }
  if (version > 4)
    fail('ruleset_unsupported', 'version', `rule-set version ${version} is newer than this reader (1 to 4)`);
  const rawRules = top.rules ?? [];
  if (!Array.isArray(rawRules)) return fail('ruleset_corrupt', 'rules', 'must be a list');
  const rules = rawRules.map((raw, i) => readRule(raw, `rules[${i}]`, fail));
  return { version, rules };
}

type Fail = (code: 'ruleset_corrupt' | 'ruleset_unsupported', where: string, what: string) => never;

function readRule(input: unknown, where: string, fail: Fail): RuleSetRule {
  if (!isObject(input)) return fail('ruleset_corrupt', where, 'a rule is a JSON object');
  const raw = foldKeys(input);
  const type = raw.type ?? '';
  if (type === 'logical')
    fail(
      'ruleset_unsupported',
      where,
      'a logical rule (and/or of rules), which a branchgate list cannot hold',
    );
  if (type !== '' && type !== 'default')
    fail('ruleset_corrupt', `${where}.type`, `unknown rule type ${JSON.stringify(type)}`);
  for (const [key, value] of Object.entries(raw)) {
    if (HELD.has(key)) continue;
    if (!NOT_HELD.has(key)) fail('ruleset_corrupt', `${where}.${key}`, 'unknown field');
    if (!isEmpty(value)) {
      fail(
        'ruleset_unsupported',
        `${where}.${key}`,
        `the item ${key}, which a branchgate list cannot hold (only domain, domain_suffix, domain_keyword, domain_regex and ip_cidr)`,
      );
    }
  }
  const strings = (key: string): string[] => listable(raw[key], `${where}.${key}`, fail);
  const names = (key: string): string[] =>
    strings(key).map((value, i) => {
      if (value === '') fail('ruleset_unsupported', `${where}.${key}[${i}]`, 'an empty name');
      if (/[\r\n]/.test(value))
        fail('ruleset_unsupported', `${where}.${key}[${i}]`, 'a name with a line break');
      return value;
    });
  const suffixes = names('domain_suffix');
  const invert = raw.invert ?? false;
  if (typeof invert !== 'boolean') fail('ruleset_corrupt', `${where}.invert`, 'must be true or false');
  return {
    domain: names('domain'),
    domainSuffix: suffixes.filter((s) => !s.startsWith('.')),
    domainEnding: suffixes.filter((s) => s.startsWith('.')),
    domainKeyword: strings('domain_keyword'),
    domainRegex: strings('domain_regex'),
    ipCidr: strings('ip_cidr').map((text, i) => cidr(text, `${where}.ip_cidr[${i}]`, fail)),
    invert: invert === true,
    where,
  };
}

/** A list field: absent/null (none), one string, or a list of strings. */
function listable(value: unknown, where: string, fail: Fail): string[] {
  if (value === undefined || value === null) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((v, i) =>
    typeof v === 'string' ? v : fail('ruleset_corrupt', `${where}[${i}]`, 'must be a string'),
  );
}

function cidr(text: string, where: string, fail: Fail): Cidr {
  const parsed = parseCidr(text);
  if (!parsed) return fail('ruleset_corrupt', where, `${JSON.stringify(text)} is not an IP address or CIDR`);
  return cidrBytes(parsed);
}

/** Field names matched without regard to ASCII case, the later of two equal ones winning, as Go's encoding/json does. */
function foldKeys(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) out[key.toLowerCase()] = value;
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What sing-box's omitempty treats as absent: null, false, 0, "", [] and {}. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return `line ${line} column ${position - before.lastIndexOf('\n')}`;
}
