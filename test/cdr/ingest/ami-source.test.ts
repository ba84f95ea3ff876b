// The AMI source against a stand-in manager on loopback: the real capture cut at any bytes stores
// the same records as the capture's Master.csv import; a refused login, a refused or dropped
// connection and malformed blocks leave it running, saying what is wrong, and it recovers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importCdrFile } from '../../../src/cdr/ingest/index.js';
import { AmiSource } from '../../../src/cdr/ingest/live/ami/ami-source.js';
import { parseAmiSourceSpec } from '../../../src/cdr/ingest/live/ami/ami-source-spec.js';
import { insertCdrRecords, listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { TimeFormatter, toWireRecord } from '../../../src/cdr/wire-record.js';
import type { CdrRow } from '../../../src/store/index.js';
import { openTestStore, storeKinds, type TestStore } from '../../support/databases.js';
import { type AmiPeer, CAPTURE_EVENTS, startAmiPeer } from './support/ami-peer.js';
import { CAPTURE_DIR } from './support/capture.js';

/** Records whose initial destination only a later record of their call reveals. */
const LATER_RECORD_NEEDED = ['1795322892.71 2011', '1795322912.85 2011'];

const FAST = { initialMs: 20, maxMs: 100, loginRefusedMs: 150, loginTimeoutMs: 2000, storeRetryMs: 20 };
const time = new TimeFormatter('UTC');

/** The fields the pull API sends, plus the identity: what both sources must agree on. */
const view = (r: CdrRow) => {
  const { db_id: _, ...wire } = toWireRecord(r, time);
  return { identity: r.identity, ...wire };
};

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const source = (t: TestStore, peer: AmiPeer, secret = 's3cret') =>
  new AmiSource({
    spec: parseAmiSourceSpec(`ami://branchgate:${secret}@127.0.0.1:${peer.port}?tz=UTC`),
    store: t.store,
    backoff: FAST,
  });

let imported: ReturnType<typeof view>[];
beforeAll(async () => {
  const t = await openTestStore('sqlite');
  try {
    await importCdrFile(`${CAPTURE_DIR}/Master.csv`, (r) => insertCdrRecords(t.store, r), {});
    imported = (await listCdrRecordsAfter(t.store, 0, 100)).map(view);
  } finally {
    await t.close();
  }
  expect(imported).toHaveLength(28);
});

test('the capture cut at any bytes stores exactly the records of its Master.csv import', async () => {
  const peer = await startAmiPeer({ events: CAPTURE_EVENTS });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: CAPTURE_EVENTS.length - 1 }), { maxLength: 40 }),
        async (splits) => {
          peer.script = { events: CAPTURE_EVENTS, splits };
          const t = await openTestStore('sqlite');
          const s = source(t, peer);
          try {
            s.start();
            await until('28 records', () => (s.status().recordsStored >= 28 ? true : undefined));
            const rows = (await listCdrRecordsAfter(t.store, 0, 100)).map(view);
            const byId = (a: { identity: string }, b: { identity: string }) =>
              a.identity.localeCompare(b.identity);
            const want = [...imported].sort(byId);
            rows.sort(byId);
            const sansDestinations = ({
              initial_destination: _i,
              computed_destination: _c,
              ...r
            }: ReturnType<typeof view>) => r;
            expect(rows.map(sansDestinations)).toEqual(want.map(sansDestinations));
            // initial/computed destination agree too, except where the import needed a record that
            // came later: the first record of a blind transfer and of a redirect (docs/cdr-ingest.md).
            const differ = rows
              .filter(
                (r, i) =>
                  r.initial_destination !== want[i]?.initial_destination ||
                  r.computed_destination !== want[i]?.computed_destination,
              )
              .map((r) => `${r.call_id} ${r.destination}`);
            expect(differ.sort()).toEqual(LATER_RECORD_NEEDED);
            expect(s.status()).toMatchObject({ state: 'connected', rejected: 0, recordsStored: 28 });
          } finally {
            await s.stop();
            await t.close();
          }
        },
      ),
      { numRuns: 12 },
    );
    // And every byte boundary at once: the whole capture written one byte per TCP write.
    const everyByte = Array.from({ length: CAPTURE_EVENTS.length - 1 }, (_, i) => i + 1);
    peer.script = { events: CAPTURE_EVENTS, splits: everyByte };
    const t = await openTestStore('sqlite');
    const s = source(t, peer);
    try {
      s.start();
      await until(
        '28 records byte by byte',
        () => (s.status().recordsStored >= 28 ? true : undefined),
        50_000,
      );
      expect(s.status()).toMatchObject({ rejected: 0, recordsStored: 28 });
      const ids = (await listCdrRecordsAfter(t.store, 0, 100)).map((r) => r.identity).sort();
      expect(ids).toEqual(imported.map((r) => r.identity).sort());
    } finally {
      await s.stop();
      await t.close();
    }
  } finally {
    await peer.close();
  }
}, 90_000);

