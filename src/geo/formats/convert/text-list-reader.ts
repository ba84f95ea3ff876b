// Reads the `text` format: one list, as `geo dump` prints it. Site lists in domain-list-community
// source syntax (`domain:`, `full:`, `keyword:`, `regexp:`, a bare name as `domain:`, ` @attr`),
// taken as written (no includes, nothing compiled); IP lists as one CIDR or address a line.
import { GeoError } from '../../errors.js';
import { cidrBytes, parseCidr } from '../../ip/ip-address.js';
import type { Cidr, SiteAttribute, SiteRule } from '../../model.js';
import type { AnyList } from './any-list.js';
import { parseTextAttribute, TEXT_RULE_TYPES, textValueProblem } from './text-rule-syntax.js';

interface Line {
  readonly text: string;
  readonly line: number;
}

/**
 * The list a text file holds; the kind is told from its first entry (a CIDR or address: an IP
 * list; none: an empty site list). `#` starts a comment (and `//` in an IP list); errors name the
 * file and line.
 */
export function readTextList(text: string, name: string, code: string): AnyList {
  const lines: Line[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    let t = (raw[i] as string).replace(/\r$/, '');
    if (i === 0) t = t.replace(/^\uFEFF/, '');
    const hash = t.indexOf('#');
    t = (hash === -1 ? t : t.slice(0, hash)).trim();
    if (t !== '') lines.push({ text: t, line: i + 1 });
  }
  const first = lines[0];
  // No entries: an empty list, read as a site list (nothing tells its kind), as an empty rule-set is.
  if (!first) return { kind: 'site', list: { code, rules: [] } };
  if (parseCidr(stripSlashComment(first.text)) !== undefined) {
    return {
      kind: 'ip',
      list: { code, cidrs: lines.map((l) => ipLine(l, name, first.line)), inverseMatch: false },
    };
  }
  return { kind: 'site', list: { code, rules: lines.map((l) => siteLine(l, name)) } };
}

function stripSlashComment(text: string): string {
  const at = text.search(/\/[/*]/);
  return (at === -1 ? text : text.slice(0, at)).trim();
}

function ipLine(l: Line, name: string, firstLine: number): Cidr {
  const text = stripSlashComment(l.text);
  const parsed = text === '' ? undefined : parseCidr(text);
  if (!parsed) {
    throw new GeoError(
      'ip_syntax',
      `${name}:${l.line}: invalid CIDR or IP address "${text}" (read as an IP list, told from line ${firstLine})`,
    );
  }
  return cidrBytes(parsed);
}

function siteLine(l: Line, name: string): SiteRule {
  const fail = (what: string): never => {
    throw new GeoError('source_syntax', `${name}:${l.line}: ${what}`);
  };
  const colon = l.text.indexOf(':');
  const typeName = colon === -1 ? 'domain' : l.text.slice(0, colon).toLowerCase();
  const fields = (colon === -1 ? l.text : l.text.slice(colon + 1)).split(/\s+/).filter((f) => f !== '');
  if (typeName === 'include')
    fail('include lines need the other list files: use `geo build-site` on the directory');
  const type = TEXT_RULE_TYPES[typeName];
  if (type === undefined) fail(`unknown rule type "${typeName}" (expected domain, full, keyword or regexp)`);
  const t = type as number as SiteRule['type'];
  const first = fields[0];
  if (first === undefined) return fail(`empty ${typeName} rule`);
  const value = typeName === 'regexp' ? first : first.toLowerCase();
  const problem = textValueProblem(t, value);
  if (problem !== undefined) fail(`${typeName} value ${JSON.stringify(value)} ${problem}`);
  const attributes: SiteAttribute[] = [];
  for (const field of fields.slice(1)) {
    if (field.startsWith('&'))
      fail(`affiliation "${field}" adds to another list: use \`geo build-site\` on the directory`);
    if (!field.startsWith('@')) fail(`unexpected "${field}" after the rule (attributes start with "@")`);
    const attr = parseTextAttribute(field);
    if ('problem' in attr) fail(attr.problem);
    else attributes.push(attr);
  }
  return { type: t, value, attributes };
}
