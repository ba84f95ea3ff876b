// `branchgate cdr push` (status, --replay-from N, --test, --parked, --resend-parked) and `branchgate cdr receive` (a receiver
// for the push job), registered on the `cdr` group by src/cli/cdr.ts.
import type { Command } from 'commander';

interface PushFlags {
  dataDir?: string;
  db?: string;
  replayFrom?: string;
  test?: boolean;
  parked?: boolean;
  resendParked?: string;
  timeZone?: string;
  destination?: string;
}

interface ReceiveFlags {
  listen: string;
  apiKey?: string;
  bearer?: string;
  basic?: string;
  secret: string[];
  out?: string;
  failRate?: string;
  seed?: string;
  quiet?: boolean;
}

async function runPush(flags: PushFlags): Promise<void> {
  const push = await import('../cdr/push/index.js');
  const { openStore } = await import('../store/index.js');
  const { TimeFormatter } = await import('../cdr/wire-record.js');
  const { systemClock } = await import('../shared/clock.js');
  if (flags.replayFrom !== undefined && !/^[0-9]{1,15}$/.test(flags.replayFrom)) {
    throw new push.CdrPushError('bad_parameter', `--replay-from: "${flags.replayFrom}" is not a db_id`);
  }
  if (
    flags.resendParked !== undefined &&
    flags.resendParked !== 'all' &&
    !/^[0-9]{1,15}$/.test(flags.resendParked)
  ) {
    throw new push.CdrPushError(
      'bad_parameter',
      `--resend-parked: "${flags.resendParked}" is not a db_id or "all"`,
    );
  }
  if (flags.destination !== undefined && !/^[0-9]{1,9}$/.test(flags.destination)) {
    throw new push.CdrPushError(
      'bad_parameter',
      `--destination: "${flags.destination}" is not a destination id`,
    );
  }
  const dest = flags.destination === undefined ? push.FIRST_DESTINATION : Number(flags.destination);
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    // not_found, before anything is done, when the destination does not exist.
    const settings = await push.loadCdrPushSettings(store, dest);
    if (flags.replayFrom !== undefined) {
      const state = await push.replayFrom(store, Number(flags.replayFrom), dest);
      say(
        `cdr push: the next run sends from db_id ${flags.replayFrom} (backlog ${await push.backlogOf(store, state)})`,
      );
    }
    if (flags.test) {
      const sender = new push.HttpSender();
      try {
        const a = await push.sendTestRecord(
          store,
          sender,
          new TimeFormatter(flags.timeZone ?? 'UTC'),
          systemClock,
          dest,
        );
        say(
          `cdr push test: ${a.ok ? 'acknowledged' : 'FAILED'} status ${a.status ?? '-'} in ${Math.round(a.latencyMs)} ms${a.error ? `: ${a.error}` : ''}`,
        );
        if (a.body) say(`  answer: ${a.body}`);
        if (!a.ok) process.exitCode = 1;
      } finally {
        sender.close();
      }
    }
    if (flags.parked) {
      const parked = await push.listParked(store, 1000, dest);
      say(`parked: ${await push.countParked(store, dest)}`);
      for (const p of parked) {
        say(
          `  db_id ${p.dbId} parked ${new Date(p.parkedAtMs).toISOString()} status ${p.status ?? '-'} ${p.error}`,
        );
      }
    }
    if (flags.resendParked !== undefined) {
      const sender = new push.HttpSender();
      try {
        const r = await push.resendParked(
          store,
          sender,
          new TimeFormatter(flags.timeZone ?? 'UTC'),
          systemClock,
          flags.resendParked === 'all' ? undefined : Number(flags.resendParked),
          dest,
        );
        say(
          `cdr push: resent ${r.resent}, still parked ${r.remaining}${r.error ? `; stopped at ${r.error}` : ''}`,
        );
        if (r.error) process.exitCode = 1;
      } finally {
        sender.close();
      }
    }
    if (flags.replayFrom === undefined && !flags.test && !flags.parked && flags.resendParked === undefined) {
      const state = await push.readPushState(store.db, dest);
      if (dest !== push.FIRST_DESTINATION)
        say(`destination ${dest}${settings.name ? ` (${settings.name})` : ''}`);
      say(`enabled: ${settings.enabled}  url: ${settings.url || '(none)'}`);
      say(
        `last acknowledged db_id: ${state.ackedDbId ?? '(never enabled)'}  backlog: ${await push.backlogOf(store, state)}`,
      );
      say(
        `failing since: ${state.failingSinceMs === null ? '-' : new Date(state.failingSinceMs).toISOString()}  parked: ${await push.countParked(store, dest)}`,
      );
      for (const e of await push.listDeliveryLog(store, 10, dest)) {
        const ids =
          e.firstDbId === null
            ? 'test'
            : e.firstDbId === e.lastDbId
              ? `${e.firstDbId}`
              : `${e.firstDbId}..${e.lastDbId}`;
        say(
          `  ${new Date(e.atMs).toISOString()} ${ids} status ${e.status ?? '-'} ${e.latencyMs} ms ${e.error}`,
        );
      }
      if (flags.destination === undefined) {
        // The other destinations, a line each (`--destination ID` shows one whole).
        for (const d of (await push.listDestinations(store)).slice(1)) {
          const s = await push.readPushState(store.db, d.id);
          say(
            `destination ${d.id}${d.settings.name ? ` (${d.settings.name})` : ''}: enabled ${d.settings.enabled}  backlog ${await push.backlogOf(store, s)}  failing since ${s.failingSinceMs === null ? '-' : new Date(s.failingSinceMs).toISOString()}  parked ${await push.countParked(store, d.id)}  url ${d.settings.url || '(none)'}`,
          );
        }
      }
    }
  } finally {
    await store.close();
  }
}

