// Writes the `text` format: a site list in source syntax (as `geo dump` prints it, attributes
// included), an IP list as CIDR lines. What the syntax cannot carry is refused, naming the rule.
import { GeoError } from '../../errors.js';
import { formatCidr } from '../../ip/ip-address.js';
import { siteRuleToText } from '../list-text.js';
import type { AnyList } from './any-list.js';
import { textAttributeProblem, textValueProblem } from './text-rule-syntax.js';

/** The text of a list; every line reads back (readTextList) as the rule or CIDR it came from. */
export function writeTextList(item: AnyList): string {
  if (item.kind === 'ip') {
    if (item.list.inverseMatch) {
      throw new GeoError(
        'export_unsupported',
        `list ${item.list.code} has inverse_match (every address outside its networks), which CIDR lines cannot hold`,
      );
    }
    return item.list.cidrs.map((c) => `${formatCidr(c.ip, c.prefix)}\n`).join('');
  }
  const lines: string[] = [];
  item.list.rules.forEach((rule, i) => {
    const problem =
      textValueProblem(rule.type, rule.value) ??
      rule.attributes.map((a) => textAttributeProblem(a.key)).find((p) => p !== undefined);
    if (problem !== undefined) {
      throw new GeoError(
        'export_unsupported',
        `list ${item.list.code} rule ${i + 1} (${JSON.stringify(rule.value)}): ${problem}`,
      );
    }
    lines.push(`${siteRuleToText(rule)}\n`);
  });
  return lines.join('');
}
