// sing-box rule-sets for the geo area: read and write both forms (binary .srs and source JSON),
// versions 1 to 4, one branchgate list per rule-set. See docs/geo.md, "sing-box rule-sets".

export { ruleSetCode } from './rule-set-code.js';
export { type ReadRuleSetOptions, type ReadRuleSetResult, readRuleSet } from './rule-set-reader.js';
export type { RuleSetDocument, RuleSetRule } from './rule-set-rule.js';
export { RULE_SET_VERSIONS, type RuleSetVersion } from './rule-set-rule.js';
export type { RuleSetList } from './rule-set-to-list.js';
export { readRuleSetSource } from './source-json-reader.js';
export { type WriteRuleSetSourceOptions, writeRuleSetSource } from './source-json-writer.js';
export { MAX_SRS_BODY_BYTES, readSrs } from './srs-reader.js';
export { type WriteSrsOptions, writeSrs } from './srs-writer.js';
