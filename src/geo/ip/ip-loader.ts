// Reads IP sources from disk for the IP compiler: text list files (or every file of a directory;
// the base name without extension is the code) and an optional country mmdb.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { GeoError } from '../errors.js';
import { CidrSet } from './cidr-set.js';
import { parseIpText } from './ip-source.js';
import { readMmdbCountries } from './mmdb-source.js';

/** Expands the given files and directories into text list files, sorted by path within a directory. */
export function listIpFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (err) {
      throw new GeoError('file_unreadable', `cannot read ${path}: ${(err as Error).message}`);
    }
    if (!isDir) {
      out.push(path);
      continue;
    }
    const names = readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    for (const name of names) out.push(join(path, name));
  }
  return out;
}

/** The list code of a text file: its base name without extension, upper case. */
export function ipCodeOfFile(file: string): string {
  return basename(file, extname(file)).toUpperCase();
}

/** Options of loadIpSources. */
export interface LoadIpOptions {
  /** Only read text files whose code is in this set (upper case); others are skipped unread. */
  readonly onlyCodes?: ReadonlySet<string> | undefined;
  /** A country mmdb file to read too. */
  readonly mmdb?: string | undefined;
  /** Called after each file is read. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** Reads text lists and an optional mmdb into one CidrSet per code. */
export function loadIpSources(paths: readonly string[], options: LoadIpOptions = {}): Map<string, CidrSet> {
  const sets = new Map<string, CidrSet>();
  const files = listIpFiles(paths).filter(
    (f) => !options.onlyCodes || options.onlyCodes.has(ipCodeOfFile(f)),
  );
  const total = files.length + (options.mmdb ? 1 : 0);
  let done = 0;
  for (const file of files) {
    const code = ipCodeOfFile(file);
    let set = sets.get(code);
    if (!set) {
      set = new CidrSet();
      sets.set(code, set);
    }
    parseIpText(readFileSync(file, 'utf8'), file, set);
    options.onProgress?.(++done, total);
  }
  if (options.mmdb) {
    let db: Buffer;
    try {
      db = readFileSync(options.mmdb);
    } catch (err) {
      throw new GeoError('file_unreadable', `cannot read ${options.mmdb}: ${(err as Error).message}`);
    }
    for (const [code, fromDb] of readMmdbCountries(db, options.mmdb)) {
      if (options.onlyCodes && !options.onlyCodes.has(code)) continue;
      const set = sets.get(code);
      if (set) set.addAll(fromDb);
      else sets.set(code, fromDb);
    }
    options.onProgress?.(++done, total);
  }
  return sets;
}
