// `branchgate client cdr pull` and `branchgate client sms ...` end to end: the real bin as a child
// process against the real server over TLS on loopback, with secrets from the environment or
// stdin, and never in what the command prints.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addExtension } from '../../src/auth/index.js';
import { CDR_WIRE_FIELDS } from '../../src/cdr/record.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from '../sms/api/support/sms-server.js';
import { fixtureRecord, fixtureRecords } from '../support/cdr-fixtures.js';
import { peerCertificatePem } from '../support/peer-certificate.js';
import { BIN, REPO_ROOT } from '../support/serve-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const KEY = createHash('sha256').update('cli-secret-1').digest('hex');
const COUNT = 1234;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  const proc = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  proc.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('branchgate client cdr pull', () => {
  let srv: TestServer;
  let dir: string;
  let caFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bg-client-cli-'));
    srv = await startTestServer('sqlite', {
      failureLimits: { maxFailures: 1_000_000, windowSeconds: 60, blockSeconds: 60 },
    });
    await addExtension(srv.store, { number: '2001', secret: 'cli-secret-1', cdrAccess: true });
    await insertCdrRecords(srv.store, [
      ...fixtureRecords(1, COUNT - 1),
      fixtureRecord(COUNT, { clid: '"Smith, Jo ""JJ""" <4001>' }),
    ]);
    caFile = join(dir, 'server.pem');
    writeFileSync(caFile, await peerCertificatePem(srv.url));
  });
  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pull = (extra: string[], env: Record<string, string> = {}, input?: string) =>
    cli(['client', 'cdr', 'pull', '--url', srv.url, '--ca', caFile, ...extra], {
      env,
      ...(input === undefined ? {} : { input }),
    });

  test('streams every record once, in order, as JSON lines, with the key from the environment', async () => {
    const run = await pull(['--extension', '2001', '--key-env', 'PULL_KEY', '--limit', '100'], {
      PULL_KEY: KEY,
    });
    expect(run.stderr).toBe(`client cdr pull: ${COUNT} records (db_id 1..${COUNT})\n`);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l) as { db_id: number });
    expect(records.map((r) => r.db_id)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    expect(Object.keys(records[0] as object)).toEqual([...CDR_WIRE_FIELDS]);
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  test('--from-db-id and --format csv, with the query form and the key on stdin', async () => {
    const run = await pull(
      ['--extension', '2001', '--key-stdin', '--auth', 'query', '--from-db-id', '1230', '--format', 'csv'],
      {},
      `${KEY}\n`,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(CDR_WIRE_FIELDS.join(','));
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([1230, 1231, 1232, 1233, 1234]);
    expect(lines[5]).toContain(',"""Smith, Jo """"JJ"""""" <4001>",');
    expect(run.stderr).toBe('client cdr pull: 5 records (db_id 1230..1234)\n');
  });

  test('the extension secret from the environment works as the key', async () => {
    const run = await pull(['--extension', '2001', '--secret-env', 'EXT_SECRET', '--from-db-id', '1234'], {
      EXT_SECRET: 'cli-secret-1',
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stdout + run.stderr).not.toContain('cli-secret-1');
  });

  test('a wrong key fails with the server code, exit 1, and no key in the output', async () => {
    const wrong = 'f'.repeat(64);
    const run = await pull(['--extension', '2001', '--key-env', 'PULL_KEY', '--auth', 'query'], {
      PULL_KEY: wrong,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(
        `^branchgate: GET ${srv.url.replaceAll('.', '\\.')}/pbx/cdr/data\\?page=1&limit=1000&extension=2001&key=\\*\\*\\*: HTTP 401 unauthorized`,
      ),
    );
    expect(run.stderr).not.toContain(wrong);
  });

  test('without --ca the self-signed certificate is refused clearly; --insecure is the explicit way round', async () => {
    const args = [
      'client',
      'cdr',
      'pull',
      '--url',
      srv.url,
      '--extension',
      '2001',
      '--key-env',
      'K',
      '--from-db-id',
      '1234',
    ];
    const refused = await cli(args, { env: { K: KEY } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the server's TLS certificate is not trusted .*--ca FILE/);
    const insecure = await cli([...args, '--insecure'], { env: { K: KEY } });
    expect(insecure.code).toBe(0);
    expect(JSON.parse(insecure.stdout)).toMatchObject({ db_id: 1234 });
  });

  test('refuses missing or conflicting credentials before connecting', async () => {
    const none = await pull([]);
    expect([none.code, none.stderr]).toEqual([
      1,
      'branchgate: give --extension with a key, or --cookie-env\n',
    ]);
    const two = await pull(['--extension', '2001', '--key', KEY, '--key-env', 'X']);
    expect(two.stderr).toBe(
      'branchgate: --extension: give exactly one of --key, --key-env, --key-stdin, --secret-env\n',
    );
    const unset = await pull(['--extension', '2001', '--key-env', 'BG_TEST_UNSET_VARIABLE']);
    expect(unset.stderr).toBe(
      'branchgate: --key-env: environment variable BG_TEST_UNSET_VARIABLE is not set\n',
    );
  });
});

describe('branchgate client sms', () => {
  let srv: SmsTestServer;
  beforeAll(async () => {
    srv = await startSmsServer('sqlite', {
      sms: { sendWaitMs: 5000 },
      failureLimits: { maxFailures: 1_000_000, windowSeconds: 60, blockSeconds: 60 },
    });
  });
  afterAll(async () => srv?.close());

  const sms = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
    cli(['client', 'sms', ...args, '--url', srv.url, '--insecure'], options);
  const env = { SMS_PW: ADMIN_PASSWORD };

  test('send, list, get and delete, with the password from the environment or stdin, never printed', async () => {
    const sent = await sms(
      ['send', '--to', '+15550102030', '--message', 'Generator on', '--password-env', 'SMS_PW'],
      {
        env,
      },
    );
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const message = JSON.parse(sent.stdout) as { id: string };
    expect(message).toMatchObject({
      type: 'sent',
      number: '+15550102030',
      message: 'Generator on',
      status: 'sent',
    });

    const list = await sms(['list', '--type', 'sent', '--password-stdin'], { input: `${ADMIN_PASSWORD}\n` });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as Array<{ id: string }>).map((m) => m.id)).toContain(message.id);

    const got = await sms(['get', '--type', 'sent', '--id', message.id, '--password-env', 'SMS_PW'], { env });
    // The simulator's status report (1 s after sending) may have turned "sent" into "delivered"
    // by now; everything else is the message as sent.
    const { status, ...rest } = JSON.parse(got.stdout) as { status: string };
    const { status: _sentStatus, ...sentRest } = JSON.parse(sent.stdout) as { status: string };
    expect(['sent', 'delivered']).toContain(status);
    expect(rest).toEqual(sentRest);
    const deleted = await sms(['delete', '--type', 'sent', '--id', message.id, '--password-env', 'SMS_PW'], {
      env,
    });
    expect(JSON.parse(deleted.stdout)).toMatchObject({ id: message.id });

    const gone = await sms(['get', '--type', 'sent', '--id', message.id, '--password-env', 'SMS_PW'], {
      env,
    });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(
      new RegExp(
        `^branchgate: POST ${srv.url.replaceAll('.', '\\.')}/api/sms/get-one: HTTP 404 not_found: \\S.*\n$`,
      ),
    );
    for (const run of [sent, list, got, deleted, gone]) {
      expect(run.stdout + run.stderr).not.toContain(ADMIN_PASSWORD);
    }
  });

  test('a wrong password is 401, and is not echoed', async () => {
    const run = await sms(['list', '--type', 'received', '--password-env', 'SMS_PW'], {
      env: { SMS_PW: 'Not-The-Password-3' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^branchgate: POST \S+\/api\/sms\/get-all: HTTP 401 unauthorized/);
    expect(run.stdout + run.stderr).not.toContain('Not-The-Password-3');
  });

  test('there is no plain --password argument, and one password source is required', async () => {
    const plain = await sms(['list', '--type', 'sent', '--password', ADMIN_PASSWORD]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toMatch(/unknown option '--password'/);
    const none = await sms(['list', '--type', 'sent']);
    expect([none.code, none.stderr]).toEqual([
      1,
      'branchgate: give exactly one of --password-env VAR or --password-stdin\n',
    ]);
    const badType = await sms(['list', '--type', 'inbox', '--password-env', 'SMS_PW'], { env });
    expect(badType.stderr).toBe('branchgate: --type: "inbox" is not sent or received\n');
  });
});
