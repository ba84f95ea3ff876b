import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkExtensionKey, checkLogin } from '../../src/auth/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { openStore } from '../../src/store/index.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';
import { BIN } from '../support/serve-process.js';

const run = promisify(execFile);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(storeKinds())('extension and user commands on %s', (kind) => {
  let tdb: TestDatabase;
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
  });
  afterEach(async () => tdb.drop());

  const cli = async (...args: string[]) =>
    (await run(process.execPath, [BIN, ...args, '--db', tdb.url])).stdout;
  const cliFails = async (...args: string[]) => {
    try {
      await run(process.execPath, [BIN, ...args, '--db', tdb.url]);
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
    throw new Error(`expected ${args.join(' ')} to fail`);
  };

  test('add, list, set and remove extensions', async () => {
    expect(
      await cli('extension', 'add', '1001', '--secret', 's3cret', '--cdr-access', '--name', 'Front desk'),
    ).toBe('added extension 1001 (CDR Access)\n');
    await cli('extension', 'add', '1002', '--secret', 'x');
    expect(JSON.parse(await cli('extension', 'list', '--json'))).toEqual([
      { number: '1001', name: 'Front desk', cdr_access: true },
      { number: '1002', name: '', cdr_access: false },
    ]);
    await cli('extension', 'set', '1001', '--no-cdr-access', '--secret', 'new-secret');
    await cli('extension', 'set', '1002', '--cdr-access');
    const store = await openStore({ db: tdb.url });
    try {
      expect(await checkExtensionKey(store, '1001', sha('new-secret'))).toBe('no_access');
      expect(await checkExtensionKey(store, '1001', sha('s3cret'))).toBe('bad');
      expect(await checkExtensionKey(store, '1002', sha('x'))).toBe('ok');
    } finally {
      await store.close();
    }
    expect(await cli('extension', 'remove', '1002')).toBe('removed extension 1002\n');
    expect(await cli('extension', 'list')).toBe('1001\t-\tFront desk\n');
  });

  test('errors say what was wrong and exit 1 without changing anything', async () => {
    await cli('extension', 'add', '1001', '--secret', 's3cret');
    const dup = await cliFails('extension', 'add', '1001', '--secret', 'other');
    expect(dup).toEqual({ code: 1, stderr: 'branchgate: extension 1001 already exists\n' });
    expect((await cliFails('extension', 'remove', '7777')).stderr).toBe('branchgate: no extension 7777\n');
    expect((await cliFails('extension', 'add', 'bad number!', '--secret', 'x')).stderr).toMatch(
      /extension "bad number!"/,
    );
    expect((await cliFails('user', 'add', 'carol', '--password', 'short')).stderr).toMatch(
      /at least 8 characters/,
    );
    expect(await cli('extension', 'list')).toBe('1001\t-\t\n');
  });

  test('user add, list and passwd (password from stdin too)', async () => {
    await cli('user', 'add', 'admin', '--password', 'admin-pass-1', '--admin');
    await cli('user', 'add', 'bob', '--password', 'bob-pass-12');
    expect(await cli('user', 'list')).toBe('admin\tadmin\nbob\tuser\n');
    const child = run(process.execPath, [BIN, 'user', 'passwd', 'bob', '--db', tdb.url]);
    child.child.stdin?.end('from-stdin-99\n');
    expect((await child).stdout).toBe('password of bob changed\n');
    const store = await openStore({ db: tdb.url });
    try {
      expect(await checkLogin(store, 'bob', 'from-stdin-99')).toMatchObject({
        username: 'bob',
        isAdmin: false,
      });
      expect(await checkLogin(store, 'bob', 'bob-pass-12')).toBeNull();
    } finally {
      await store.close();
    }
  });

  test('user set-admin and remove keep the last administrator', async () => {
    await cli('user', 'add', 'admin', '--password', 'admin-pass-1', '--admin');
    await cli('user', 'add', 'bob', '--password', 'bob-pass-12');
    expect((await cliFails('user', 'set-admin', 'admin', '--no-admin')).stderr).toBe(
      'branchgate: "admin" is the last administrator; make another one first\n',
    );
    expect(await cli('user', 'set-admin', 'bob')).toBe('bob is an administrator\n');
    expect(await cli('user', 'remove', 'admin')).toBe('removed user admin\n');
    expect((await cliFails('user', 'remove', 'bob')).code).toBe(1);
    expect(await cli('user', 'list')).toBe('bob\tadmin\n');
  });

  test('cdr export writes the filtered records as CSV or JSON, to stdout or a file', async () => {
    const store = await openStore({ db: tdb.url });
    try {
      await insertCdrRecords(store, fixtureRecords(1, 12));
    } finally {
      await store.close();
    }
    const csv = await cli('cdr', 'export', '--disposition', 'no answer', '--order', 'desc');
    expect(csv.split('\n')[0]).toBe(
      'db_id,call_id,caller_id,source,destination_context,destination,initial_destination,computed_destination,disposition,timestamp,date,start_time,answer_time,end_time,recording_url',
    );
    expect(
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['12', '9', '6', '3']);
    const dir = mkdtempSync(join(tmpdir(), 'bg-export-'));
    try {
      const file = join(dir, 'out.json');
      const r = await run(process.execPath, [
        BIN,
        'cdr',
        'export',
        '--format',
        'json',
        '-o',
        file,
        '--source',
        '4005',
        '--db',
        tdb.url,
      ]);
      expect(r.stderr).toContain(`${file}: 1 records`);
      expect(JSON.parse(readFileSync(file, 'utf8')).map((x: { db_id: number }) => x.db_id)).toEqual([5]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await cliFails('cdr', 'export', '--from', 'yesterday')).stderr).toContain(
      '--from: "yesterday" is not a date',
    );
  });
});
