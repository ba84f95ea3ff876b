// The outbox keeps what it was given across restarts: a message queued while the modem refuses it,
// with the server then killed, is sent once by the next server after the modem recovers; a
// multipart message interrupted between parts resumes after the last accepted part.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { type SimProcess, startSimProcess } from './support/sim-process.js';
import { eventually, smsPost } from './support/sms-client.js';

const auth = 'outbox-restart-pass';

describe.each(storeKinds())('the outbox across restarts on %s', (kind) => {
  let tdb: TestDatabase;
  let dataDir: string;
  let sim: SimProcess;
  let srv: ServeProcess | undefined;
  const serve = () =>
    spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--modem', sim.path, '--listen', '127.0.0.1:0'], {
      env: {
        BRANCHGATE_ADMIN_PASSWORD: auth,
        BRANCHGATE_SMS_SEND_WAIT_MS: '1500',
        BRANCHGATE_SMS_RETRY_MS: '200',
        BRANCHGATE_SMS_RETRY_MAX_MS: '400',
        BRANCHGATE_SMS_POLL_MS: '300',
      },
    });

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'bg-sms-outbox-'));
    sim = await startSimProcess(20, 1);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    await sim?.stop();
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a queued message survives a SIGKILL and is sent once after the modem recovers', async () => {
    srv = await serve();
    await sim.faults({ sendError: 331 });
    const res = await smsPost(srv.url, '/api/sms/send-one', {
      auth,
      to: '+15550009999',
      message: 'survive me',
    });
    const queued = res.json().data;
    expect(queued.status).toBe('queued');
    await new Promise((r) => setTimeout(r, 700));
    await srv.stop('SIGKILL');
    srv = undefined;
    expect(await sim.sent()).toEqual([]);
    await sim.faults({ sendError: undefined });
    srv = await serve();
    const url = srv.url;
    const done = await eventually('the queued message to be sent', async () => {
      const m = (await smsPost(url, '/api/sms/get-one', { auth, type: 'sent', id: queued.id })).json().data;
      return m.status === 'sent' || m.status === 'delivered' ? m : undefined;
    });
    expect(done.message).toBe('survive me');
    expect((await sim.sent()).map((m) => m.text)).toEqual(['survive me']);
  }, 60_000);

  test('a multipart message refused after its first part resumes with the second, each part sent once', async () => {
    srv ??= await serve();
    const before = (await sim.sent()).length;
    await sim.plan(1, 2);
    const text = 'resume '.repeat(60).trim();
    const res = await smsPost(srv.url, '/api/sms/send-one', { auth, to: '+15550008888', message: text });
    const queued = res.json().data;
    expect(queued).toMatchObject({ status: 'queued', parts: 3 });
    const url = srv.url;
    await eventually('the rest of the parts', async () => {
      const m = (await smsPost(url, '/api/sms/get-one', { auth, type: 'sent', id: queued.id })).json().data;
      return m.status === 'sent' || m.status === 'delivered' ? m : undefined;
    });
    const parts = (await sim.sent()).slice(before);
    expect(parts.map((p) => p.concat?.sequence)).toEqual([1, 2, 3]);
    expect(new Set(parts.map((p) => p.concat?.reference)).size).toBe(1);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  }, 60_000);

  test('a message on the wire when the server is killed is sent by the next server', async () => {
    srv ??= await serve();
    const before = (await sim.sent()).length;
    await sim.faults({ noAnswer: true });
    const res = await smsPost(srv.url, '/api/sms/send-one', {
      auth,
      to: '+15550007777',
      message: 'in flight',
    });
    const queued = res.json().data;
    expect(queued.status).toBe('queued');
    const listed = (await smsPost(srv.url, '/api/sms/get-one', { auth, type: 'sent', id: queued.id })).json()
      .data;
    expect(listed.status).toBe('sending');
    await srv.stop('SIGKILL');
    srv = undefined;
    await sim.faults({ noAnswer: false });
    srv = await serve();
    const url = srv.url;
    await eventually('the interrupted message to be sent', async () => {
      const m = (await smsPost(url, '/api/sms/get-one', { auth, type: 'sent', id: queued.id })).json().data;
      return m.status === 'sent' || m.status === 'delivered' ? m : undefined;
    });
    expect((await sim.sent()).slice(before).map((m) => m.text)).toEqual(['in flight']);
  }, 60_000);
});
