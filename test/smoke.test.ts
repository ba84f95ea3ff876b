import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { VERSION } from '../src/shared/version.js';

test('the branchgate bin prints the package version', () => {
  const out = execFileSync(process.execPath, ['bin/branchgate.js', '--version']).toString().trim();
  expect(out).toBe(VERSION);
});
