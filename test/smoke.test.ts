import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { VERSION } from '../src/shared/version.js';

test('the branchgate CLI prints the package version', () => {
  const out = execFileSync(process.execPath, ['scripts/branchgate-dev.js', '--version']).toString().trim();
  expect(out).toBe(VERSION);
});
