// The package version, read once from package.json (used in User-Agent and `--version`).
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** branchgate's version as written in package.json. */
export const VERSION: string = pkg.version;
