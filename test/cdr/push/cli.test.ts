import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadCdrPushSettings, readPushState } from '../../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../../src/cdr/record-store.js';
import { openStore } from '../../../src/store/index.js';
import { fixtureRecords } from '../../support/cdr-fixtures.js';
import { BIN, REPO_ROOT } from '../../support/serve-process.js';
import { waitFor } from './support/push-support.js';

const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('branchgate settings cdr-push / cdr push / cdr receive', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bg-push-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('saves settings, never prints a secret, and refuses bad ones naming the field without changing anything', async () => {
    const ok = await cli([
      'settings',
      'cdr-push',
      '--data-dir',
      dir,
      '--enable',
      '--url',
      'http://127.0.0.1:9/cdr',
      '--api-key',
      'CLI-SECRET-1',
      '--fields',
      'db_id,call_id',
      '--interval',
      '5',
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      enabled: true,
      api_key_set: true,
      fields: ['db_id', 'call_id'],
      interval_seconds: 5,
    });
    expect(ok.stdout).not.toContain('CLI-SECRET-1');

    for (const [args, message] of [
      [['--interval', '0'], 'branchgate: interval_seconds: must be between 1 and 86400, not 0'],
      [['--url', 'ftp://x/'], 'branchgate: url: must be an http:// or https:// URL, not ftp://'],
      [['--fields', 'db_id,bogus'], 'branchgate: fields: unknown field "bogus"'],
      [
        ['--bearer-token', 't', '--username', 'u', '--password', 'p'],
        'branchgate: bearer_token: Bearer token and Basic',
      ],
    ] as const) {
      const bad = await cli(['settings', 'cdr-push', '--data-dir', dir, ...args]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(message);
    }
    const store = await openStore({ dataDir: dir });
    try {
      expect(await loadCdrPushSettings(store)).toMatchObject({
        url: 'http://127.0.0.1:9/cdr',
        interval_seconds: 5,
        bearer_token: '',
      });
    } finally {
      await store.close();
    }
  });

  test('cdr push --replay-from moves the cursor; a db_id beyond the newest is refused', async () => {
    const store = await openStore({ dataDir: dir });
    try {
      await insertCdrRecords(store, fixtureRecords(1, 8));
      await cli(['settings', 'cdr-push', '--data-dir', dir, '--enable', '--url', 'http://127.0.0.1:9/']);
      expect((await readPushState(store.db)).ackedDbId).toBe(8);
      const ok = await cli(['cdr', 'push', '--data-dir', dir, '--replay-from', '3']);
      expect(ok.stdout).toBe('cdr push: the next run sends from db_id 3 (backlog 6)\n');
      expect((await readPushState(store.db)).ackedDbId).toBe(2);
      const bad = await cli(['cdr', 'push', '--data-dir', dir, '--replay-from', '10']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('from_db_id: 10 is beyond the newest record (db_id 8)');
    } finally {
      await store.close();
    }
  });

  test('cdr push --parked lists parked records and --resend-parked sends them; settings take the poison policy', async () => {
    const store = await openStore({ dataDir: dir });
    try {
      const set = await cli([
        'settings',
        'cdr-push',
        '--data-dir',
        dir,
        '--poison-policy',
        'park',
        '--poison-after',
        '2',
      ]);
      expect(set.code).toBe(0);
      expect((await loadCdrPushSettings(store)).poison_policy).toBe('park');
      const bad = await cli(['settings', 'cdr-push', '--data-dir', dir, '--poison-policy', 'drop']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('poison_policy: must be "hold" or "park"');
      await insertCdrRecords(store, fixtureRecords(1, 2));
      await store.db
        .insertInto('cdr_push_parked')
        .values({
          destination_id: 1,
          db_id: 2,
          parked_at_ms: Date.UTC(2026, 10, 25),
          status: 400,
          error: 'HTTP 400',
        })
        .execute();
      const listed = await cli(['cdr', 'push', '--data-dir', dir, '--parked']);
      expect(listed.stdout).toBe(
        'parked: 1\n  db_id 2 parked 2026-11-25T00:00:00.000Z status 400 HTTP 400\n',
      );
      // No receiver is set up: the resend says so and exits 1; the record stays parked.
      const resend = await cli(['cdr', 'push', '--data-dir', dir, '--resend-parked', 'all']);
      expect(resend.code).toBe(1);
      expect(resend.stderr).toContain('url: set the receiver URL first');
      expect((await cli(['cdr', 'push', '--data-dir', dir, '--resend-parked', 'x'])).stderr).toContain(
        '--resend-parked: "x" is not a db_id or "all"',
      );
    } finally {
      await store.close();
    }
  });

  test('settings cdr-push --add/--destination/--list/--remove manage destinations; cdr push --destination shows one', async () => {
    const added = await cli([
      'settings',
      'cdr-push',
      '--data-dir',
      dir,
      '--add',
      '--name',
      'billing',
      '--url',
      'http://127.0.0.1:9/billing',
      '--bearer-token',
      'BILL-SECRET',
      '--signing-secret',
      'generate',
    ]);
    expect(added.code).toBe(0);
    const made = JSON.parse(added.stdout);
    expect(made).toMatchObject({ id: 2, name: 'billing', bearer_token_set: true, signing_secret_set: true });
    // A secret made here is printed this once; a given one never.
    expect(made.signing_secret).toMatch(/^whsec_/);
    expect(added.stdout).not.toContain('BILL-SECRET');

    const changed = await cli([
      'settings',
      'cdr-push',
      '--data-dir',
      dir,
      '--destination',
      '2',
      '--interval',
      '7',
    ]);
    expect(JSON.parse(changed.stdout)).toMatchObject({ id: 2, interval_seconds: 7 });
    expect(changed.stdout).not.toContain('whsec_');
    const listed = JSON.parse((await cli(['settings', 'cdr-push', '--data-dir', dir, '--list'])).stdout);
    expect(listed.map((d: { id: number; name: string }) => [d.id, d.name])).toEqual([
      [1, ''],
      [2, 'billing'],
    ]);
    // Destination 1 kept its defaults.
    expect(listed[0].interval_seconds).toBe(60);

    const status = await cli(['cdr', 'push', '--data-dir', dir]);
    expect(status.stdout).toContain('destination 2 (billing): enabled false  backlog 0');
    const one = await cli(['cdr', 'push', '--data-dir', dir, '--destination', '2']);
    expect(one.stdout.split('\n')[0]).toBe('destination 2 (billing)');

    for (const [args, message] of [
      [
        ['settings', 'cdr-push', '--destination', '9', '--interval', '5'],
        'destination: there is no destination 9',
      ],
      [
        ['settings', 'cdr-push', '--destination', '1', '--remove'],
        'destination 1 is the CDR API section itself',
      ],
      [['settings', 'cdr-push', '--remove'], '--remove: say which with --destination ID'],
      [['cdr', 'push', '--destination', 'x'], '--destination: "x" is not a destination id'],
      [['cdr', 'push', '--destination', '9'], 'destination: there is no destination 9'],
    ] as const) {
      const bad = await cli([...args, '--data-dir', dir]);
      expect(bad.code, args.join(' ')).toBe(1);
      expect(bad.stderr).toContain(message);
    }
    expect(
      (await cli(['settings', 'cdr-push', '--data-dir', dir, '--destination', '2', '--remove'])).stdout,
    ).toBe('destination 2 removed\n');
    const after = JSON.parse((await cli(['settings', 'cdr-push', '--data-dir', dir, '--list'])).stdout);
    expect(after.map((d: { id: number }) => d.id)).toEqual([1]);
  });

  test('cdr receive checks credentials, appends records to --out and prints a line per request', async () => {
    const out = join(dir, 'got.jsonl');
    const proc = spawn(
      process.execPath,
      [BIN, 'cdr', 'receive', '--listen', '127.0.0.1:0', '--api-key', 'rk', '--out', out],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let printed = '';
    proc.stdout.on('data', (c: Buffer) => {
      printed += c.toString();
    });
    try {
      await waitFor(() => /listening on (http:\S+)/.test(printed), 'the receiver to listen');
      const url = (/listening on (http:\S+?),/.exec(printed) ?? [])[1] as string;
      const post = (headers: Record<string, string>, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      expect((await post({}, { db_id: 1 })).status).toBe(401);
      expect((await post({ 'x-api-key': 'rk', 'idempotency-key': 'cdr-1' }, { db_id: 1 })).status).toBe(200);
      expect(
        (
          await post(
            { 'x-api-key': 'rk', 'idempotency-key': 'cdr-2' },
            { data: [{ db_id: 2 }, { db_id: 3 }] },
          )
        ).status,
      ).toBe(200);
      await waitFor(() => printed.split('\n').length >= 5, 'three request lines');
      const lines = printed.trim().split('\n').slice(1);
      expect(lines[0]).toMatch(/ POST 401 key=- records=0 x-api-key missing or wrong$/);
      expect(lines[1]).toMatch(/ POST 200 key=cdr-1 records=1 db_id 1$/);
      expect(lines[2]).toMatch(/ POST 200 key=cdr-2 records=2 db_id 2\.\.3$/);
      expect(readFileSync(out, 'utf8')).toBe('{"db_id":1}\n{"db_id":2}\n{"db_id":3}\n');
    } finally {
      proc.kill('SIGTERM');
    }
  });
});
