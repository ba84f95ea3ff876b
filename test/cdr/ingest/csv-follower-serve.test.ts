// `branchgate serve --ingest-csv` as a real child process: a Master.csv appended in pieces (half a
// line, then the rest), rotated by rename and by copytruncate, the server killed with SIGKILL and
// restarted in between; in the end every line of the capture is stored exactly once.
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, test } from 'vitest';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds } from '../../support/databases.js';
import { type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { MASTER_LINES } from './support/capture.js';

const dir = mkdtempSync(join(tmpdir(), 'bg-csv-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = (uniqueid: string, start: number, dst: string) => `${uniqueid}|${start}|${dst}`;
const want = (lines: readonly string[]) =>
  lines
    .map((l) => {
      const f = (parse(l) as string[][])[0] as string[];
      return key(
        f[16] as string,
        Date.parse(`${(f[9] as string).replace(' ', 'T')}Z`) / 1000,
        f[2] as string,
      );
    })
    .sort();

async function stored(store: Store): Promise<string[]> {
  return (await listCdrRecordsAfter(store, 0, 10_000)).map((r) => key(r.uniqueid, r.start_ts, r.dst)).sort();
}

/** Waits (polling the store) until exactly `lines` are stored; fails with what is stored after 20 s. */
async function untilStored(store: Store, lines: readonly string[]): Promise<void> {
  const expected = want(lines);
  let got: string[] = [];
  for (let i = 0; i < 400; i++) {
    got = await stored(store);
    if (got.length >= expected.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(got).toEqual(expected);
}

describe.each(storeKinds())('serve --ingest-csv on %s', (kind) => {
  test('one record per line across half lines, rotations both ways and SIGKILL restarts', async () => {
    const database = await createTestDatabase(kind);
    const dataDir = mkdtempSync(join(dir, `${kind}-data-`));
    const logDir = mkdtempSync(join(dir, `${kind}-cdr-csv-`));
    const path = join(logDir, 'Master.csv');
    const args = [
      '--data-dir',
      dataDir,
      '--db',
      database.url,
      '--listen',
      '127.0.0.1:0',
      '--ingest-csv',
      path,
    ];
    const env = { BRANCHGATE_ADMIN_PASSWORD: 'correct horse battery' };
    const L = MASTER_LINES;
    let server: ServeProcess | undefined;
    const store = await openStore({ db: database.url });
    try {
      server = await spawnServe(args, { env });
      // half a line, then the rest
      writeFileSync(path, `${L[0]}\n${(L[1] as string).slice(0, 50)}`);
      await untilStored(store, L.slice(0, 1));
      appendFileSync(path, `${(L[1] as string).slice(50)}\n${L.slice(2, 5).join('\n')}\n`);
      await untilStored(store, L.slice(0, 5));

      // SIGKILL right after lines are appended, then rename rotation while it is down
      appendFileSync(path, `${L.slice(5, 8).join('\n')}\n`);
      await server.stop('SIGKILL');
      appendFileSync(path, `${L[8]}\n`);
      renameSync(path, `${path}.1`);
      writeFileSync(path, `${L.slice(9, 11).join('\n')}\n${(L[11] as string).slice(0, 20)}`);
      server = await spawnServe(args, { env });
      await untilStored(store, L.slice(0, 11));
      appendFileSync(path, `${(L[11] as string).slice(20)}\n`);
      await untilStored(store, L.slice(0, 12));

      // copytruncate while running
      appendFileSync(path, `${L.slice(12, 15).join('\n')}\n`);
      copyFileSync(path, `${path}.2`);
      truncateSync(path, 0);
      appendFileSync(path, `${L.slice(15, 17).join('\n')}\n`);
      await untilStored(store, L.slice(0, 17));

      // SIGKILL, then copytruncate while it is down, then rename rotation while running
      await server.stop('SIGKILL');
      appendFileSync(path, `${L.slice(17, 20).join('\n')}\n`);
      copyFileSync(path, `${path}-20261124`);
      truncateSync(path, 0);
      appendFileSync(path, `${L.slice(20, 23).join('\n')}\n`);
      server = await spawnServe(args, { env });
      await untilStored(store, L.slice(0, 23));
      renameSync(path, `${path}.3`);
      writeFileSync(path, `${L.slice(23).join('\n')}\n`);
      await untilStored(store, L);

      // one more restart reads nothing twice
      await server.stop('SIGKILL');
      server = await spawnServe(args, { env });
      appendFileSync(path, '\n');
      await new Promise((r) => setTimeout(r, 500));
      expect(await stored(store)).toEqual(want(L));
    } finally {
      await server?.stop('SIGKILL');
      await store.close();
      await database.drop();
    }
  }, 120_000);
});
