// `branchgate serve` with an AMI source and a Master.csv follower of the same exchange, as real
// child processes: the server is SIGKILLed while calls go on (AMI cannot replay them; the file keeps
// them), started again, and ends with every call stored exactly once. The status CLI and the log
// say what each source does, and never show the manager's secret.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { createToken } from '../../../src/auth/index.js';
import { importCdrFile } from '../../../src/cdr/ingest/index.js';
import { insertCdrRecords, listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, openTestStore, storeKinds } from '../../support/databases.js';
import { BIN, type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { CAPTURE_EVENTS, startAmiPeer } from './support/ami-peer.js';
import { CAPTURE_DIR, MASTER_LINES } from './support/capture.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'bg-ami-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'manager-s3cret-value';
/** The capture's Cdr blocks, one Buffer each, in the order Asterisk sent them (that of Master.csv). */
const BLOCKS = CAPTURE_EVENTS.toString('latin1')
  .split('\r\n\r\n')
  .filter((b) => b.startsWith('Event: Cdr'))
  .map((b) => Buffer.from(`${b}\r\n\r\n`, 'latin1'));

async function identities(store: Store): Promise<string[]> {
  return (await listCdrRecordsAfter(store, 0, 1000)).map((r) => r.identity);
}

async function untilCount(store: Store, n: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await identities(store)).length >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${n} records, have ${(await identities(store)).length}`);
}

describe.each(storeKinds())('serve --ingest-ami with --ingest-csv on %s', (kind) => {
  test('a SIGKILL while calls go on loses none and stores none twice', async () => {
    expect(BLOCKS).toHaveLength(28);
    const reference = await openTestStore('sqlite');
    await importCdrFile(`${CAPTURE_DIR}/Master.csv`, (r) => insertCdrRecords(reference.store, r), {});
    const want = (await identities(reference.store)).sort();
    await reference.close();

    const database = await createTestDatabase(kind);
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const csv = join(mkdtempSync(join(dir, 'csv-')), 'Master.csv');
    writeFileSync(csv, '');
    const peer = await startAmiPeer({});
    const args = [
      '--data-dir',
      dataDir,
      '--db',
      database.url,
      '--listen',
      '127.0.0.1:0',
      '--ingest-ami',
      `ami://branchgate:${SECRET}@127.0.0.1:${peer.port}?tz=UTC`,
      '--ingest-csv',
      csv,
      '--log-level',
      'info',
    ];
    const env = { BRANCHGATE_ADMIN_PASSWORD: 'correct horse battery' };
    const store = await openStore({ db: database.url });
    let server: ServeProcess | undefined;
    const calls = (from: number, to: number, ami: boolean) => {
      appendFileSync(csv, `${MASTER_LINES.slice(from, to).join('\n')}\n`);
      if (ami) for (const b of BLOCKS.slice(from, to)) peer.send(b);
    };
    try {
      server = await spawnServe(args, { env });
      await new Promise((r) => setTimeout(r, 300));
      calls(0, 10, true);
      await untilCount(store, 10);
      await server.stop('SIGKILL');
      // Calls end while branchgate is down: the exchange writes them to the file; AMI has nobody to tell.
      calls(10, 20, true);
      server = await spawnServe(args, { env });
      await untilCount(store, 20);
      calls(20, 28, true);
      await untilCount(store, 28);
      await new Promise((r) => setTimeout(r, 500));
      const got = await identities(store);
      expect(got.sort()).toEqual(want);

      const { token } = await createToken(store, { name: 'ops', scopes: ['admin'] });
      const status = await run(
        process.execPath,
        [BIN, 'ingest', 'status', '--url', server.url, '--insecure', '--token-env', 'OPS_TOKEN', '--json'],
        { env: { ...process.env, OPS_TOKEN: token } },
      );
      const sources = JSON.parse(status.stdout).sources as Array<Record<string, unknown>>;
      expect(sources.map((s) => [s.kind, s.state])).toEqual([
        ['ami', 'connected'],
        ['csv', 'following'],
        ['http', 'connected'],
      ]);
      expect(sources[0]?.target).toBe(`ami://branchgate@127.0.0.1:${peer.port}`);
      const table = await run(
        process.execPath,
        [BIN, 'ingest', 'status', '--url', server.url, '--insecure', '--token-env', 'OPS_TOKEN'],
        { env: { ...process.env, OPS_TOKEN: token } },
      );
      expect(table.stdout).toMatch(
        new RegExp(`^ami:127\\.0\\.0\\.1:${peer.port}\\tconnected\\tstored \\d+`, 'm'),
      );
      await server.stop('SIGTERM');
      expect(status.stdout + table.stdout + server.output()).not.toContain(SECRET);
      expect(server.output()).toMatch(/ingest ami:127\.0\.0\.1:\d+: connected/);
    } finally {
      await server?.stop('SIGKILL');
      await peer.close();
      await store.close();
      await database.drop();
    }
  }, 120_000);
});
