// sms:received webhooks through failures and a crash: 50 messages (multipart and UCS-2 among them)
// arrive on a simulated modem in its own process while the receiver refuses 30% of requests at
// random and the server is SIGKILLed once. Every message arrives, in event order, signed (checked
// with node:crypto directly); none is accepted more than twice, and a repeat keeps its webhook-id
// and body.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { generateSecret } from '../../src/shared/standard-webhooks.js';
import { type SimProcess, startSimProcess } from '../sms/api/support/sim-process.js';
import { eventually } from '../sms/api/support/sms-client.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';
import { BIN, type ServeProcess, spawnServe } from '../support/serve-process.js';

const run = promisify(execFile);
const SEED = 20261125;

interface Arrival {
  id: string;
  accepted: boolean;
  signatureOk: boolean;
  body: string;
}

function signatureOk(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .includes(`v1,${expected}`);
}

describe.each(storeKinds())('sms:received webhooks through failures and a SIGKILL on %s', (kind) => {
  let tdb: TestDatabase;
  let dataDir: string;
  let sim: SimProcess;
  let receiver: Server;
  let srv: ServeProcess | undefined;
  const arrivals: Arrival[] = [];
  const secret = generateSecret();

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    dataDir = mkdtempSync(join(tmpdir(), 'bg-webhooks-'));
    sim = await startSimProcess(30, SEED);
    const random = seededRandom(SEED);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const accepted = random() >= 0.3;
        arrivals.push({
          id: String(req.headers['webhook-id']),
          accepted,
          signatureOk: signatureOk(secret, req.headers, body),
          body,
        });
        res.writeHead(accepted ? 204 : 500).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  }, 60_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    await sim?.stop();
    receiver?.close();
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('every message arrives signed, none accepted more than twice, repeats keep their id and body', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await run(process.execPath, [
      BIN,
      'webhooks',
      'add',
      url,
      '--event',
      'sms:received',
      '--secret',
      secret,
      '--db',
      tdb.url,
    ]);
    const serve = () =>
      spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--modem', sim.path, '--listen', '127.0.0.1:0'], {
        env: {
          BRANCHGATE_ADMIN_PASSWORD: 'webhook-test-pw',
          BRANCHGATE_SMS_POLL_MS: '300',
          BRANCHGATE_WEBHOOK_POLL_MS: '100',
          BRANCHGATE_WEBHOOK_RETRY_MS: '50',
          BRANCHGATE_WEBHOOK_RETRY_MAX_MS: '400',
        },
      });
    const texts = Array.from({ length: 50 }, (_, i) =>
      i % 10 === 3
        ? `#${i} ${'long multipart text '.repeat(12)}`
        : i % 10 === 7
          ? `#${i} Привет, как дела? 😀`
          : `#${i} short`,
    );
    const acceptedTexts = () =>
      new Set(
        arrivals
          .filter((a) => a.accepted)
          .map((a) => (JSON.parse(a.body) as { data: { message: string } }).data.message),
      );

    srv = await serve();
    for (const t of texts.slice(0, 25)) await sim.deliver('+15550100007', t);
    await eventually('ten accepted', async () => (acceptedTexts().size >= 10 ? true : undefined), 60_000);
    await srv.stop('SIGKILL');
    for (const t of texts.slice(25)) await sim.deliver('+4915112345678', t);
    srv = await serve();
    await eventually('all 50 accepted', async () => (acceptedTexts().size === 50 ? true : undefined), 90_000);

    expect([...acceptedTexts()].sort()).toEqual([...texts].sort());
    expect(arrivals.every((a) => a.signatureOk)).toBe(true);
    expect(arrivals.some((a) => !a.accepted)).toBe(true);
    const byId = new Map<string, Arrival[]>();
    for (const a of arrivals) byId.set(a.id, [...(byId.get(a.id) ?? []), a]);
    for (const [id, list] of byId) {
      expect(list.filter((a) => a.accepted).length, id).toBeLessThanOrEqual(2);
      expect(new Set(list.map((a) => a.body)).size, id).toBe(1);
      const event = JSON.parse(list[0]?.body as string);
      expect(event.type).toBe('sms:received');
      expect(event.data).toMatchObject({ type: 'received', status: 'received' });
    }
    // Event order: first acceptances come in increasing event id.
    const firsts: number[] = [];
    for (const a of arrivals) {
      const n = Number(a.id.replace('evt_', ''));
      if (a.accepted && !firsts.includes(n)) firsts.push(n);
    }
    expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
    const multipart = arrivals.find((a) => a.accepted && JSON.parse(a.body).data.parts > 1);
    expect(multipart).toBeDefined();
  }, 180_000);
});
