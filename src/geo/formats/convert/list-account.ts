// What one list lost on its way into a format, counted by kind, and the stderr line that says so.
// Kinds: rules dropped (keyword, regexp), attributes dropped from rules kept, rules written once
// (duplicate), rules folded into another matching the same names (merged), rules written broader
// (widened: dnsmasq's full names).
import type { ConvertFormat, ListKind } from './convert-format.js';
import { FORMATS } from './convert-format.js';

/** A kind of loss. */
export type LossKind = 'keyword' | 'regexp' | 'attributes' | 'duplicate' | 'merged' | 'widened';

/** Losses by kind; a kind that lost nothing is absent. */
export type LossCounts = Readonly<Partial<Record<LossKind, number>>>;

/** One list's conversion: where it came from, how many rules went in and out, what was lost. */
export interface ListAccount {
  /** The input file's name. */
  readonly source: string;
  readonly code: string;
  readonly kind: ListKind;
  /** Rules (site) or networks (IP) read. */
  readonly rules: number;
  /** Rules or networks the written file holds (what reads back). */
  readonly written: number;
  readonly lost: LossCounts;
  /** False when the format could hold none of it and no file was written (an empty .mrs). */
  readonly file: boolean;
}

const WORDS: Readonly<Record<LossKind, (n: number, unit: string) => string>> = {
  keyword: (n) => `${n} keyword ${n === 1 ? 'rule' : 'rules'} dropped`,
  regexp: (n) => `${n} regexp ${n === 1 ? 'rule' : 'rules'} dropped`,
  attributes: (n) => `attributes dropped from ${n} ${n === 1 ? 'rule' : 'rules'}`,
  duplicate: (n, unit) => `${n} duplicate ${unit} written once`,
  merged: (n, unit) => `${n} ${unit} merged into others matching the same`,
  widened: (n) =>
    `${n} full ${n === 1 ? 'rule' : 'rules'} written as ${n === 1 ? 'a domain rule' : 'domain rules'} (subdomains match too)`,
};

/** The stderr line for an account (`CN -> srs: 3 regexp rules dropped; ...`), or undefined when nothing was lost. */
export function describeAccount(account: ListAccount, to: ConvertFormat): string | undefined {
  const unit = account.kind === 'ip' ? 'networks' : 'rules';
  const parts = (Object.keys(WORDS) as LossKind[])
    .filter((k) => (account.lost[k] ?? 0) > 0)
    .map((k) => WORDS[k](account.lost[k] as number, unit));
  if (!account.file) parts.push('nothing left to write: no file written');
  if (parts.length === 0) return undefined;
  return `${account.code} -> ${FORMATS[to].title}: ${parts.join('; ')}`;
}

/** Adds counts, leaving out zeros. */
export function lossCounts(counts: Readonly<Record<LossKind, number>>): LossCounts {
  const out: Partial<Record<LossKind, number>> = {};
  for (const [k, v] of Object.entries(counts) as [LossKind, number][]) if (v !== 0) out[k] = v;
  return out;
}