function parseListen(value: string): { host: string; port: number } {
  const m = /^(.*):([0-9]{1,5})$/.exec(value);
  const port = Number(m?.[2]);
  if (!m || port > 65535) throw new Error(`--listen: "${value}" is not HOST:PORT`);
  return { host: (m[1] as string).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port };
}

async function runReceive(flags: ReceiveFlags): Promise<void> {
  const { CdrPushError, seededRandom, startCdrReceiver } = await import('../cdr/push/index.js');
  let listen: { host: string; port: number };
  try {
    listen = parseListen(flags.listen);
  } catch (err) {
    throw new CdrPushError('bad_parameter', (err as Error).message);
  }
  const failRate = flags.failRate === undefined ? 0 : Number(flags.failRate);
  if (!(failRate >= 0 && failRate <= 1)) {
    throw new CdrPushError('bad_parameter', `--fail-rate: "${flags.failRate}" is not a number from 0 to 1`);
  }
  if (flags.basic !== undefined && !flags.basic.includes(':')) {
    throw new CdrPushError('bad_parameter', '--basic: give user:pass');
  }
  if (flags.seed !== undefined && !/^[0-9]{1,10}$/.test(flags.seed)) {
    throw new CdrPushError('bad_parameter', `--seed: "${flags.seed}" is not a whole number`);
  }
  const receiver = await startCdrReceiver({
    host: listen.host,
    port: listen.port,
    apiKey: flags.apiKey,
    bearer: flags.bearer,
    basic: flags.basic,
    secrets: flags.secret,
    out: flags.out,
    failRate,
    random: flags.seed === undefined ? undefined : seededRandom(Number(flags.seed)),
    keep: false,
    onRequest: (r) => {
      if (flags.quiet && r.status === 200) return;
      const ids = r.records.map((x) => x.db_id);
      const span =
        ids.length === 0 ? '' : ids.length === 1 ? ` db_id ${ids[0]}` : ` db_id ${ids[0]}..${ids.at(-1)}`;
      process.stdout.write(
        `${r.at.toISOString()} ${r.method} ${r.status} key=${r.idempotencyKey || '-'} records=${r.records.length}${span}` +
          `${r.repeat ? ' (repeat)' : ''}${r.reason ? ` ${r.reason}` : ''}\n`,
      );
    },
  });
  process.stdout.write(
    `cdr receive: listening on ${receiver.url}${flags.out ? `, appending to ${flags.out}` : ''}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await receiver.close();
}

/** Adds `push` and `receive` to the `cdr` command group. */
export function registerCdrPushCommands(cdr: Command): void {
  cdr
    .command('push')
    .description(
      'CDR push status (cursor, backlog, recent attempts), replay, a test record, or parked records',
    )
    .option('--data-dir <dir>', 'data directory (the SQLite store is <dir>/branchgate.db)')
    .option('--db <url>', 'SQLite file path or postgres:// URL (overrides --data-dir)')
    .option('--replay-from <db_id>', 'send again from this db_id on the next run')
    .option('--test', 'send a test record with the saved settings and show the answer')
    .option('--parked', 'list the records set aside by the park poison policy')
    .option('--resend-parked <db_id|all>', 'send parked records again (one, or all oldest first)')
    .option('--time-zone <iana>', 'time zone of the test record and resent record times (default UTC)')
    .option('--destination <id>', 'act on this destination (default 1, the CDR API section)')
    .action(runPush);
  cdr
    .command('receive')
    .description(
      'run a receiver for CDR push: checks credentials, appends records to a file, prints each request',
    )
    .option('--listen <host:port>', 'address to listen on', '127.0.0.1:9000')
    .option('--api-key <key>', 'require this x-api-key')
    .option('--bearer <token>', 'require Authorization: Bearer <token>')
    .option('--basic <user:pass>', 'require HTTP Basic user:pass')
    .option(
      '--secret <whsec>',
      'require a Standard Webhooks signature by this secret, timestamp within 5 minutes (repeatable: during a rotation)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--out <file.jsonl>', 'append each received record to this file')
    .option('--fail-rate <0..1>', 'answer this share of requests with 500 (nothing stored)')
    .option('--seed <n>', 'seed the --fail-rate randomness (repeatable runs)')
    .option('--quiet', 'print only refused requests')
    .action(runReceive);
}
