// Builds IP lists from text lists and country mmdb data, as v2fly/geoip does:
//   sources -> one CidrSet per upper-cased code (same code from several sources is a union)
//   -> optional --codes filter -> merge to minimal CIDRs -> lists sorted by code.
// The file reading lives in ip-loader.ts; this is pure.

import { GeoError } from '../errors.js';
import type { IpList } from '../model.js';
import { compareCodePoints } from '../site/site-compiler.js';
import type { CidrSet } from './cidr-set.js';

/** Options of compileIpLists. */
export interface CompileIpOptions {
  /** Write only these codes (any case). Default: every code found. */
  readonly codes?: readonly string[] | undefined;
  /** Called after each list is merged. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** Picks the sets to write, sorted by code; unknown wanted codes and empty sets are errors. */
export function selectIpSets(
  sets: ReadonlyMap<string, CidrSet>,
  codes?: readonly string[] | undefined,
): { code: string; set: CidrSet }[] {
  let wanted: string[];
  if (codes && codes.length > 0) {
    wanted = [...new Set(codes.map((c) => c.trim().toUpperCase()))];
    for (const code of wanted) {
      if (!sets.has(code)) {
        throw new GeoError('code_not_found', `no input holds the code "${code.toLowerCase()}"`);
      }
    }
  } else wanted = [...sets.keys()];
  wanted.sort(compareCodePoints);
  return wanted.map((code) => {
    const set = sets.get(code) as CidrSet;
    if (set.size === 0) throw new GeoError('source_empty', `list "${code.toLowerCase()}" has no networks`);
    return { code, set };
  });
}

/** Merges per-code network sets into IP lists sorted by code. */
export function compileIpLists(sets: ReadonlyMap<string, CidrSet>, options: CompileIpOptions = {}): IpList[] {
  const selected = selectIpSets(sets, options.codes);
  return selected.map(({ code, set }, i) => {
    const list = { code, cidrs: set.build(), inverseMatch: false };
    options.onProgress?.(i + 1, selected.length);
    return list;
  });
}
