// Loads and saves the settings of CDR push destinations, and adds and removes destinations.
// Destination 1 is the seed's CDR API section: settings key "cdr_push", state row 1, always
// there. Destination N > 1: settings key "cdr_push.N", state row N. A state row is what makes a
// destination exist; its settings row may be missing (defaults) until first saved. Every change
// is one transaction under the "cdr_push_settings" write lock: read, patch, validate, write, and
// on the first enable set the destination's cursor, so CLI and server may both write at any time.
import type { Kysely } from 'kysely';
import type { Database, Store } from '../../store/index.js';
import { withWriteLock } from '../../store/index.js';
import { CdrPushError } from './push-error.js';
import { initializeCursor } from './push-state.js';
import { applyPatch, type CdrPushSettings, parseStoredSettings } from './settings.js';

/** The settings key of destination 1 (the seed's CDR API section). */
export const CDR_PUSH_SETTINGS_KEY = 'cdr_push';

/** The destination the seed's form and the unqualified routes and commands act on. */
export const FIRST_DESTINATION = 1;

/** The most destinations a store may hold. */
export const MAX_DESTINATIONS = 50;

/** The settings key of a destination. */
export function settingsKeyOf(destination: number): string {
  return destination === FIRST_DESTINATION
    ? CDR_PUSH_SETTINGS_KEY
    : `${CDR_PUSH_SETTINGS_KEY}.${destination}`;
}

/** A destination as listed. */
export interface Destination {
  id: number;
  settings: CdrPushSettings;
}

async function exists(db: Kysely<Database>, destination: number): Promise<boolean> {
  if (!Number.isSafeInteger(destination) || destination < 1) return false;
  const row = await db
    .selectFrom('cdr_push_state')
    .select('id')
    .where('id', '=', destination)
    .executeTakeFirst();
  return row !== undefined;
}

const notFound = (destination: number) =>
  new CdrPushError('not_found', `destination: there is no destination ${destination}`);

async function readSettings(db: Kysely<Database>, destination: number): Promise<CdrPushSettings> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', settingsKeyOf(destination))
    .executeTakeFirst();
  return parseStoredSettings(row?.value);
}

/** The saved settings of a destination (defaults when never saved); not_found when there is none. */
export async function loadCdrPushSettings(
  store: Store,
  destination: number = FIRST_DESTINATION,
): Promise<CdrPushSettings> {
  if (destination !== FIRST_DESTINATION && !(await exists(store.db, destination)))
    throw notFound(destination);
  return readSettings(store.db, destination);
}

/** The settings of a destination, or null when it was removed (for the job). */
export async function findCdrPushSettings(
  store: Store,
  destination: number,
): Promise<CdrPushSettings | null> {
  if (!(await exists(store.db, destination))) return null;
  return readSettings(store.db, destination);
}

async function writeSettings(
  trx: Kysely<Database>,
  destination: number,
  next: CdrPushSettings,
  nowMs: number,
): Promise<void> {
  const value = JSON.stringify(next);
  await trx
    .insertInto('settings')
    .values({ key: settingsKeyOf(destination), value, updated_at_ms: nowMs })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at_ms: nowMs }))
    .execute();
  if (next.enabled) await initializeCursor(trx, next.send_history, destination);
}

/**
 * Validates a patch against a destination's saved settings and saves the result; throws
 * CdrPushError ('bad_setting', naming the field; 'not_found') and changes nothing when it fails.
 */
export async function saveCdrPushSettings(
  store: Store,
  patch: unknown,
  nowMs: number,
  destination: number = FIRST_DESTINATION,
): Promise<CdrPushSettings> {
  return withWriteLock(store, 'cdr_push_settings', async (trx) => {
    if (destination !== FIRST_DESTINATION && !(await exists(trx, destination))) throw notFound(destination);
    const next = applyPatch(await readSettings(trx, destination), patch);
    await writeSettings(trx, destination, next, nowMs);
    return next;
  });
}

/** Every destination, destination 1 first. */
export async function listDestinations(store: Store): Promise<Destination[]> {
  const ids = await store.db.selectFrom('cdr_push_state').select('id').orderBy('id').execute();
  const keys = ids.map((r) => settingsKeyOf(Number(r.id)));
  const values = new Map(
    (await store.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute()).map(
      (r) => [r.key, r.value],
    ),
  );
  return ids.map((r) => {
    const id = Number(r.id);
    return { id, settings: parseStoredSettings(values.get(settingsKeyOf(id))) };
  });
}

/**
 * Adds a destination with the patch applied to the defaults (validated first: nothing is written
 * when it fails). Its id is one more than the highest in use.
 */
export async function createDestination(store: Store, patch: unknown, nowMs: number): Promise<Destination> {
  return withWriteLock(store, 'cdr_push_settings', async (trx) => {
    const settings = applyPatch(await readSettings(trx, -1), patch);
    const { max, n } = await trx
      .selectFrom('cdr_push_state')
      .select((eb) => [eb.fn.max('id').as('max'), eb.fn.countAll().as('n')])
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_DESTINATIONS) {
      throw new CdrPushError('bad_setting', `destination: at most ${MAX_DESTINATIONS} destinations`);
    }
    const id = Math.max(FIRST_DESTINATION, Number(max ?? 0)) + 1;
    await trx.insertInto('cdr_push_state').values({ id, generation: 0, poison_count: 0 }).execute();
    await writeSettings(trx, id, settings, nowMs);
    return { id, settings };
  });
}

/**
 * Removes a destination with its cursor, log and parked records. Destination 1 cannot be removed
 * (it is the seed's form; disable it instead).
 */
export async function deleteDestination(store: Store, destination: number): Promise<void> {
  if (destination === FIRST_DESTINATION) {
    throw new CdrPushError(
      'bad_parameter',
      'destination: destination 1 is the CDR API section itself and cannot be removed; disable it instead',
    );
  }
  await withWriteLock(store, 'cdr_push_settings', async (trx) => {
    if (!(await exists(trx, destination))) throw notFound(destination);
    await trx.deleteFrom('cdr_push_state').where('id', '=', destination).execute();
    await trx.deleteFrom('settings').where('key', '=', settingsKeyOf(destination)).execute();
    await trx.deleteFrom('cdr_push_parked').where('destination_id', '=', destination).execute();
    await trx.deleteFrom('cdr_push_log').where('destination_id', '=', destination).execute();
  });
}
