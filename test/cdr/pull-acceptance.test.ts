// The acceptance path of the foundation, as an operator runs it: extensions added and the real
// Asterisk 22 capture imported with the CLI, then the three authentication methods over HTTPS.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { BIN, REPO_ROOT, type ServeProcess, spawnServe } from '../support/serve-process.js';

const run = promisify(execFile);
const CAPTURE = resolve(REPO_ROOT, '../shared/corpora/cdr/asterisk-22/Master.csv');
const KEY = createHash('sha256').update('s3cret').digest('hex');

describe.each(storeKinds())('the real capture through the CLI and the pull API on %s', (kind) => {
  let tdb: TestDatabase;
  let dataDir: string;
  let srv: ServeProcess;
  let cookie: string;
  const cli = (...args: string[]) => run(process.execPath, [BIN, ...args, '--db', tdb.url]);

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'bg-accept-'));
    await cli('extension', 'add', '1001', '--secret', 's3cret', '--cdr-access');
    await cli('extension', 'add', '1002', '--secret', 'other');
    await cli('user', 'add', 'bob', '--password', 'not-an-admin');
    const imported = await cli('cdr', 'import', CAPTURE);
    expect(imported.stdout).toMatch(/inserted 28, duplicates 0, bad 0/);
    const again = await cli('cdr', 'import', CAPTURE);
    expect(again.stdout).toMatch(/inserted 0, duplicates 28, bad 0/);
    srv = await spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'accept-admin-1' },
    });
    const login = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'accept-admin-1' }),
    });
    cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  }, 120_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('Basic, query and session get the same 28 records in db_id order', async () => {
    const basic = `Basic ${Buffer.from(`1001:${KEY}`).toString('base64')}`;
    const a = await send(`${srv.url}/pbx/cdr/data?limit=100`, { headers: { authorization: basic } });
    const b = await send(`${srv.url}/pbx/cdr/data?limit=100&extension=1001&key=${KEY.toUpperCase()}`);
    const c = await send(`${srv.url}/pbx/cdr/data?limit=100`, { headers: { cookie } });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(b.json()).toEqual(a.json());
    expect(c.json()).toEqual(a.json());
    const body = a.json();
    expect(body.total_pages).toBe(1);
    expect(body.data.map((r: { db_id: number }) => r.db_id)).toEqual(
      Array.from({ length: 28 }, (_, i) => i + 1),
    );
    // The first line of Master.csv: 4004 calls 2014, BUSY, never answered.
    expect(body.data[0]).toMatchObject({
      call_id: '1795322861.13',
      caller_id: '"Dave Evans" <4004>',
      source: '4004',
      destination: '2014',
      destination_context: 'sip_internal',
      disposition: 'BUSY',
      start_time: '2026-11-22 04:47:41',
      answer_time: '',
      end_time: '2026-11-22 04:47:41',
      timestamp: String(Date.UTC(2026, 10, 22, 4, 47, 41) / 1000),
    });
  });

  test('1002, a non-admin session, a wrong key and no credentials are refused', async () => {
    const other = createHash('sha256').update('other').digest('hex');
    expect((await send(`${srv.url}/pbx/cdr/data?extension=1002&key=${other}`)).status).toBe(403);
    const bob = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'not-an-admin' }),
    });
    const bobCookie = String(bob.headers['set-cookie']).split(';')[0] as string;
    expect((await send(`${srv.url}/pbx/cdr/data`, { headers: { cookie: bobCookie } })).status).toBe(403);
    const wrong = await send(`${srv.url}/pbx/cdr/data?extension=1001&key=${'0'.repeat(64)}`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="branchgate"');
    expect((await send(`${srv.url}/pbx/cdr/data`)).status).toBe(401);
  });

  test('page and limit: 400 for bad values, clamped limit, empty page past the end', async () => {
    const q = `extension=1001&key=${KEY}`;
    for (const bad of ['page=0', 'limit=-1', 'page=x']) {
      expect((await send(`${srv.url}/pbx/cdr/data?${bad}&${q}`)).status).toBe(400);
    }
    expect((await send(`${srv.url}/pbx/cdr/data?limit=5000&${q}`)).json().limit).toBe('1000');
    const page = (await send(`${srv.url}/pbx/cdr/data?page=3&limit=10&${q}`)).json();
    expect(page.total_pages).toBe(3);
    expect(page.data).toHaveLength(8);
    expect((await send(`${srv.url}/pbx/cdr/data?page=4&limit=10&${q}`)).json().data).toEqual([]);
  });
});
