// `branchgate settings` command group: `settings cdr-push [flags]` shows or changes the CDR push
// settings straight in the store (so it works while the server runs; the job reads them each run).
import type { Command } from 'commander';

interface CdrPushFlags {
  dataDir?: string;
  db?: string;
  enable?: boolean;
  disable?: boolean;
  url?: string;
  method?: string;
  apiKey?: string;
  bearerToken?: string;
  username?: string;
  password?: string;
  fields?: string;
  interval?: string;
  batch?: string;
  poisonPolicy?: string;
  poisonAfter?: string;
  alertAfter?: string;
  sendHistory?: boolean;
}

// Whole numbers become numbers; anything else is passed on as text so the validator names it.
const intOrText = (v: string): number | string => (/^-?[0-9]{1,15}$/.test(v.trim()) ? Number(v) : v);

/** The settings patch the flags ask for (empty when only showing). */
function patchOf(flags: CdrPushFlags): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (flags.enable && flags.disable) {
    throw new Error('--enable and --disable together');
  }
  if (flags.enable) patch.enabled = true;
  if (flags.disable) patch.enabled = false;
  if (flags.url !== undefined) patch.url = flags.url;
  if (flags.method !== undefined) patch.method = flags.method;
  if (flags.apiKey !== undefined) patch.api_key = flags.apiKey;
  if (flags.bearerToken !== undefined) patch.bearer_token = flags.bearerToken;
  if (flags.username !== undefined) patch.username = flags.username;
  if (flags.password !== undefined) patch.password = flags.password;
  if (flags.fields !== undefined) {
    patch.fields = flags.fields
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
  }
  if (flags.interval !== undefined) patch.interval_seconds = intOrText(flags.interval);
  if (flags.batch !== undefined) patch.batch_size = intOrText(flags.batch);
  if (flags.sendHistory !== undefined) patch.send_history = flags.sendHistory;
  if (flags.poisonPolicy !== undefined) patch.poison_policy = flags.poisonPolicy;
  if (flags.poisonAfter !== undefined) patch.poison_after = intOrText(flags.poisonAfter);
  if (flags.alertAfter !== undefined) patch.alert_after_seconds = intOrText(flags.alertAfter);
  return patch;
}

async function runCdrPush(flags: CdrPushFlags): Promise<void> {
  const { CdrPushError, loadCdrPushSettings, saveCdrPushSettings, settingsView } = await import(
    '../cdr/push/index.js'
  );
  const { openStore } = await import('../store/index.js');
  let patch: Record<string, unknown>;
  try {
    patch = patchOf(flags);
  } catch (err) {
    throw new CdrPushError('bad_setting', `enabled: ${(err as Error).message}`);
  }
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  try {
    const settings =
      Object.keys(patch).length === 0
        ? await loadCdrPushSettings(store)
        : await saveCdrPushSettings(store, patch, Date.now());
    process.stdout.write(`${JSON.stringify(settingsView(settings), null, 2)}\n`);
  } finally {
    await store.close();
  }
}

/** Adds the `settings` command group to the program. */
export function registerSettings(program: Command): void {
  const settings = program.command('settings').description('server settings kept in the store');
  settings
    .command('cdr-push')
    .description(
      'show or change the CDR push settings (secrets are shown only as set/unset; give "" to clear one)',
    )
    .option('--data-dir <dir>', 'data directory (the SQLite store is <dir>/branchgate.db)')
    .option('--db <url>', 'SQLite file path or postgres:// URL (overrides --data-dir)')
    .option('--enable', 'turn delivery on')
    .option('--disable', 'turn delivery off')
    .option('--url <url>', 'receiver URL (http:// or https://)')
    .option('--method <method>', 'POST (default) or PUT')
    .option('--api-key <key>', 'sent as x-api-key')
    .option('--bearer-token <token>', 'sent as Authorization: Bearer')
    .option('--username <name>', 'HTTP Basic user name (with --password)')
    .option('--password <password>', 'HTTP Basic password (with --username)')
    .option('--fields <a,b,...>', 'record fields to send (default all)')
    .option('--interval <seconds>', 'seconds between runs (at least 1, default 60)')
    .option('--batch <n>', 'records per request: 1 sends bare records, more sends {"data":[...]}')
    .option('--send-history', 'on first enable, send the records already stored too')
    .option('--no-send-history', 'on first enable, start after the newest record (default)')
    .option(
      '--poison-policy <hold|park>',
      'a record refused with the same 4xx --poison-after times: hold (retry, default) or park (set aside, go on)',
    )
    .option('--poison-after <n>', 'refusals in a row that make a record poison (1-100, default 3)')
    .option('--alert-after <seconds>', 'raise push:failing after this long without a success (0: never)')
    .action(runCdrPush);
}
