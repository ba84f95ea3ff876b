// A named write lock that holds across processes and instances for the length of a transaction:
// the first statement updates the lock's row, so on PostgreSQL the row lock and on SQLite the
// database write lock serialise every writer that takes the same name until commit. CDR inserts
// use it so db_id is dense and visible in commit order.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { Store } from './store.js';

/** Runs fn in a transaction holding the named lock; the lock is released at commit or rollback. */
export async function withWriteLock<T>(
  store: Store | { db: Kysely<Database> },
  name: string,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('write_locks')
      .values({ name, taken: 1 })
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ taken: eb('write_locks.taken', '+', 1) })))
      .execute();
    return fn(trx);
  });
}
