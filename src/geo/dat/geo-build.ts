// The build entry points with their I/O: read sources from disk, compile, encode, and write the
// .dat atomically (temp file + rename), so a failed build leaves an existing output untouched.
//   site: data dir -> loadSiteSources -> compileSites -> encodeGeoSiteList -> file
//   ip:   lists/dirs + mmdb -> loadIpSources -> compileIpLists -> encodeGeoIpList -> file
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { selectIpSets } from '../ip/ip-compiler.js';
import { encodeCidrSets } from '../ip/ip-encoder.js';
import { loadIpSources } from '../ip/ip-loader.js';
import { compileSites } from '../site/site-compiler.js';
import { encodeGeoSiteList } from '../site/site-encoder.js';
import { loadSiteSources } from '../site/site-loader.js';

/** Progress callback: phase name, done, total. */
export type BuildProgress = (phase: string, done: number, total: number) => void;

/** What a build wrote. */
export interface BuildResult {
  readonly bytes: Uint8Array;
  readonly lists: number;
  readonly rules: number;
}

/** Compiles a domain-list-community data directory to geosite.dat bytes. */
export function buildSiteDat(
  dir: string,
  options: { codes?: readonly string[] | undefined; onProgress?: BuildProgress | undefined } = {},
): BuildResult {
  const sources = loadSiteSources(dir);
  const lists = compileSites(sources, {
    codes: options.codes,
    onProgress: (done, total) => options.onProgress?.('lists', done, total),
  });
  return {
    bytes: encodeGeoSiteList(lists),
    lists: lists.length,
    rules: lists.reduce((n, l) => n + l.rules.length, 0),
  };
}

/** Compiles text lists (files or directories) and an optional country mmdb to geoip.dat bytes. */
export function buildIpDat(
  paths: readonly string[],
  options: {
    codes?: readonly string[] | undefined;
    mmdb?: string | undefined;
    onProgress?: BuildProgress | undefined;
  } = {},
): BuildResult {
  const wanted =
    options.codes && options.codes.length > 0
      ? new Set(options.codes.map((c) => c.trim().toUpperCase()))
      : undefined;
  const sets = loadIpSources(paths, {
    onlyCodes: wanted,
    mmdb: options.mmdb,
    onProgress: (done, total) => options.onProgress?.('files', done, total),
  });
  const selected = selectIpSets(sets, options.codes);
  const { bytes, cidrs } = encodeCidrSets(selected);
  return { bytes, lists: selected.length, rules: cidrs };
}

/** Writes bytes to path via a temporary file in the same directory and a rename. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
