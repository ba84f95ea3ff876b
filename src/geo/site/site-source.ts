// Parses one domain-list-community source file (the file name is the list code) into its rules,
// `include:` lines and `&affiliation` targets, validating every line the way the upstream builder
// does. Pure: text in, parsed list out; errors say file:line and what was wrong.
import { RE2JS } from 're2js';
import { GeoError } from '../errors.js';

/** Source rule types, as written before the colon. */
export type SourceRuleType = 'domain' | 'full' | 'keyword' | 'regexp';

/** One rule line, normalised: `plain` is its canonical text (`type:value[:@a,@b]`), the dedupe key. */
export interface SourceRule {
  readonly type: SourceRuleType;
  readonly value: string;
  /** Attribute keys, lower case, sorted. */
  readonly attrs: readonly string[];
  readonly plain: string;
  /** True when plain holds a UTF-16 code unit >= U+D800, where JS string order differs from UTF-8 order. */
  readonly wide: boolean;
}

/** An `include:name @must @-ban` line. */
export interface SourceInclusion {
  /** The included list's code (upper case). */
  readonly source: string;
  readonly mustAttrs: readonly string[];
  readonly banAttrs: readonly string[];
  /** `file:line` of the include line, for errors found later. */
  readonly where: string;
}

/** What one source file contributes: its own rules, its inclusions, rules given to other lists. */
export interface ParsedSource {
  readonly code: string;
  readonly file: string;
  readonly rules: SourceRule[];
  readonly inclusions: SourceInclusion[];
  /** Rules this file adds to other lists with `&code`, by target code. */
  readonly affiliations: Map<string, SourceRule[]>;
}

const RULE_TYPES: ReadonlySet<string> = new Set(['domain', 'full', 'keyword', 'regexp']);

/** True for a list code: A-Z, 0-9, `!` and `-` (codes are compared upper case). */
export function isValidListCode(code: string): boolean {
  return /^[A-Z0-9!-]+$/.test(code);
}

function isValidDomainChars(value: string): boolean {
  return /^[a-z0-9.-]+$/.test(value);
}

function isValidAttr(attr: string): boolean {
  return /^[a-z0-9!]+$/.test(attr);
}

/** Returns the RE2 syntax error of a pattern, or undefined when RE2 accepts it. */
export function re2SyntaxError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Parses the text of one list file; `file` is used in error messages only. */
export function parseSiteSource(code: string, text: string, file: string): ParsedSource {
  const upper = code.toUpperCase();
  if (!isValidListCode(upper)) {
    throw new GeoError(
      'source_syntax',
      `${file}: invalid list name "${code}" (allowed: letters, digits, "!" and "-")`,
    );
  }
  const parsed: ParsedSource = { code: upper, file, rules: [], inclusions: [], affiliations: new Map() };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const hash = raw.indexOf('#');
    const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    const colon = line.indexOf(':');
    const type = colon === -1 ? 'domain' : line.slice(0, colon).toLowerCase();
    const rest = colon === -1 ? line : line.slice(colon + 1);
    const fields = rest.split(/\s+/).filter((f) => f !== '');
    if (type === 'include') {
      parsed.inclusions.push(parseInclusion(fields, where));
      continue;
    }
    const { rule, affiliations } = parseRule(type, fields, where);
    parsed.rules.push(rule);
    for (const target of affiliations) {
      let list = parsed.affiliations.get(target);
      if (!list) {
        list = [];
        parsed.affiliations.set(target, list);
      }
      list.push(rule);
    }
  }
  return parsed;
}

function parseRule(
  type: string,
  fields: string[],
  where: string,
): { rule: SourceRule; affiliations: string[] } {
  if (!RULE_TYPES.has(type)) {
    throw new GeoError(
      'source_syntax',
      `${where}: unknown rule type "${type}" (expected domain, full, keyword, regexp or include)`,
    );
  }
  const first = fields[0];
  if (first === undefined) throw new GeoError('source_syntax', `${where}: empty ${type} rule`);
  let value: string;
  if (type === 'regexp') {
    const problem = re2SyntaxError(first);
    if (problem !== undefined) {
      throw new GeoError('source_syntax', `${where}: invalid regexp "${first}": ${problem}`);
    }
    value = first;
  } else {
    value = first.toLowerCase();
    if (!isValidDomainChars(value)) {
      throw new GeoError(
        'source_syntax',
        `${where}: invalid domain "${value}" (allowed: a-z, 0-9, "." and "-")`,
      );
    }
  }
  const attrs: string[] = [];
  const affiliations: string[] = [];
  for (const field of fields.slice(1)) {
    if (field.startsWith('@')) {
      const attr = field.slice(1).toLowerCase();
      if (!isValidAttr(attr)) {
        throw new GeoError(
          'source_syntax',
          `${where}: invalid attribute "${field}" (allowed after "@": a-z, 0-9 and "!")`,
        );
      }
      attrs.push(attr);
    } else if (field.startsWith('&')) {
      const target = field.slice(1).toUpperCase();
      if (!isValidListCode(target))
        throw new GeoError('source_syntax', `${where}: invalid affiliation "${field}"`);
      affiliations.push(target);
    } else {
      throw new GeoError(
        'source_syntax',
        `${where}: unexpected "${field}" after the rule (attributes start with "@", affiliations with "&")`,
      );
    }
  }
  attrs.sort();
  const plain = attrs.length === 0 ? `${type}:${value}` : `${type}:${value}:@${attrs.join(',@')}`;
  const wide = /[\ud800-\uffff]/.test(plain);
  return { rule: { type: type as SourceRuleType, value, attrs, plain, wide }, affiliations };
}

function parseInclusion(fields: string[], where: string): SourceInclusion {
  const first = fields[0];
  if (first === undefined) throw new GeoError('source_syntax', `${where}: include without a list name`);
  const source = first.toUpperCase();
  if (!isValidListCode(source)) {
    throw new GeoError('source_syntax', `${where}: invalid included list name "${first}"`);
  }
  const mustAttrs: string[] = [];
  const banAttrs: string[] = [];
  for (const field of fields.slice(1)) {
    if (field.startsWith('@')) {
      const attr = field.slice(1).toLowerCase();
      const ban = attr.startsWith('-');
      const key = ban ? attr.slice(1) : attr;
      if (!isValidAttr(key)) {
        throw new GeoError('source_syntax', `${where}: invalid attribute filter "${field}" in include`);
      }
      (ban ? banAttrs : mustAttrs).push(key);
    } else if (field.startsWith('&')) {
      throw new GeoError(
        'source_syntax',
        `${where}: an include line cannot carry an affiliation ("${field}")`,
      );
    } else {
      throw new GeoError(
        'source_syntax',
        `${where}: unexpected "${field}" in include (filters are "@attr" or "@-attr")`,
      );
    }
  }
  return { source, mustAttrs, banAttrs, where };
}
