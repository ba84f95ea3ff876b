#!/usr/bin/env node
// What `npm start` and `npm test` run first on a checkout, so each works on a fresh clone:
// installs the dependencies (npm ci) when node_modules is missing or older than package-lock.json,
// and with --build compiles dist/ (npm run build: about a second). Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mtime = (file) => {
  try {
    return statSync(join(root, file)).mtimeMs;
  } catch {
    return -1;
  }
};
// npm writes node_modules/.package-lock.json on every install: older than the lock means stale.
const installed = mtime('node_modules/.package-lock.json');
if (installed < 0 || installed < mtime('package-lock.json')) {
  process.stderr.write('branchgate: installing dependencies (npm ci)...\n');
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  execFileSync(cmd, [...args, 'ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}
if (process.argv.includes('--build')) {
  execFileSync(process.execPath, [join(root, 'scripts/build.js')], { cwd: root, stdio: 'inherit' });
}
