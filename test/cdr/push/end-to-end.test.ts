import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type CdrReceiver, startCdrReceiver } from '../../../src/cdr/push/index.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { VERSION } from '../../../src/shared/version.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { BIN, REPO_ROOT, type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { waitFor } from './support/push-support.js';

const run = promisify(execFile);
const CAPTURE = resolve(REPO_ROOT, '../shared/corpora/cdr/asterisk-22/Master.csv');
const ADMIN_PASSWORD = 'e2e-admin-password';

describe.each(storeKinds())('CDR push end to end through `branchgate serve` on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let dir: string;
  let serve: ServeProcess;
  let cookie: string;
  const receivers: CdrReceiver[] = [];

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    dir = mkdtempSync(join(tmpdir(), 'bg-push-e2e-'));
    serve = await spawnServe(['--data-dir', dir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const login = await send(`${serve.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  });
  afterEach(async () => {
    await serve.stop('SIGTERM');
    for (const r of receivers.splice(0)) await r.close();
    await store.close();
    await tdb.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const putSettings = async (patch: object) => {
    const res = await send(`${serve.url}/api/settings/cdr-push`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(patch),
    });
    expect(res.status).toBe(200);
    return res;
  };

  // Imports lines [from, to) of the real Asterisk capture with `branchgate cdr import`.
  const importLines = async (from: number, to: number) => {
    const lines = readFileSync(CAPTURE, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const file = join(dir, `part-${from}.csv`);
    writeFileSync(file, `${lines.slice(from, to).join('\n')}\n`);
    await run(process.execPath, [BIN, 'cdr', 'import', file, '--db', tdb.url], { cwd: REPO_ROOT });
  };

  const expectDelivered = async (r: CdrReceiver, firstDbId: number, count: number) => {
    await waitFor(() => r.records.length >= count, `${count} records at the receiver`);
    const rows = await listCdrRecordsAfter(store, firstDbId - 1, count);
    expect(r.records).toEqual(
      rows.map((row) => ({ db_id: row.db_id, call_id: row.uniqueid, disposition: row.disposition })),
    );
    expect(r.requests.map((q) => [q.method, q.status, q.userAgent, q.idempotencyKey])).toEqual(
      rows.map((row) => ['PUT', 200, `branchgate/${VERSION}`, `cdr-${row.db_id}`]),
    );
  };

  test('x-api-key, then Bearer, then Basic: each receiver gets exactly the new records, in order, with only the chosen fields', async () => {
    const withKey = await startCdrReceiver({ apiKey: 'e2e-api-key' });
    receivers.push(withKey);
    const set = await putSettings({
      enabled: true,
      url: withKey.url,
      method: 'PUT',
      api_key: 'e2e-api-key',
      fields: ['db_id', 'call_id', 'disposition'],
      interval_seconds: 1,
    });
    expect(set.text).not.toContain('e2e-api-key');
    await importLines(0, 10);
    await expectDelivered(withKey, 1, 10);

    const withBearer = await startCdrReceiver({ bearer: 'e2e-bearer' });
    receivers.push(withBearer);
    await putSettings({ url: withBearer.url, api_key: '', bearer_token: 'e2e-bearer' });
    await importLines(10, 19);
    await expectDelivered(withBearer, 11, 9);

    const withBasic = await startCdrReceiver({ basic: 'crm:e2e pass' });
    receivers.push(withBasic);
    await putSettings({ url: withBasic.url, bearer_token: '', username: 'crm', password: 'e2e pass' });
    await importLines(19, 28);
    await expectDelivered(withBasic, 20, 9);
    expect(withKey.records).toHaveLength(10);
    expect(withBearer.records).toHaveLength(9);

    const log = await send(`${serve.url}/api/cdr-push/log?limit=5`, { headers: { cookie } });
    expect(log.json()).toMatchObject({ last_acknowledged_db_id: 28, backlog: 0, failing_since: null });
    const shown = await send(`${serve.url}/api/settings/cdr-push`, { headers: { cookie } });
    for (const secret of ['e2e-api-key', 'e2e-bearer', 'e2e pass']) expect(shown.text).not.toContain(secret);
    expect(serve.output()).not.toMatch(/e2e-api-key|e2e-bearer|e2e pass/);
  }, 90_000);
});
