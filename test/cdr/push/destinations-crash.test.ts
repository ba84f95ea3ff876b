// Three push destinations from one `branchgate serve`, each on its own loopback receiver: a CRM that
// fails 30% of requests at random (signed deliveries, checked by the receiver), a billing system
// that is down for a while, and an audit feed that answers 400 to one record forever (park after 3
// refusals, its own signing secret, checked here with an independent HMAC). The server is killed
// with SIGKILL while a request is in flight and started again. Each receiver gets every record in
// order of first arrival (the audit feed all but the parked one, which is listed and then resent
// once the feed is fixed); a record arrives twice only when its request was in flight at the kill,
// with the same webhook-id. Both stores.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  createDestination,
  listDeliveryLog,
  listParked,
  type ReceivedRequest,
  readPushState,
  saveCdrPushSettings,
  seededRandom,
  startCdrReceiver,
} from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { waitFor } from './support/push-support.js';

const CRM_SECRET = `whsec_${Buffer.from('crm-signing-key-0123456789abcdef').toString('base64')}`;
const AUDIT_SECRET = `whsec_${Buffer.from('audit-signing-key-fedcba98765432').toString('base64')}`;
const ADMIN_PASSWORD = 'three-destinations-admin';

/** An accepted (2xx) arrival: its webhook-id and the db_ids it carried. */
interface Arrival {
  id: string;
  ids: number[];
}

