// `branchgate client`: talks to a remote branchgate server or any device speaking the same
// contracts, through the SDK (src/client). `client cdr pull` streams every CDR from a db_id on as
// JSON lines or CSV; `client sms list|get|delete|send` calls the four SMS endpoints. Secrets come
// from an environment variable or stdin and are never printed.
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { CdrPullAuth, CdrWireRecord, ConnectionOptions, SmsType } from '../client/index.js';
import { AppError } from '../shared/errors.js';

export interface ConnectionFlags {
  url: string;
  ca?: string[];
  insecure?: boolean;
  timeout?: string;
}

interface PullFlags extends ConnectionFlags {
  extension?: string;
  key?: string;
  keyEnv?: string;
  keyStdin?: boolean;
  secretEnv?: string;
  cookieEnv?: string;
  auth: 'basic' | 'query';
  fromDbId: string;
  limit: string;
  format: 'jsonl' | 'csv';
}

interface SmsFlags extends ConnectionFlags {
  passwordEnv?: string;
  passwordStdin?: boolean;
}

const bad = (message: string) => new AppError('bad_option', message);

function positive(name: string, value: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[0-9]{1,16}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw bad(`${name}: "${value}" is not an integer from 1 to ${max}`);
  }
  return Number(value);
}

export function connection(flags: ConnectionFlags): ConnectionOptions {
  const out: ConnectionOptions = {};
  if (flags.timeout !== undefined) out.timeoutMs = positive('--timeout', flags.timeout);
  if (flags.insecure) out.insecure = true;
  if (flags.ca && flags.ca.length > 0) {
    out.ca = flags.ca.map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (err) {
        throw bad(`--ca: cannot read ${file}: ${(err as Error).message}`);
      }
    });
  }
  return out;
}

export function fromEnv(flag: string, variable: string): string {
  const value = process.env[variable];
  if (value === undefined || value === '') throw bad(`${flag}: environment variable ${variable} is not set`);
  return value;
}

async function fromStdin(flag: string): Promise<string> {
  if (process.stdin.isTTY) throw bad(`${flag}: pipe the value on stdin`);
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (text === '') throw bad(`${flag}: nothing on stdin`);
  return text;
}

