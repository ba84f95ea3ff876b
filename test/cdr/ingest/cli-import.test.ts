import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const MASTER = new URL('../../../../shared/corpora/cdr/asterisk-22/Master.csv', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'bg-cdr-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function branchgate(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/branchgate.js', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('`cdr import` prints a summary and a skipped line, then refuses under --strict and for a bad zone', () => {
  const lines = readFileSync(MASTER, 'utf8').split('\n');
  lines[1] = (lines[1] as string).replace(',0,0,', ',0,x,');
  const path = join(dir, 'Master.csv');
  writeFileSync(path, lines.join('\n'));
  const db = join(dir, 'data', 'branchgate.db');

  const strict = branchgate('cdr', 'import', path, '--db', db, '--strict');
  expect(strict.code).toBe(1);
  expect(strict.stderr).toContain(
    `branchgate: ${path}: 1 bad line(s), nothing imported (--strict):\n  ${path}:2: field billsec: "x"`,
  );

  const lenient = branchgate('cdr', 'import', path, '--db', db);
  expect(lenient.stderr).toBe(`${path}:2: skipped: field billsec: "x" is not a whole number\n`);
  expect(lenient.stdout).toBe(`${path}: cdr_csv 18 columns: read 28, inserted 27, duplicates 0, bad 1\n`);
  expect(lenient.code).toBe(0);

  const again = branchgate('cdr', 'import', MASTER, '--data-dir', join(dir, 'data'));
  expect(again.stdout).toBe(`${MASTER}: cdr_csv 18 columns: read 28, inserted 1, duplicates 27, bad 0\n`);

  const zone = branchgate('cdr', 'import', MASTER, '--db', db, '--timezone', 'Nowhere/Special');
  expect(zone.code).toBe(1);
  expect(zone.stderr).toBe('branchgate: --timezone: "Nowhere/Special" is not an IANA time zone name\n');
});
