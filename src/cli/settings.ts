// `branchgate settings` command group: `settings cdr-push [flags]` shows or changes the CDR push
// settings straight in the store (so it works while the server runs; the job reads them each run):
// destination 1 (the CDR API section) unless --destination says another; --add, --remove and
// --list manage further destinations.
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
  name?: string;
  signingSecret?: string;
  destination?: string;
  add?: boolean;
  remove?: boolean;
  list?: boolean;
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
  if (flags.name !== undefined) patch.name = flags.name;
  if (flags.signingSecret !== undefined) patch.signing_secret = flags.signingSecret;
  return patch;
}

async function runCdrPush(flags: CdrPushFlags): Promise<void> {
  const push = await import('../cdr/push/index.js');
  const { CdrPushError, settingsView } = push;
  const { openStore } = await import('../store/index.js');
  let patch: Record<string, unknown>;
  try {
    patch = patchOf(flags);
  } catch (err) {
    throw new CdrPushError('bad_setting', `enabled: ${(err as Error).message}`);
  }
  if (flags.destination !== undefined && !/^[0-9]{1,9}$/.test(flags.destination)) {
    throw new CdrPushError('bad_parameter', `--destination: "${flags.destination}" is not a destination id`);
  }
  const actions = [flags.add, flags.remove, flags.list].filter(Boolean).length;
  if (actions > 1) throw new CdrPushError('bad_parameter', '--add, --remove and --list: give one of them');
  if (flags.add && flags.destination !== undefined)
    throw new CdrPushError('bad_parameter', '--add makes a new destination; leave out --destination');
  if (flags.remove && flags.destination === undefined)
    throw new CdrPushError('bad_parameter', '--remove: say which with --destination ID');
  const dest = flags.destination === undefined ? push.FIRST_DESTINATION : Number(flags.destination);
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  // A secret made here ("generate"/"rotate") is printed this once; a given one is never echoed.
  const made = flags.signingSecret === 'generate' || flags.signingSecret === 'rotate';
  const store = await openStore({ db: flags.db, dataDir: flags.dataDir });
  try {
    if (flags.list) {
      const all = await push.listDestinations(store);
      print(all.map((d) => ({ id: d.id, ...settingsView(d.settings) })));
    } else if (flags.remove) {
      await push.deleteDestination(store, dest);
      process.stdout.write(`destination ${dest} removed\n`);
    } else if (flags.add) {
      const d = await push.createDestination(store, patch, Date.now());
      print({
        id: d.id,
        ...settingsView(d.settings),
        ...(made ? { signing_secret: d.settings.signing_secret } : {}),
      });
    } else {
      const before = await push.loadCdrPushSettings(store, dest);
      const settings =
        Object.keys(patch).length === 0
          ? before
          : await push.saveCdrPushSettings(store, patch, Date.now(), dest);
      print({
        ...(flags.destination === undefined ? {} : { id: dest }),
        ...settingsView(settings),
        ...(made && settings.signing_secret !== before.signing_secret
          ? { signing_secret: settings.signing_secret }
          : {}),
      });
    }
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
    .option('--name <name>', 'what the destination is called ("CRM", "billing")')
    .option(
      '--signing-secret <whsec|generate|rotate>',
      'sign deliveries (Standard Webhooks): a whsec_ secret, "generate", "rotate" (the old one signs too until cleared), or "" to stop',
    )
    .option('--destination <id>', 'the destination to show or change (default 1, the CDR API section)')
    .option('--add', 'add a destination with the settings given (prints its id)')
    .option(
      '--remove',
      'remove the destination given by --destination (not 1), with its log and parked records',
    )
    .option('--list', 'list every destination')
    .action(runCdrPush);
}
