import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cdrIdentity } from '../../src/cdr/ingest/identity.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { openStore, type Store } from '../../src/store/index.js';
import { cdrIdentityMigration } from '../../src/store/migrations/20261124-10-cdr-identity.js';
import { fixtureRecord } from '../support/cdr-fixtures.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';

describe.each(storeKinds())('the cross-source identity migration on %s', (kind) => {
  let tdb: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
    store = await openStore({ db: tdb.url });
  });
  afterEach(async () => {
    await store.close();
    await tdb.drop();
  });

  test('rewrites identities written by the old rule, keeping a second copy of one call apart', async () => {
    // As an earlier release stored them: the triple, and a hash of the raw row.
    const a = fixtureRecord(1, { identity: '1795322865.1|1795322865.1|1' });
    const b = fixtureRecord(2, { identity: '1795322872:sha256:00ff' });
    // The same call as `a`, imported once more through another layout (old rule: another key).
    const aAgain = fixtureRecord(1, { identity: '1795322865:sha256:abcd', linkedid: '', sequence: null });
    await insertCdrRecords(store, [a, b, aAgain]);
    // The migration's step, run again over rows as an earlier release wrote them.
    await cdrIdentityMigration.up(store.db as unknown as Kysely<Record<string, never>>, store.kind);

    const rows = await store.db.selectFrom('cdr').select(['db_id', 'identity']).orderBy('db_id').execute();
    expect(rows).toEqual([
      { db_id: 1, identity: cdrIdentity(a) },
      { db_id: 2, identity: cdrIdentity(b) },
      { db_id: 3, identity: '1795322865:sha256:abcd' },
    ]);
    // A live source bringing call `a` again now finds it stored.
    const again = await insertCdrRecords(store, [{ ...a, identity: cdrIdentity(a) }]);
    expect(again.inserted).toBe(0);
  });
});