async function pullAuth(flags: PullFlags): Promise<CdrPullAuth> {
  const sources = [flags.key, flags.keyEnv, flags.keyStdin, flags.secretEnv].filter((s) => s !== undefined);
  if (flags.cookieEnv !== undefined) {
    if (flags.extension !== undefined || sources.length > 0) {
      throw bad('--cookie-env: give either a session cookie or --extension with a key, not both');
    }
    return { kind: 'session', cookie: fromEnv('--cookie-env', flags.cookieEnv) };
  }
  if (flags.extension === undefined) throw bad('give --extension with a key, or --cookie-env');
  if (sources.length !== 1)
    throw bad('--extension: give exactly one of --key, --key-env, --key-stdin, --secret-env');
  let key: string;
  if (flags.key !== undefined) key = flags.key;
  else if (flags.keyEnv !== undefined) key = fromEnv('--key-env', flags.keyEnv);
  else if (flags.keyStdin) key = await fromStdin('--key-stdin');
  else {
    const { createHash } = await import('node:crypto');
    key = createHash('sha256')
      .update(fromEnv('--secret-env', flags.secretEnv as string))
      .digest('hex');
  }
  return { kind: flags.auth, extension: flags.extension, key };
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote, line break or edge space. */
function csvField(value: string | number): string {
  const s = String(value);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

async function runPull(flags: PullFlags): Promise<void> {
  const { CdrPullClient, MAX_LIMIT } = await import('../client/index.js');
  const { CDR_WIRE_FIELDS } = await import('../cdr/record.js');
  const { createProgress } = await import('../shared/progress.js');
  const fromDbId = positive('--from-db-id', flags.fromDbId);
  const limit = positive('--limit', flags.limit, MAX_LIMIT);
  if (flags.format !== 'jsonl' && flags.format !== 'csv')
    throw bad(`--format: "${flags.format}" is not jsonl or csv`);
  const client = new CdrPullClient({ url: flags.url, auth: await pullAuth(flags), ...connection(flags) });
  const progress = createProgress({ unit: 'pages' });
  let started = false;
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  try {
    if (flags.format === 'csv') await write(`${CDR_WIRE_FIELDS.join(',')}\n`);
    for await (const page of client.pages({ fromDbId, limit })) {
      if (!started) {
        progress.start(Math.max(1, page.totalPages - page.page + 1), 'cdr pull');
        started = true;
      }
      const lines = page.records.map((r: CdrWireRecord) =>
        flags.format === 'csv'
          ? `${CDR_WIRE_FIELDS.map((f) => csvField(r[f])).join(',')}\n`
          : `${JSON.stringify(r)}\n`,
      );
      if (lines.length > 0) await write(lines.join(''));
      count += page.records.length;
      first ??= page.records[0]?.db_id ?? null;
      last = page.records.at(-1)?.db_id ?? last;
      progress.increment();
    }
  } finally {
    if (started) progress.stop();
    client.close();
  }
  process.stderr.write(
    `client cdr pull: ${count} records${first === null ? '' : ` (db_id ${first}..${last})`}\n`,
  );
}

async function smsClient(flags: SmsFlags) {
  const { SmsClient } = await import('../client/index.js');
  if ((flags.passwordEnv === undefined) === (flags.passwordStdin === undefined)) {
    throw bad('give exactly one of --password-env VAR or --password-stdin');
  }
  const password =
    flags.passwordEnv !== undefined
      ? fromEnv('--password-env', flags.passwordEnv)
      : await fromStdin('--password-stdin');
  return new SmsClient({ url: flags.url, password, ...connection(flags) });
}

function smsType(value: string): SmsType {
  if (value !== 'sent' && value !== 'received') throw bad(`--type: "${value}" is not sent or received`);
  return value;
}

async function runSms(
  flags: SmsFlags,
  call: (c: import('../client/index.js').SmsClient) => Promise<unknown>,
) {
  const client = await smsClient(flags);
  try {
    process.stdout.write(`${JSON.stringify(await call(client), null, 2)}\n`);
  } finally {
    client.close();
  }
}

export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--url <url>', 'base URL of the server or device, e.g. https://pbx.example:8443')
    .option(
      '--ca <file>',
      'PEM file of a CA (or the self-signed certificate) to trust besides the system roots; repeatable',
      (file: string, all: string[] = []) => [...all, file],
    )
    .option('--insecure', 'do NOT verify the TLS certificate (anyone on the path can read the secrets)')
    .option('--timeout <ms>', 'per-request timeout in milliseconds (default 30000; SMS 60000)');
}

function addSmsPasswordOptions(cmd: Command): Command {
  return cmd
    .option('--password-env <VAR>', 'read the admin password from this environment variable')
    .option('--password-stdin', 'read the admin password from stdin');
}

/** Adds the `client` command group: `client cdr pull` and `client sms list|get|delete|send`. */
export function registerClient(program: Command): void {
  const client = program
    .command('client')
    .description('talk to a remote branchgate server or any device speaking the same contracts (the SDK)');
  const cdr = client.command('cdr').description('CDR pull contract (GET /pbx/cdr/data)');
  addConnectionOptions(
    cdr
      .command('pull')
      .description('stream every CDR from a db_id on, page by page, as JSON lines or CSV on stdout'),
  )
    .option('--extension <n>', 'extension with CDR Access')
    .option('--key <sha256hex>', "the extension's key (SHA-256 of its secret; visible in the process list)")
    .option('--key-env <VAR>', 'read the key from this environment variable')
    .option('--key-stdin', 'read the key from stdin')
    .option('--secret-env <VAR>', "read the extension's secret from this variable; the key is its SHA-256")
    .option('--cookie-env <VAR>', 'use an admin session cookie (name=value) from this variable instead')
    .addOption(
      new Option('--auth <mode>', 'how to send extension and key')
        .choices(['basic', 'query'])
        .default('basic'),
    )
    .option('--from-db-id <n>', 'first db_id to fetch', '1')
    .option('--limit <n>', 'records per request (1-1000)', '1000')
    .addOption(new Option('--format <format>', 'output format').choices(['jsonl', 'csv']).default('jsonl'))
    .action(runPull);

  const sms = client.command('sms').description('SMS contract (POST /api/sms/*, auth = admin password)');
  addSmsPasswordOptions(
    addConnectionOptions(sms.command('list').description('every message of one collection, as a JSON array')),
  )
    .requiredOption('--type <type>', 'sent or received')
    .action((o: SmsFlags & { type: string }) => runSms(o, (c) => c.getAll(smsType(o.type))));
  addSmsPasswordOptions(addConnectionOptions(sms.command('get').description('one message, as JSON')))
    .requiredOption('--type <type>', 'sent or received')
    .requiredOption('--id <id>', 'message id')
    .action((o: SmsFlags & { type: string; id: string }) =>
      runSms(o, (c) => c.getOne(smsType(o.type), o.id)),
    );
  addSmsPasswordOptions(
    addConnectionOptions(sms.command('delete').description('delete one message; prints it as it was')),
  )
    .requiredOption('--type <type>', 'sent or received')
    .requiredOption('--id <id>', 'message id')
    .action((o: SmsFlags & { type: string; id: string }) =>
      runSms(o, (c) => c.deleteOne(smsType(o.type), o.id)),
    );
  addSmsPasswordOptions(addConnectionOptions(sms.command('send').description('send a message; prints it')))
    .requiredOption('--to <number>', 'phone number')
    .requiredOption('--message <text>', 'message text')
    .action((o: SmsFlags & { to: string; message: string }) => runSms(o, (c) => c.sendOne(o.to, o.message)));
}
