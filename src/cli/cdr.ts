// `branchgate cdr` command group: `cdr import <file>` loads an Asterisk CDR CSV into the store.
// Further subcommands (push, receive) register on the same group below.
import { type Command, Option } from 'commander';
import { registerCdrPushCommands } from './cdr-push.js';
import { addStoreOptions } from './store-options.js';

interface ImportFlags {
  dataDir?: string;
  db?: string;
  columns?: string;
  timeZone: string;
  /** The old spelling of --time-zone, still accepted. */
  timezone?: string;
  strict?: boolean;
  jobs?: string;
}

// Files at least this big are checked by two threads unless --jobs says otherwise.
const PARALLEL_FROM_BYTES = 32 * 1024 * 1024;

async function threadsFor(file: string, jobs: string | undefined): Promise<number> {
  const { CdrImportError } = await import('../cdr/ingest/index.js');
  if (jobs !== undefined) {
    if (!/^[1-9]\d?$/.test(jobs))
      throw new CdrImportError('bad_option', `--jobs: ${JSON.stringify(jobs)} is not 1-99`);
    return Number(jobs);
  }
  const { availableParallelism } = await import('node:os');
  const { statSync } = await import('node:fs');
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // importCdrFile says the file cannot be read
  }
  return size >= PARALLEL_FROM_BYTES ? Math.min(2, availableParallelism()) : 1;
}

const MAX_BAD_LINES_SHOWN = 100;

async function runImport(file: string, given: ImportFlags): Promise<void> {
  const flags = { ...given, timeZone: given.timezone ?? given.timeZone };
  const { createTimeParser, importCdrFile, parseColumnsOption } = await import('../cdr/ingest/index.js');
  const { insertCdrRecords } = await import('../cdr/record-store.js');
  const { openStore } = await import('../store/index.js');
  const { createProgress } = await import('../shared/progress.js');
  // Options are checked before the store is opened, so a mistyped flag creates nothing.
  const layout = flags.columns === undefined ? undefined : parseColumnsOption(flags.columns);
  createTimeParser(flags.timeZone);
  const threads = await threadsFor(file, flags.jobs);
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  let shown = 0;
  try {
    const summary = await importCdrFile(file, (records) => insertCdrRecords(store, records), {
      layout,
      timezone: flags.timeZone,
      strict: flags.strict,
      threads,
      progress: createProgress(),
      onBadLine: (bad) => {
        if (shown++ < MAX_BAD_LINES_SHOWN)
          process.stderr.write(`${file}:${bad.line}: skipped: ${bad.reason}\n`);
        else if (shown === MAX_BAD_LINES_SHOWN + 1)
          process.stderr.write(`${file}: more bad lines not shown\n`);
      },
    });
    const latin1 = summary.latin1 > 0 ? `, ${summary.latin1} read as Latin-1` : '';
    process.stdout.write(
      `${file}: ${summary.layout}: read ${summary.read}, inserted ${summary.inserted}, ` +
        `duplicates ${summary.duplicates}, bad ${summary.bad}${latin1}\n`,
    );
  } finally {
    await store.close();
  }
}

interface ExportFlags {
  dataDir?: string;
  db?: string;
  format: 'csv' | 'json';
  output?: string;
  from?: string;
  to?: string;
  source?: string;
  destination?: string;
  disposition?: string;
  callerId?: string;
  order: string;
  timeZone: string;
}

async function runExport(flags: ExportFlags): Promise<void> {
  const { parseCdrFilter } = await import('../cdr/cdr-filter.js');
  const { exportChunks } = await import('../cdr/cdr-export.js');
  const { TimeFormatter } = await import('../cdr/wire-record.js');
  const { checkTimeZone } = await import('../server/config.js');
  const { openStore } = await import('../store/index.js');
  const { createProgress } = await import('../shared/progress.js');
  const { AppError } = await import('../shared/errors.js');
  const { createWriteStream } = await import('node:fs');
  const { rename, rm } = await import('node:fs/promises');
  checkTimeZone(flags.timeZone);
  const parsed = parseCdrFilter(
    {
      from: flags.from,
      to: flags.to,
      source: flags.source,
      destination: flags.destination,
      disposition: flags.disposition,
      caller_id: flags.callerId,
      order: flags.order,
    },
    flags.timeZone,
  );
  if (!parsed.ok)
    throw new AppError(
      'bad_option',
      parsed.message.replace(/^(\w+):/, '--$1:').replace('--caller_id', '--caller-id'),
    );
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  const partial = flags.output ? `${flags.output}.partial` : undefined;
  const out = partial ? createWriteStream(partial) : process.stdout;
  const progress = createProgress({ unit: 'records' });
  try {
    const { max } = await store.db
      .selectFrom('cdr')
      .select((eb) => eb.fn.max('db_id').as('max'))
      .executeTakeFirstOrThrow();
    progress.start(Number(max ?? 0), 'export');
    let written = 0;
    for await (const chunk of exportChunks(
      store,
      parsed.filter,
      flags.format,
      new TimeFormatter(flags.timeZone),
      (n) => {
        written += n;
        progress.increment(n);
      },
    )) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    progress.stop();
    if (partial && flags.output) {
      await new Promise<void>((resolve, reject) =>
        (out as ReturnType<typeof createWriteStream>).end((err?: Error | null) =>
          err ? reject(err) : resolve(),
        ),
      );
      await rename(partial, flags.output);
      process.stderr.write(`${flags.output}: ${written} records\n`);
    }
  } catch (err) {
    progress.stop();
    if (partial) await rm(partial, { force: true });
    throw err;
  } finally {
    await store.close();
  }
}

/** Adds the `cdr` command group to the program. */
export function registerCdr(program: Command): void {
  const cdr = program.command('cdr').description('call detail records');
  const importCommand = cdr
    .command('import')
    .description(
      'import an Asterisk CDR CSV (cdr_csv Master.csv with 16/17/18 columns, cdr_custom with 21, or any --columns list); ' +
        'records already stored are skipped',
    )
    .argument('<file>', 'the CSV file')
    .option('--columns <names>', 'comma-separated cdr_custom field names, in file order (default: detect)')
    .option('--time-zone <zone>', 'IANA zone of the times in the file (usegmtime=yes: UTC)', 'UTC')
    .addOption(new Option('--timezone <zone>', 'the same as --time-zone').hideHelp())
    .option('--strict', 'refuse the whole import when any line is bad (default: skip bad lines)')
    .option('--jobs <n>', 'threads checking the file (default: 2 for files of 32 MiB or more, else 1)')
    .action(runImport);
  addStoreOptions(importCommand);

  addStoreOptions(
    cdr
      .command('export')
      .description("write stored records as CSV or JSON, with the console's filters (docs/api.md)")
      .addOption(new Option('--format <format>', 'output format').choices(['csv', 'json']).default('csv'))
      .option('-o, --output <file>', 'write here instead of stdout (written whole, then renamed)')
      .option('--from <when>', 'first day (YYYY-MM-DD), time (YYYY-MM-DD HH:MM:SS) or unix seconds')
      .option('--to <when>', 'last day, time or unix seconds (included)')
      .option('--source <number>', 'source number')
      .option('--destination <number>', 'destination number')
      .option('--disposition <d>', 'ANSWERED, NO ANSWER, BUSY, FAILED or CONGESTION')
      .option('--caller-id <text>', 'text in the caller id')
      .addOption(new Option('--order <order>', 'by db_id').choices(['asc', 'desc']).default('asc'))
      .option('--time-zone <zone>', 'zone of the times written and of --from/--to', 'UTC'),
  ).action(runExport);
  registerCdrPushCommands(cdr);
}
