// What branchgate keeps of one sing-box headless rule: the domain and IP items a list can hold.
// Both readers (.srs and source JSON) produce these and both writers consume them; every other
// sing-box item is refused where it is read, naming it (see srs-item-names.ts).
import type { Cidr } from '../../model.js';

/** One default (non-logical) sing-box rule, reduced to the items a branchgate list can hold. */
export interface RuleSetRule {
  /** `domain`: exact names. */
  readonly domain: readonly string[];
  /** `domain_suffix` without a leading dot: the name and its subdomains. */
  readonly domainSuffix: readonly string[];
  /**
   * Any-ending suffixes: every name that ends with the text matches (`domain_suffix` with a
   * leading dot, so `.example.com` matches strict subdomains only).
   */
  readonly domainEnding: readonly string[];
  /** `domain_keyword`: substrings. */
  readonly domainKeyword: readonly string[];
  /** `domain_regex`: Go (RE2) regular expressions. */
  readonly domainRegex: readonly string[];
  /** `ip_cidr`: networks, network bits only. */
  readonly ipCidr: readonly Cidr[];
  /** `invert`: the rule matches when its items do not. */
  readonly invert: boolean;
  /** Where the rule is, for messages: `rule 2 at byte 817 of the decompressed data`, `rules[2]`. */
  readonly where: string;
}

/** A rule-set file as read: its version and its rules. */
export interface RuleSetDocument {
  readonly version: number;
  readonly rules: readonly RuleSetRule[];
}

/** The rule-set versions this code reads and writes (sing-box 1.8, 1.10, 1.11, 1.13). */
export const RULE_SET_VERSIONS = [1, 2, 3, 4] as const;

/** A rule-set version. */
export type RuleSetVersion = (typeof RULE_SET_VERSIONS)[number];
