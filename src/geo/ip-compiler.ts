// Builds IP lists from text lists and country mmdb data, as v2fly/geoip does:
//   sources -> one CidrSet per upper-cased code (same code from several sources is a union)
//   -> optional --codes filter -> merge to minimal CIDRs -> lists sorted by code.
// The file reading lives in ip-loader.ts; this is pure.
import type { CidrSet } from './cidr-set.js';
import { GeoError } from './errors.js';
import type { IpList } from './model.js';
import { compareCodePoints } from './site-compiler.js';

/** Options of compileIpLists. */
export interface CompileIpOptions {
  /** Write only these codes (any case). Default: every code found. */
  readonly codes?: readonly string[] | undefined;
  /** Called after each list is merged. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** Merges per-code network sets into IP lists sorted by code. */
export function compileIpLists(sets: ReadonlyMap<string, CidrSet>, options: CompileIpOptions = {}): IpList[] {
  let codes: string[];
  if (options.codes && options.codes.length > 0) {
    codes = [...new Set(options.codes.map((c) => c.trim().toUpperCase()))];
    for (const code of codes) {
      if (!sets.has(code)) {
        throw new GeoError('code_not_found', `no input holds the code "${code.toLowerCase()}"`);
      }
    }
  } else codes = [...sets.keys()];
  codes.sort(compareCodePoints);
  const out: IpList[] = [];
  for (const code of codes) {
    const set = sets.get(code) as CidrSet;
    const cidrs = set.build();
    if (cidrs.length === 0)
      throw new GeoError('source_empty', `list "${code.toLowerCase()}" has no networks`);
    out.push({ code, cidrs, inverseMatch: false });
    options.onProgress?.(out.length, codes.length);
  }
  return out;
}
