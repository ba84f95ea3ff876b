// The inbox collector against a SIM of only 10 slots and 100 incoming messages (a third of them
// multipart, listed in a shuffled order so parts arrive out of order), with the server killed by
// SIGKILL at seeded random moments: every message ends up in the store exactly once, whole, and
// the SIM ends empty. The simulated modem runs in its own process, so it outlives each kill; a
// tenth of its deletes fail, so stored-but-not-deleted PDUs are met again on every run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seededRandom } from '../../../src/shared/seeded-random.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { type SimProcess, startSimProcess } from './support/sim-process.js';
import { eventually, smsPost } from './support/sms-client.js';

const SEED = 20261122;
const auth = 'crash-test-pass-1';
const SENDERS = ['+15550100001', '+15550100002', '+447700900123', '+4915112345678'];

/** 100 distinct messages: singles, GSM-7 and UCS-2 multiparts of 2-4 parts. */
function messages(random: () => number): { from: string; text: string }[] {
  return Array.from({ length: 100 }, (_, i) => {
    const from = SENDERS[Math.floor(random() * SENDERS.length)] ?? '';
    const r = random();
    const unit = r < 0.15 ? 'жук ' : 'word ';
    const length =
      r < 0.35 ? 160 + Math.floor(random() * (unit === 'жук ' ? 100 : 400)) : 5 + Math.floor(random() * 120);
    const text = `#${i} ${unit.repeat(Math.ceil(length / unit.length))}`.slice(0, length);
    return { from, text };
  });
}

describe.each(storeKinds())('100 incoming through a 10-slot SIM with SIGKILLs on %s', (kind) => {
  let tdb: TestDatabase;
  let dataDir: string;
  let sim: SimProcess;
  let srv: ServeProcess | undefined;

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'bg-sms-crash-'));
    sim = await startSimProcess(10, SEED, 0.1);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    await sim?.stop();
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('loses none, duplicates none, leaves the SIM empty', async () => {
    const random = seededRandom(SEED);
    const all = messages(random);
    expect(all.filter((m) => m.text.length > 160 || /ж/.test(m.text)).length).toBeGreaterThan(20);
    const serve = () =>
      spawnServe(
        [
          '--data-dir',
          dataDir,
          '--db',
          tdb.url,
          '--modem',
          sim.path,
          '--listen',
          '127.0.0.1:0',
          '--log-level',
          'info',
        ],
        {
          env: { BRANCHGATE_ADMIN_PASSWORD: auth, BRANCHGATE_SMS_POLL_MS: '300' },
        },
      );

    // Slow answers (20 ms each) keep the collector busy long enough for the kills to land mid-pass.
    await sim.faults({ slowMs: 20 });
    let logs = '';
    // 60 arrive before the first start: 10 fill the SIM, the rest wait at the network.
    for (const m of all.slice(0, 60)) await sim.deliver(m.from, m.text);
    expect(await sim.state()).toMatchObject({ stored: 10 });
    srv = await serve();
    let delivered = 60;
    for (let kill = 0; kill < 14; kill++) {
      await new Promise((r) => setTimeout(r, Math.floor(random() * 500)));
      await srv.stop('SIGKILL');
      logs += srv.output();
      srv = undefined;
      // The rest arrive while the server is down, three at a time.
      for (const m of all.slice(delivered, delivered + 3)) await sim.deliver(m.from, m.text);
      delivered = Math.min(100, delivered + 3);
      srv = await serve();
    }
    for (const m of all.slice(delivered)) await sim.deliver(m.from, m.text);

    const received = await eventually(
      'all 100 messages and an empty SIM',
      async () => {
        const s = await sim.state();
        const list = (await smsPost(srv?.url ?? '', '/api/sms/get-all', { auth, type: 'received' })).json()
          .data;
        return s.stored === 0 && s.held === 0 && list.length >= 100 ? list : undefined;
      },
      90_000,
    );
    const got = received.map((m: { number: string; message: string }) => `${m.number} ${m.message}`).sort();
    const want = all.map((m) => `${m.from} ${m.text}`).sort();
    expect(got).toEqual(want);
    expect(received.filter((m: { incomplete?: boolean }) => m.incomplete)).toEqual([]);
    expect(new Set(received.map((m: { id: string }) => m.id)).size).toBe(100);
    expect(await sim.state()).toEqual({ stored: 0, held: 0 });
    // PDUs met again after being stored (a kill between commit and AT+CMGD, or one of the SIM's
    // failed deletes) were only deleted, never stored twice.
    logs += srv?.output() ?? '';
    expect(logs).toMatch(/slot already stored, deleted/);
  }, 240_000);
});
