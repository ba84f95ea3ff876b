// The real Asterisk 22 capture (../shared/corpora/cdr/asterisk-22 beside the repository; a git
// worktree elsewhere can point BRANCHGATE_SHARED_DIR at the shared directory).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../../../support/serve-process.js';

/** The capture's directory. */
export const CAPTURE_DIR = resolve(
  process.env.BRANCHGATE_SHARED_DIR ?? resolve(REPO_ROOT, '../shared'),
  'corpora/cdr/asterisk-22',
);

/** The capture's Master.csv (cdr_csv, 18 columns), its 28 lines without line ends. */
export const MASTER_LINES: readonly string[] = readFileSync(resolve(CAPTURE_DIR, 'Master.csv'), 'utf8')
  .trimEnd()
  .split('\n');
