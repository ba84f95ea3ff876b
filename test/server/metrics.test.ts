// GET /metrics as Prometheus scrapes it: a real `branchgate serve` with --metrics-listen, a real
// import by the CLI, a pull over HTTPS, a push delivery to a loopback receiver and an SMS through
// the simulated modem; each figure is compared with what the store and the requests say.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type CdrReceiver, saveCdrPushSettings, startCdrReceiver } from '../../src/cdr/push/index.js';
import { countCdrRecords } from '../../src/cdr/record-store.js';
import { openStore, type Store } from '../../src/store/index.js';
import { waitFor } from '../cdr/push/support/push-support.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { BIN, createTokenWithCli, type ServeProcess, spawnServe } from '../support/serve-process.js';

const run = promisify(execFile);
const MASTER_CSV = resolve(import.meta.dirname, '../../../shared/corpora/cdr/asterisk-22/Master.csv');
const PASSWORD = 'metrics-admin-pw-1';

/** Parses the text format into `name{labels}` -> value (labels as printed, in prom-client's order). */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

/** The sum of every series of a metric whose labels include all of `labels`. */
function sumOf(m: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, value] of m) {
    const brace = key.indexOf('{');
    if ((brace < 0 ? key : key.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`))) total += value;
  }
  return total;
}

describe.each(storeKinds())('Prometheus metrics of a running server on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  let dataDir: string;
  let srv: ServeProcess | undefined;
  let receiver: CdrReceiver | undefined;

  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
    dataDir = mkdtempSync(join(tmpdir(), 'bg-metrics-'));
  });
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    await receiver?.close();
    await store.close();
    await tdb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a pull, an import, a push delivery and an SMS each move their figures by the right amount', async () => {
    receiver = await startCdrReceiver({ port: 0, apiKey: 'metrics-key' });
    await saveCdrPushSettings(
      store,
      { enabled: true, url: receiver.url, api_key: 'metrics-key', fields: ['db_id'], interval_seconds: 1 },
      Date.now(),
    );
    srv = await spawnServe(
      ['--data-dir', dataDir, '--db', tdb.url, '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0'],
      { env: { BRANCHGATE_ADMIN_PASSWORD: PASSWORD, BRANCHGATE_SMS_SEND_WAIT_MS: '15000' } },
    );
    const server = srv;
    await waitFor(() => /metrics on http:\/\/\S+/.test(server.output()), 'the metrics listener');
    const metricsUrl = /metrics on (http:\/\/\S+)/.exec(server.output())?.[1] as string;
    const scrape = async () => {
      const res = await send(metricsUrl);
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/plain; version=0\.0\.4/);
      return parseMetrics(res.text);
    };
    const before = await scrape();
    expect(sumOf(before, 'branchgate_cdr_records_stored_total')).toBe(0);
    expect(sumOf(before, 'branchgate_push_enabled')).toBe(1);
    expect(sumOf(before, 'branchgate_process_resident_memory_bytes')).toBeGreaterThan(0);

    // An import by the CLI, in its own process, into the server's store.
    await run(process.execPath, [BIN, 'cdr', 'import', MASTER_CSV, '--db', tdb.url]);
    const imported = await countCdrRecords(store);
    expect(imported).toBeGreaterThan(10);

    // The push job delivers them; the scrape follows the backlog down to zero.
    let after = await scrape();
    expect(sumOf(after, 'branchgate_cdr_records_stored_total')).toBe(imported);
    await waitFor(
      async () => {
        after = await scrape();
        return (
          sumOf(after, 'branchgate_push_backlog_records') === 0 &&
          sumOf(after, 'branchgate_push_attempt_records_total', { outcome: 'ok' }) === imported
        );
      },
      'every imported record acknowledged',
      60_000,
    );
    expect(
      receiver.requests.flatMap((q) => q.records.map((r) => Number(r.db_id))).sort((a, b) => a - b),
    ).toEqual(Array.from({ length: imported }, (_, i) => i + 1));
    expect(sumOf(after, 'branchgate_push_attempts_total', { kind: 'delivery', outcome: 'ok' })).toBe(
      receiver.requests.length,
    );
    expect(sumOf(after, 'branchgate_push_attempts_total', { outcome: 'http_error' })).toBe(0);
    expect(sumOf(after, 'branchgate_push_lag_seconds')).toBe(0);
    expect(sumOf(after, 'branchgate_push_last_success_timestamp_seconds')).toBeGreaterThan(0);

    // A pull with the admin session: one request on the pull route, with its latency observed.
    const login = await send(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const pulled = await send(`${server.url}/pbx/cdr/data`, { headers: { cookie } });
    expect(pulled.status).toBe(200);
    const route = { method: 'GET', route: '/pbx/cdr/data' };
    const beforePull = await scrape();
    await send(`${server.url}/pbx/cdr/data?page=2`, { headers: { cookie } });
    await send(`${server.url}/pbx/cdr/data`);
    const afterPull = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      sumOf(afterPull, name, labels) - sumOf(beforePull, name, labels);
    expect(moved('branchgate_http_requests_total', { ...route, status: '200' })).toBe(1);
    expect(moved('branchgate_http_requests_total', { ...route, status: '401' })).toBe(1);
    expect(moved('branchgate_http_request_duration_seconds_count', route)).toBe(2);

    // An SMS through the simulated modem.
    const sentBefore = sumOf(afterPull, 'branchgate_sms_messages', { type: 'sent' });
    const sms = await send(`${server.url}/api/sms/send-one`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: PASSWORD, to: '+15551234567', message: 'metrics test' }),
    });
    expect(sms.status).toBe(200);
    const afterSms = await scrape();
    expect(sumOf(afterSms, 'branchgate_sms_messages', { type: 'sent' }) - sentBefore).toBe(1);
    expect(sumOf(afterSms, 'branchgate_sms_queue_length')).toBe(0);
    expect(sumOf(afterSms, 'branchgate_modem_ready')).toBe(1);
    expect(sumOf(afterSms, 'branchgate_modem_registered')).toBe(1);
    expect(sumOf(afterSms, 'branchgate_modem_registration', { registration: 'home' })).toBe(1);
    expect(sumOf(afterSms, 'branchgate_modem_signal_rssi_dbm')).toBe(-71);
    expect(sumOf(afterSms, 'branchgate_modem_signal_level')).toBe(4);
  }, 120_000);

  test('on the API, /metrics needs a token with the metrics scope (or admin); others are refused', async () => {
    srv = await spawnServe(['--data-dir', dataDir, '--db', tdb.url, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: PASSWORD },
    });
    expect(srv.output()).not.toMatch(/metrics on/);
    const token = (scope: string) => createTokenWithCli(`scrape-${scope}`, scope, ['--db', tdb.url]);
    expect((await send(`${srv.url}/metrics`)).status).toBe(401);
    const smsOnly = await send(`${srv.url}/metrics`, {
      headers: { authorization: `Bearer ${await token('sms')}` },
    });
    expect(smsOnly.status).toBe(403);
    const ok = await send(`${srv.url}/metrics`, {
      headers: { authorization: `Bearer ${await token('metrics')}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toMatch(/^branchgate_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);
    expect(ok.text).toMatch(/^# TYPE branchgate_http_request_duration_seconds histogram$/m);
    // Every series the example Grafana dashboard queries is one the server exposes.
    const exposed = new Set([...ok.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]));
    const dashboard = readFileSync(resolve(import.meta.dirname, '../../docs/grafana-dashboard.json'), 'utf8');
    const queried = new Set([...dashboard.matchAll(/branchgate_\w+/g)].map((m) => m[0]));
    expect(queried.size).toBeGreaterThan(10);
    for (const name of queried) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      expect(exposed.has(name) || exposed.has(base), name).toBe(true);
    }
  }, 60_000);
});
