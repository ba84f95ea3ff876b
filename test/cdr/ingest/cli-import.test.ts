import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const MASTER = new URL('../../../../shared/corpora/cdr/asterisk-22/Master.csv', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'bg-cdr-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function branchgate(...args: string[]) {
  const r = spawnSync(process.execPath, ['scripts/branchgate-dev.js', ...args], { encoding: 'utf8' });
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
  expect(zone.stderr).toBe('branchgate: --time-zone: "Nowhere/Special" is not an IANA time zone name\n');
});

test('`cdr import --jobs 2` stores and reports exactly what one thread does', () => {
  const full = readFileSync(MASTER.replace('Master.csv', 'Master-full.csv'), 'utf8').trim().split('\n');
  // 60 copies of the capture, one call after another; a bad time in the first and the last copy.
  const lines: string[] = [];
  for (let k = 0; k < 60; k++) {
    for (const row of full) {
      lines.push(
        row.replace(
          /"(\d{10})\.(\d+)"/g,
          (_m, epoch: string, n: string) => `"${Number(epoch) + k * 62}.${n}"`,
        ),
      );
    }
  }
  lines[3] = (lines[3] as string).replace(/"2026-11-22 04:\d\d:(\d\d)"/, '"2026-11-22 04:61:$1"');
  lines[1650] = (lines[1650] as string).replace(/"2026-11-22 (\d\d:\d\d:\d\d)"/, '"2026-11-22 $1x"');
  const path = join(dir, 'Master-full-60.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);

  const one = branchgate('cdr', 'import', path, '--db', join(dir, 'one.db'), '--jobs', '1');
  const two = branchgate('cdr', 'import', path, '--db', join(dir, 'two.db'), '--jobs', '2');
  expect(one.stdout).toBe(`${path}: cdr_custom 21 columns: read 1680, inserted 1678, duplicates 0, bad 2\n`);
  expect(one.stderr).toMatch(
    new RegExp(`^${path}:4: skipped: field start: .*\\n${path}:1651: skipped: field \\w+: .*\\n$`),
  );
  expect(two.stdout).toBe(one.stdout);
  expect(two.stderr).toBe(one.stderr);

  const dump = (db: string): string => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const D=require('better-sqlite3');const d=new D(${JSON.stringify(db)},{readonly:true});` +
          `process.stdout.write(JSON.stringify(d.prepare('select identity, initial_destination, computed_destination, start_ts, clid from cdr order by db_id').all()))`,
      ],
      { encoding: 'utf8' },
    );
    return r.stdout;
  };
  const rows = JSON.parse(dump(join(dir, 'two.db'))) as Array<{ initial_destination: string }>;
  expect(rows).toHaveLength(1678);
  expect(dump(join(dir, 'two.db'))).toBe(dump(join(dir, 'one.db')));
});
