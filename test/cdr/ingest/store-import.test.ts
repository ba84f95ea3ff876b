import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { importCdrFile } from '../../../src/cdr/ingest/index.js';
import { countCdrRecords, insertCdrRecords, listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds } from '../../support/databases.js';

const MASTER_FULL = new URL('../../../../shared/corpora/cdr/asterisk-22/Master-full.csv', import.meta.url)
  .pathname;
const dir = mkdtempSync(join(tmpdir(), 'bg-cdr-store-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withStore(kind: 'sqlite' | 'postgres', fn: (store: Store) => Promise<void>): Promise<void> {
  const database = await createTestDatabase(kind);
  const store = await openStore({ db: database.url });
  try {
    await fn(store);
  } finally {
    await store.close();
    await database.drop();
  }
}

const into = (store: Store) => (records: Parameters<typeof insertCdrRecords>[1]) =>
  insertCdrRecords(store, records);

describe.each(storeKinds())('cdr import into %s', (kind) => {
  test('stores the capture once, in file order, however often it is imported', async () => {
    await withStore(kind, async (store) => {
      const first = await importCdrFile(MASTER_FULL, into(store), { batchSize: 10 });
      expect(first).toMatchObject({ read: 28, inserted: 28, duplicates: 0, bad: 0 });
      const second = await importCdrFile(MASTER_FULL, into(store), { batchSize: 10 });
      expect(second).toMatchObject({ read: 28, inserted: 0, duplicates: 28 });
      expect(await countCdrRecords(store)).toBe(28);
      const rows = await listCdrRecordsAfter(store, 0, 100);
      expect(rows.map((r) => r.sequence).slice(0, 3)).toEqual([13, 18, 1]);
      const cfu = rows.find((r) => r.sequence === 60);
      expect([cfu?.dst, cfu?.initial_destination, cfu?.computed_destination]).toEqual([
        '2020',
        '2020',
        '2011',
      ]);
    });
  });

  test('with strict and one bad line, leaves the store untouched', async () => {
    const lines = readFileSync(MASTER_FULL, 'utf8').trim().split('\n');
    lines[20] = (lines[20] as string).replace(
      '"ANSWERED","DOCUMENTATION","1795322892.71"',
      '"ANSWERED","DOCUMENTATION"',
    );
    const path = join(dir, `${kind}-bad.csv`);
    writeFileSync(path, lines.join('\n'));
    await withStore(kind, async (store) => {
      await expect(importCdrFile(path, into(store), { strict: true, batchSize: 5 })).rejects.toThrow(
        `${path}:21: has 20 fields`,
      );
      expect(await countCdrRecords(store)).toBe(0);
      const lenient = await importCdrFile(path, into(store), { batchSize: 5 });
      expect(lenient).toMatchObject({ read: 28, inserted: 27, bad: 1 });
      expect(await countCdrRecords(store)).toBe(27);
    });
  });
});
