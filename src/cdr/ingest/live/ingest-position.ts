// The persisted read position of a live source (ingest_position): one JSON value per source id.
// Sources write it inside the transaction that stores the records it covers, so after a crash the
// position and the records agree: either both moved or neither did.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../store/index.js';

/** Reads the position saved for `source`, or null when it never saved one. */
export async function loadIngestPosition<T>(db: Kysely<Database>, source: string): Promise<T | null> {
  const row = await db
    .selectFrom('ingest_position')
    .select('position')
    .where('source', '=', source)
    .executeTakeFirst();
  return row ? (JSON.parse(row.position) as T) : null;
}

/** Saves `position` for `source` (insert or replace), in the caller's transaction. */
export async function saveIngestPosition(
  trx: Transaction<Database> | Kysely<Database>,
  source: string,
  position: unknown,
  nowMs: number,
): Promise<void> {
  const text = JSON.stringify(position);
  await trx
    .insertInto('ingest_position')
    .values({ source, position: text, updated_at_ms: nowMs })
    .onConflict((oc) => oc.column('source').doUpdateSet({ position: text, updated_at_ms: nowMs }))
    .execute();
}