describe.each(storeKinds())('the AMI source on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(kind);
  });
  afterAll(async () => t.close());

  test('a refused login is a lasting state retried slowly, and ingest starts once the login works', async () => {
    const peer = await startAmiPeer({ refuseLogin: 'Authentication failed' });
    const s = source(t, peer, 'wrong-secret');
    try {
      s.start();
      const st = await until('login_refused', () =>
        s.status().state === 'login_refused' ? s.status() : undefined,
      );
      expect(st.lastError?.message).toBe('login as "branchgate" refused: Authentication failed');
      expect(JSON.stringify(st)).not.toContain('wrong-secret');
      await new Promise((r) => setTimeout(r, 400));
      // 150 ms between attempts: a handful in 400 ms, not a tight loop.
      expect(peer.logins.length).toBeGreaterThanOrEqual(2);
      expect(peer.logins.length).toBeLessThanOrEqual(5);
      peer.script = { events: CAPTURE_EVENTS };
      await until('records', () =>
        s.status().recordsStored + s.status().duplicates >= 28 ? true : undefined,
      );
      expect(s.status().state).toBe('connected');
    } finally {
      await s.stop();
      await peer.close();
    }
  });

  test('a refused connection and a dropped one say so, and ingest resumes when the peer is back', async () => {
    const peer = await startAmiPeer({ events: Buffer.alloc(0) });
    const port = peer.port;
    await peer.close();
    const s = source(t, peer);
    try {
      s.start();
      const down = await until('reconnecting', () =>
        s.status().state === 'reconnecting' && s.status().lastError ? s.status() : undefined,
      );
      expect(down.lastError?.message).toMatch(/ECONNREFUSED/);
      await peer.listen();
      expect(peer.port).toBe(port);
      await until('connected', () => (s.status().state === 'connected' ? true : undefined));
      // Events arrive; then the exchange goes away mid-stream and comes back.
      const half = CAPTURE_EVENTS.indexOf('Event: Cdr', CAPTURE_EVENTS.length / 2);
      peer.send(CAPTURE_EVENTS.subarray(0, half));
      await until('first half', () =>
        s.status().recordsStored + s.status().duplicates > 0 ? true : undefined,
      );
      await peer.close();
      await until('reconnecting again', () => (s.status().state === 'reconnecting' ? true : undefined));
      peer.script = { events: CAPTURE_EVENTS.subarray(half) };
      await peer.listen();
      await until('the rest', () =>
        s.status().recordsStored + s.status().duplicates >= 28 ? true : undefined,
      );
      const ids = (await listCdrRecordsAfter(t.store, 0, 100)).map((r) => r.identity);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(28);
    } finally {
      await s.stop();
      await peer.close();
    }
  });

  test('a block without keys and binary junk are reported where they were and skipped; the rest is stored', async () => {
    const before = (await listCdrRecordsAfter(t.store, 0, 1000)).length;
    const good = CAPTURE_EVENTS.subarray(0, CAPTURE_EVENTS.indexOf('\r\n\r\n') + 4);
    const novel = Buffer.from(
      good
        .toString('latin1')
        .replace(/UniqueID: [^\r]*/, 'UniqueID: 1795329999.9')
        .replace('2026-11-22 04:47:41', '2026-11-23 09:00:00'),
      'latin1',
    );
    const events = Buffer.concat([
      Buffer.from('Event: Cdr\r\nPrivilege: cdr,all\r\nSource: 4001\r\n\r\n'),
      Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0d, 0x0a, 0x0d, 0x0a]),
      Buffer.from(
        'Event: Cdr\r\nUniqueID: 1.2\r\nChannel: x\r\nStartTime: yesterday\r\nEndTime: 2026-11-22 04:47:41\r\nDisposition: BUSY\r\n\r\n',
      ),
      novel,
    ]);
    const peer = await startAmiPeer({ events });
    const s = source(t, peer);
    try {
      s.start();
      await until('the good event', () => (s.status().recordsStored >= 1 ? true : undefined));
      const st = s.status();
      expect(st.rejected).toBe(3);
      expect(st.state).toBe('connected');
      expect(st.lastError?.message).toMatch(
        /Cdr event 2 \(UniqueID 1\.2\): skipped: field start: "yesterday" is not a time/,
      );
      const rows = await listCdrRecordsAfter(t.store, 0, 1000);
      expect(rows.length).toBe(before + 1);
      expect(rows.at(-1)?.uniqueid).toBe('1795329999.9');
    } finally {
      await s.stop();
      await peer.close();
    }
  });
});
