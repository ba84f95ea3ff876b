// Reads a domain-list-community data directory from disk (every file, subfolders too, in name
// order; the base name is the list code) and parses each file. The only I/O of the site compiler.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { GeoError } from '../errors.js';
import { type ParsedSource, parseSiteSource } from './site-source.js';

/** Lists every regular file under dir, recursively, sorted by path. */
export function listSourceFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new GeoError('file_unreadable', `cannot read data directory ${dir}: ${(err as Error).message}`);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSourceFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Reads and parses every list file of a data directory. */
export function loadSiteSources(dir: string): ParsedSource[] {
  return listSourceFiles(dir).map((file) =>
    parseSiteSource(basename(file), readFileSync(file, 'utf8'), file),
  );
}
