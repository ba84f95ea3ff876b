// push:failing: a receiver that stays down past alert_after_seconds raises one alert for the
// streak, in the log, the status, /metrics and as a cdr-push:failing webhook event; a success ends
// it. On a real `branchgate serve`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { type CdrReceiver, saveCdrPushSettings, startCdrReceiver } from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore } from '../../../src/store/index.js';
import { eventually } from '../../sms/api/support/sms-client.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { send } from '../../support/https-client.js';
import { BIN, createTokenWithCli, type ServeProcess, spawnServe } from '../../support/serve-process.js';

const run = promisify(execFile);

describe('push:failing', () => {
  let dir: string | undefined;
  let srv: ServeProcess | undefined;
  let hooks: Server | undefined;
  let receiver: CdrReceiver | undefined;
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    hooks?.close();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a receiver down past the threshold raises one alert; a success ends it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bg-push-alert-'));
    const db = join(dir, 'branchgate.db');
    const events: Array<{ type: string; data: Record<string, unknown> }> = [];
    hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        events.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hooks?.listen(0, '127.0.0.1', () => r()));
    // A port nothing listens on: every delivery is refused.
    receiver = await startCdrReceiver({ port: 0 });
    const deadPort = receiver.port;
    await receiver.close();
    receiver = undefined;
    const store = await openStore({ db });
    await saveCdrPushSettings(
      store,
      {
        enabled: true,
        url: `http://127.0.0.1:${deadPort}/cdr`,
        interval_seconds: 1,
        alert_after_seconds: 2,
        send_history: true,
      },
      Date.now(),
    );
    await insertCdrRecords(store, fixtureRecords(1, 3));
    await store.close();
    await run(process.execPath, [
      BIN,
      'webhooks',
      'add',
      `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/`,
      '--event',
      'cdr-push:failing',
      '--unsigned',
      '--data-dir',
      dir,
    ]);
    srv = await spawnServe(['--data-dir', dir, '--listen', '127.0.0.1:0', '--log-level', 'warn'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'alert-pw-1', BRANCHGATE_WEBHOOK_POLL_MS: '100' },
    });
    const s = srv;
    const auth = { authorization: `Bearer ${await createTokenWithCli('ops', 'admin', ['--data-dir', dir])}` };

    await eventually(
      'the cdr-push:failing event',
      async () => (events.length > 0 ? true : undefined),
      20_000,
    );
    expect(events[0]).toMatchObject({
      type: 'cdr-push:failing',
      data: { destination: 1, backlog: 3, url: `http://127.0.0.1:${deadPort}/cdr` },
    });
    expect(String(events[0]?.data.last_error)).toMatch(/ECONNREFUSED/);
    const status = (await send(`${s.url}/api/cdr-push/log`, { headers: auth })).json();
    expect(status).toMatchObject({ alert: true, backlog: 3 });
    expect(s.output()).toMatch(/push:failing/);
    // Several more failed runs: still the one alert for this streak.
    await new Promise((r) => setTimeout(r, 2500));
    expect(events).toHaveLength(1);

    // The receiver comes back on that port: the backlog drains and the alert ends.
    receiver = await startCdrReceiver({ port: deadPort });
    await eventually(
      'the alert to end',
      async () => {
        const st = (await send(`${s.url}/api/cdr-push/log`, { headers: auth })).json();
        return st.alert === false && st.backlog === 0 ? true : undefined;
      },
      20_000,
    );
    expect(receiver.records.map((r) => Number(r.db_id))).toEqual([1, 2, 3]);
  }, 60_000);
});