/** The audit receiver: 400 to the db_ids in `refuse`, 200 otherwise; keeps headers and bodies. */
async function auditReceiver(port = 0) {
  const refuse = new Set<number>();
  const accepted: Arrival[] = [];
  const refused: number[] = [];
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ headers: req.headers, body });
      if (req.headers['x-api-key'] !== 'audit-key') {
        res.writeHead(401).end('{"error":"bad key"}');
        return;
      }
      const record = JSON.parse(body) as { db_id: number };
      if (refuse.has(record.db_id)) {
        refused.push(record.db_id);
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"unknown trunk"}');
        return;
      }
      accepted.push({ id: String(req.headers['webhook-id']), ids: [record.db_id] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
  return {
    url,
    refuse,
    accepted,
    refused,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every db_id in order of first arrival, and the db_ids that arrived more than once. */
function firstArrivals(arrivals: readonly Arrival[]): { order: number[]; repeated: number[] } {
  const count = new Map<number, number>();
  const order: number[] = [];
  for (const a of arrivals) {
    for (const id of a.ids) {
      if (!count.has(id)) order.push(id);
      count.set(id, (count.get(id) ?? 0) + 1);
    }
  }
  return { order, repeated: [...count].filter(([, n]) => n > 1).map(([id]) => id) };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.each(storeKinds())('three CDR push destinations through faults and a SIGKILL on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let dataDir: string;
  const closers: Array<() => Promise<void>> = [];
  const serves: ServeProcess[] = [];

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    dataDir = mkdtempSync(join(tmpdir(), 'bg-push-three-'));
  });
  afterEach(async () => {
    for (const s of serves.splice(0)) await s.stop('SIGKILL');
    for (const close of closers.splice(0)) await close();
    await store.close();
    await tdb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const serve = async () => {
    const s = await spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    serves.push(s);
    return s;
  };

  test('each gets every record in order, the poison one parked and resent, nothing lost across the kill', async () => {
    // The CRM (destination 1): fails 30% at random, refuses a request without a valid signature.
    const crm: Arrival[] = [];
    let hold: ((q: ReceivedRequest) => Promise<void>) | undefined;
    const crmReceiver = await startCdrReceiver({
      failRate: 0.3,
      random: seededRandom(20261125),
      secrets: [CRM_SECRET],
      beforeAnswer: async (q) => {
        crm.push({ id: q.idempotencyKey, ids: q.records.map((x) => Number(x.db_id)) });
        if (hold) await hold(q);
      },
    });
    closers.push(() => crmReceiver.close());
    // The billing system (destination 2): down from the start; its port is kept for later.
    const billing: Arrival[] = [];
    const billingPort = await (async () => {
      const r = await startCdrReceiver();
      await r.close();
      return r.port;
    })();
    // The audit feed (destination 3): refuses db_id 7 with 400 until fixed.
    const audit = await auditReceiver();
    audit.refuse.add(7);
    closers.push(() => audit.close());

    const common = { enabled: true, send_history: true, interval_seconds: 1, fields: ['db_id', 'call_id'] };
    await saveCdrPushSettings(
      store,
      { ...common, url: crmReceiver.url, signing_secret: CRM_SECRET },
      Date.now(),
    );
    const two = await createDestination(
      store,
      { ...common, name: 'billing', url: `http://127.0.0.1:${billingPort}/billing`, bearer_token: 'bill-77' },
      Date.now(),
    );
    const three = await createDestination(
      store,
      {
        ...common,
        name: 'audit',
        url: audit.url,
        api_key: 'audit-key',
        signing_secret: AUDIT_SECRET,
        poison_policy: 'park',
        poison_after: 3,
      },
      Date.now(),
    );
    expect([two.id, three.id]).toEqual([2, 3]);
    await insertCdrRecords(store, fixtureRecords(1, 10));
    const serveA = await serve();

    // While billing is down, the CRM and the audit feed go on: billing holds nobody back.
    await waitFor(() => firstArrivals(crm).order.length === 10, 'the CRM to get records 1..10', 60_000);
    await waitFor(
      async () => (await listParked(store, 100, 3)).map((p) => p.dbId).join() === '7',
      'db_id 7 parked for the audit feed',
      60_000,
    );
    await waitFor(() => audit.accepted.length === 9, 'the audit feed to get the other nine', 60_000);
    expect(audit.refused).toEqual([7, 7, 7]);
    const billingState = await readPushState(store.db, 2);
    expect(billingState.ackedDbId).toBe(0);
    expect(billingState.failingSinceMs).not.toBeNull();
    expect((await listDeliveryLog(store, 20, 2)).some((e) => e.error.startsWith('ECONNREFUSED'))).toBe(true);
    // The log of each destination is its own.
    expect((await listDeliveryLog(store, 100, 3)).some((e) => e.kind === 'park' && e.firstDbId === 7)).toBe(
      true,
    );
    expect((await listDeliveryLog(store, 100, 1)).some((e) => e.kind === 'park')).toBe(false);

    // Billing comes up; more records; the server is killed while the CRM's request for 15 is in flight.
    const billingReceiver = await startCdrReceiver({
      port: billingPort,
      bearer: 'bill-77',
      beforeAnswer: async (q) => {
        billing.push({ id: q.idempotencyKey, ids: q.records.map((x) => Number(x.db_id)) });
      },
    });
    closers.push(() => billingReceiver.close());
    let killed = false;
    hold = async (q) => {
      if (!killed && q.records.some((x) => x.db_id === 15)) {
        killed = true;
        await serveA.stop('SIGKILL');
      }
    };
    await insertCdrRecords(store, fixtureRecords(11, 20));
    await waitFor(() => killed, "the CRM's request for db_id 15", 60_000);
    const serveB = await serve();
    for (const d of [1, 2, 3]) {
      await waitFor(
        async () => (await readPushState(store.db, d)).ackedDbId === 20,
        `destination ${d}'s cursor at 20`,
        60_000,
      );
    }

    // Every record, in order of first arrival; only the CRM's request in flight at the kill repeats.
    const crmSeen = firstArrivals(crm);
    expect(crmSeen.order).toEqual(range(1, 20));
    expect(crmSeen.repeated).toEqual([15]);
    expect(crm.filter((a) => a.ids.includes(15)).map((a) => a.id)).toEqual(['cdr-15', 'cdr-15']);
    const billingSeen = firstArrivals(billing);
    expect(billingSeen.order).toEqual(range(1, 20));
    // Billing and the audit feed may have had a request in flight at the kill too: at most one each.
    expect(billingSeen.repeated.length).toBeLessThanOrEqual(1);
    const auditSeen = firstArrivals(audit.accepted);
    expect(auditSeen.order).toEqual(range(1, 20).filter((id) => id !== 7));
    expect(auditSeen.repeated.length).toBeLessThanOrEqual(1);
    for (const arrivals of [crm, billing, audit.accepted])
      for (const a of arrivals) expect(a.id).toBe(`cdr-${a.ids[0]}`);

    // The audit feed's deliveries carry its own signature: an HMAC computed here agrees.
    const key = Buffer.from(AUDIT_SECRET.slice('whsec_'.length), 'base64');
    for (const { headers, body } of audit.seen) {
      const expected = createHmac('sha256', key)
        .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
        .digest('base64');
      expect(String(headers['webhook-signature']).split(' ')).toContain(`v1,${expected}`);
    }

    // Parked records are listed over REST; the feed is fixed; "resend all" delivers db_id 7.
    const login = await send(`${serveB.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const listed = await send(`${serveB.url}/api/cdr-push/destinations/3/parked`, { headers: { cookie } });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ db_id: 7, status: 400 }] });
    const all = await send(`${serveB.url}/api/cdr-push/destinations`, { headers: { cookie } });
    expect(
      all.json().data.map((d: { id: number; status: { parked: number } }) => [d.id, d.status.parked]),
    ).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
    ]);
    audit.refuse.clear();
    const resent = await send(`${serveB.url}/api/cdr-push/destinations/3/parked/resend`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ all: true }),
    });
    expect(resent.json()).toEqual({ resent: 1, remaining: 0, error: '' });
    expect(audit.accepted.at(-1)).toEqual({ id: 'cdr-7', ids: [7] });
    expect(await listParked(store, 100, 3)).toEqual([]);
    expect(await serveB.stop('SIGTERM')).toBe(0);
  }, 180_000);
});
