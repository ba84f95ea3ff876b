// Writes a branchgate list as a sing-box source rule-set (JSON) the way sing-box prints one
// (`sing-box rule-set format` / `decompile`): two-space indent, fields in sing-box's order, a list
// of one value written as the bare value, <, > and & escaped as Go's encoder does, a final newline.
import { GeoError } from '../../errors.js';
import { formatCidr } from '../../ip/ip-address.js';
import type { IpList, SiteList } from '../../model.js';
import { listToRule } from './list-to-rule.js';
import { RULE_SET_VERSIONS, type RuleSetVersion } from './rule-set-rule.js';

/** Options of writeRuleSetSource. */
export interface WriteRuleSetSourceOptions {
  /** The `version` field (the content is the same for every version). */
  readonly version: RuleSetVersion;
}

/** The source JSON of a list (its code is not stored: name the file after it). */
export function writeRuleSetSource(list: SiteList | IpList, options: WriteRuleSetSourceOptions): string {
  const { version } = options;
  if (!RULE_SET_VERSIONS.includes(version)) {
    throw new GeoError('usage', `rule-set version ${String(version)}: 1, 2, 3 or 4 expected`);
  }
  const rule = listToRule(list);
  const doc: Record<string, unknown> = { version };
  if (rule) {
    const out: Record<string, unknown> = {};
    const put = (key: string, values: readonly string[]) => {
      if (values.length > 0) out[key] = values.length === 1 ? values[0] : values;
    };
    put('domain', rule.domain);
    put('domain_suffix', [...rule.domainSuffix, ...rule.domainEnding]);
    put('domain_keyword', rule.domainKeyword);
    put('domain_regex', rule.domainRegex);
    put(
      'ip_cidr',
      rule.ipCidr.map((c) => formatCidr(c.ip, c.prefix)),
    );
    if (rule.invert) out.invert = true;
    doc.rules = [out];
  }
  const text = JSON.stringify(doc, null, 2).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${text}\n`;
}
