// A straightforward evaluation of a sing-box rule-set as sing-box documents it, for differential
// tests: a name matches when some rule has an item that matches it -- domain (equal),
// domain_suffix (equal or a subdomain), a leading-dot domain_suffix (ends with it), domain_keyword
// (contains), domain_regex (RE2 find) -- and the rule is not inverted. Linear, no index.
import { RE2JS } from 're2js';
import type { RuleSetDocument } from '../../../src/geo/formats/singbox/rule-set-rule.js';

/** A function telling whether a rule-set matches a (lower-case, no trailing dot) name. */
export function ruleSetEvaluator(doc: RuleSetDocument): (name: string) => boolean {
  const rules = doc.rules.map((rule) => ({
    rule,
    regexes: rule.domainRegex.map((p) => RE2JS.compile(p)),
  }));
  return (name) =>
    rules.some(({ rule, regexes }) => {
      const hit =
        rule.domain.includes(name) ||
        rule.domainSuffix.some((s) => name === s || name.endsWith(`.${s}`)) ||
        rule.domainEnding.some((s) => name.endsWith(s)) ||
        rule.domainKeyword.some((k) => name.includes(k)) ||
        regexes.some((re) => re.test(name));
      return hit !== rule.invert;
    });
}
