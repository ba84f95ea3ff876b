// The Master.csv follower in process, driven poll by poll (no timers, no fs.watch): partial lines,
// rename and copytruncate rotation while running and while stopped, restarts, malformed lines.
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { CsvFollower } from '../../../src/cdr/ingest/live/csv-follower.js';
import { parseCsvSourceSpec } from '../../../src/cdr/ingest/live/csv-source-spec.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import type { Store } from '../../../src/store/index.js';
import { openTestStore, PG_ADMIN_URL, storeKinds } from '../../support/databases.js';
import { MASTER_LINES } from './support/capture.js';

const LINES = MASTER_LINES;
const dir = mkdtempSync(join(tmpdir(), 'bg-csv-follow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noTimers = { setTimeout: () => 0, clearTimeout: () => {} };
let n = 0;

/** A fresh directory with an empty-or-absent Master.csv; `follower()` makes one on the store. */
function setup(store: Store) {
  const d = join(dir, `case-${++n}`);
  const path = join(d, 'Master.csv');
  mkdirSync(d, { recursive: true });
  const follower = () =>
    new CsvFollower({ spec: parseCsvSourceSpec(path), store, watch: false, timers: noTimers });
  return { d, path, follower };
}

/** What every line should become: uniqueid, start and dst as stored. */
function expected(lines: readonly string[]): string[] {
  return lines
    .map((l) => {
      const f = (parse(l) as string[][])[0] as string[];
      return `${f[16]}|${Date.parse(`${(f[9] as string).replace(' ', 'T')}Z`) / 1000}|${f[2]}|${f[14]}`;
    })
    .sort();
}

async function stored(store: Store): Promise<string[]> {
  const rows = await listCdrRecordsAfter(store, 0, 10_000);
  return rows.map((r) => `${r.uniqueid}|${r.start_ts}|${r.dst}|${r.disposition}`).sort();
}

describe.each(storeKinds())('Master.csv follower on %s', (kind) => {
  test('waits for the end of a half-written line, then stores it once', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      const f = follower();
      await f.pollNow();
      expect(f.status().state).toBe('file_missing');
      const line = `${LINES[0]}\n`;
      writeFileSync(path, line.slice(0, 40));
      await f.pollNow();
      expect(await stored(t.store)).toEqual([]);
      appendFileSync(path, line.slice(40));
      await f.pollNow();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 1)));
      expect(f.status()).toMatchObject({ state: 'following', recordsStored: 1, duplicates: 0, rejected: 0 });
      await f.stop();
    } finally {
      await t.close();
    }
  });

  test('follows rename and copytruncate rotation while running, with a late write to the renamed file', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      const f = follower();
      writeFileSync(path, `${LINES.slice(0, 5).join('\n')}\n`);
      await f.pollNow();
      // rename rotation; Asterisk still finishes one line into the renamed file
      appendFileSync(path, `${LINES[5]}\n`);
      renameSync(path, `${path}.1`);
      appendFileSync(`${path}.1`, `${LINES[6]}\n`);
      writeFileSync(path, `${LINES.slice(7, 10).join('\n')}\n`);
      await f.pollNow();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 10)));
      // copytruncate: lines not yet read are only in the copy
      appendFileSync(path, `${LINES.slice(10, 13).join('\n')}\n`);
      copyFileSync(path, `${path}.2`);
      truncateSync(path, 0);
      appendFileSync(path, `${LINES.slice(13, 15).join('\n')}\n`);
      await f.pollNow();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 15)));
      expect(f.status()).toMatchObject({ recordsStored: 15, duplicates: 0, rejected: 0, lastError: null });
      await f.stop();
    } finally {
      await t.close();
    }
  });

  test('resumes after a restart, across rotations of both kinds that happened while it was stopped', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      let f = follower();
      writeFileSync(path, `${LINES.slice(0, 4).join('\n')}\n${(LINES[4] as string).slice(0, 30)}`);
      await f.pollNow();
      await f.stop();
      // stopped: the half line is finished, more lines, rename rotation, a new file, more lines
      appendFileSync(path, `${(LINES[4] as string).slice(30)}\n${LINES.slice(5, 8).join('\n')}\n`);
      renameSync(path, `${path}.1`);
      writeFileSync(path, `${LINES.slice(8, 12).join('\n')}\n`);
      f = follower();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 12)));
      await f.stop();
      // stopped again: lines, copytruncate, lines; then a restart
      appendFileSync(path, `${LINES.slice(12, 16).join('\n')}\n`);
      copyFileSync(path, `${path}-20261124`);
      truncateSync(path, 0);
      appendFileSync(path, `${LINES.slice(16).join('\n')}\n`);
      f = follower();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES));
      expect(f.status()).toMatchObject({ recordsStored: 28 - 12, duplicates: 0, rejected: 0 });
      // and a restart with nothing new stores nothing
      await f.stop();
      f = follower();
      await f.pollNow();
      expect(f.status()).toMatchObject({ recordsStored: 0, duplicates: 0 });
      await f.stop();
    } finally {
      await t.close();
    }
  });

  test('reads every file rotated while it was stopped, oldest first', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      let f = follower();
      writeFileSync(path, `${LINES.slice(0, 3).join('\n')}\n`);
      await f.pollNow();
      await f.stop();
      // two rename rotations (logrotate numbering: .1 becomes .2) and a third file, all while stopped
      appendFileSync(path, `${LINES.slice(3, 5).join('\n')}\n`);
      utimesSync(path, 1_800_000_000, 1_800_000_000);
      renameSync(path, `${path}.1`);
      writeFileSync(path, `${LINES.slice(5, 9).join('\n')}\n`);
      utimesSync(path, 1_800_000_100, 1_800_000_100);
      renameSync(`${path}.1`, `${path}.2`);
      renameSync(path, `${path}.1`);
      writeFileSync(path, `${LINES.slice(9, 12).join('\n')}\n`);
      f = follower();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 12)));
      expect(f.status()).toMatchObject({ recordsStored: 9, duplicates: 0, lastError: null });
      await f.stop();
    } finally {
      await t.close();
    }
  });

  test('says so when the file it was reading is gone, then reads the new one', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      let f = follower();
      writeFileSync(path, `${LINES.slice(0, 3).join('\n')}\n`);
      await f.pollNow();
      await f.stop();
      rmSync(path);
      writeFileSync(path, `${LINES.slice(3, 5).join('\n')}\n`);
      f = follower();
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 5)));
      expect(f.status().lastError?.message).toMatch(
        /was replaced and the file read before \(inode \d+, read to byte \d+\) is not next to it any more: lines written to it after that may be missing$/,
      );
      await f.stop();
    } finally {
      await t.close();
    }
  });

  test('reports a line with a wrong column count or a bad date with file:line and goes on', async () => {
    const t = await openTestStore(kind);
    try {
      const { path, follower } = setup(t.store);
      const f = follower();
      const badCount = (LINES[1] as string).replace(',"DOCUMENTATION",', ',');
      const badDate = (LINES[2] as string).replace('2026-11-22 04:47:38', '2026-13-22 04:47:38');
      writeFileSync(path, `${LINES[0]}\n${badCount}\n${badDate}\n${LINES[3]}\n`);
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected([LINES[0] as string, LINES[3] as string]));
      const s = f.status();
      expect(s).toMatchObject({ state: 'following', recordsStored: 2, rejected: 2 });
      expect(s.lastError?.message).toBe(
        `${path}:3: skipped: field start: "2026-13-22 04:47:38" is not a time`,
      );
      appendFileSync(path, `${LINES[4]}\n`);
      await f.pollNow();
      expect(f.status().recordsStored).toBe(3);
      await f.stop();
    } finally {
      await t.close();
    }
  });
});

describe.runIf(storeKinds().includes('postgres'))('Master.csv follower when the store goes away', () => {
  test('says store_unavailable, keeps its place, and stores the lines once the store is back', async () => {
    const t = await openTestStore('postgres');
    const name = new URL(t.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      const { path, follower } = setup(t.store);
      const f = follower();
      writeFileSync(path, `${LINES.slice(0, 3).join('\n')}\n`);
      await f.pollNow();
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      appendFileSync(path, `${LINES.slice(3, 6).join('\n')}\n`);
      await f.pollNow();
      expect(f.status().state).toBe('store_unavailable');
      expect(f.status().lastError?.message).toMatch(/^store unavailable: /);
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await f.pollNow();
      expect(await stored(t.store)).toEqual(expected(LINES.slice(0, 6)));
      expect(f.status()).toMatchObject({ state: 'following', recordsStored: 6, duplicates: 0 });
      await f.stop();
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.end();
      await t.close();
    }
  });
});
