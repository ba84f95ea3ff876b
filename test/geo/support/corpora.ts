// Where the shared real-data corpora live: ../shared/corpora beside the repository (CI clones the
// repo with shared/ next to it), found from this file's location, never from the working directory.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** ../shared/corpora/geo relative to the repository root. */
export const geoCorpora = resolve(repoRoot, '../shared/corpora/geo');

/** True when the geo corpora are present. */
export const hasGeoCorpora = existsSync(resolve(geoCorpora, 'upstream/dlc.dat'));

/** The real geoip files of upstream/ (v2fly/geoip's release), every one of them. */
export const UPSTREAM_GEOIP_FILES = [
  'geoip-private.dat',
  'geoip-cn.dat',
  'geoip-de.dat',
  'geoip-jp.dat',
  'geoip-only-cn-private.dat',
] as const;

/**
 * A directory of third-party rule-set files for a corpus test: the one the environment variable
 * names, else geo/<dir> of the shared corpora when they hold one; undefined when neither.
 */
export function thirdPartyCorpus(variable: string, dir: string): string | undefined {
  const named = process.env[variable];
  if (named) return named;
  const shared = resolve(geoCorpora, dir);
  return existsSync(shared) ? shared : undefined;
}

if (!hasGeoCorpora) console.warn(`geo corpus tests skipped: ${geoCorpora} not found`);
