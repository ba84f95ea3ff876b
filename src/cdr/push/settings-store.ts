// Loads and saves the CDR push settings (settings table, key "cdr_push", JSON). A save is one
// transaction under the "cdr_push_settings" write lock: read, patch, validate, write, and on the
// first enable set the delivery cursor, so CLI and server may both write at any time.
import type { Store } from '../../store/index.js';
import { withWriteLock } from '../../store/index.js';
import { initializeCursor } from './push-state.js';
import { applyPatch, type CdrPushSettings, parseStoredSettings } from './settings.js';

/** The settings key the CDR push settings are stored under. */
export const CDR_PUSH_SETTINGS_KEY = 'cdr_push';

/** The saved settings (defaults when never saved). */
export async function loadCdrPushSettings(store: Store): Promise<CdrPushSettings> {
  const row = await store.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', CDR_PUSH_SETTINGS_KEY)
    .executeTakeFirst();
  return parseStoredSettings(row?.value);
}

/**
 * Validates a patch against the saved settings and saves the result; throws CdrPushError
 * ('bad_setting', naming the field) and changes nothing when the patch is invalid.
 */
export async function saveCdrPushSettings(
  store: Store,
  patch: unknown,
  nowMs: number,
): Promise<CdrPushSettings> {
  return withWriteLock(store, 'cdr_push_settings', async (trx) => {
    const row = await trx
      .selectFrom('settings')
      .select('value')
      .where('key', '=', CDR_PUSH_SETTINGS_KEY)
      .executeTakeFirst();
    const next = applyPatch(parseStoredSettings(row?.value), patch);
    const value = JSON.stringify(next);
    await trx
      .insertInto('settings')
      .values({ key: CDR_PUSH_SETTINGS_KEY, value, updated_at_ms: nowMs })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at_ms: nowMs }))
      .execute();
    if (next.enabled) await initializeCursor(trx, next.send_history);
    return next;
  });
}
