// Which databases the suite runs against, and throwaway databases for one test file.
// SQLite always; PostgreSQL when reachable; MariaDB (an existing CDR table the poller reads) when
// reachable. Under CI=true
// a missing server is a failure (global-setup throws), elsewhere the suite says what it skipped.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/index.js';

/** Base URL of the PostgreSQL server the tests use. */
export const PG_ADMIN_URL = process.env.BRANCHGATE_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Base URL of the MariaDB server the CDR table tests use (root, no password). */
export const MARIADB_ADMIN_URL = process.env.BRANCHGATE_TEST_MARIADB ?? 'mysql://root@127.0.0.1:3306/test';

/** Whether the probe in global-setup found each server (set through env, read by every worker). */
export function available(kind: 'postgres' | 'mariadb'): boolean {
  return process.env[`BRANCHGATE_TEST_HAS_${kind.toUpperCase()}`] === '1';
}

/** The store kinds a store-touching suite runs against on this machine. */
export function storeKinds(): Array<'sqlite' | 'postgres'> {
  return available('postgres') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A fresh, empty database of the given kind; `drop()` removes it. */
export interface TestDatabase {
  /** The --db value: a SQLite file path or a postgres:// URL. */
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a fresh database: a temp SQLite file, or a new PostgreSQL database on the server of
 * `adminUrl` (default: the test server). Benchmarks use it too.
 */
export async function createTestDatabase(
  kind: 'sqlite' | 'postgres',
  adminUrl: string = PG_ADMIN_URL,
): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bg-test-'));
    return {
      url: join(dir, 'branchgate.db'),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `bg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A migrated store on a fresh test database; close() closes it and drops the database. */
export interface TestStore {
  store: Store;
  /** The --db value, to open the same database again (a second instance, the CLI). */
  url: string;
  close(): Promise<void>;
}

/** Opens a migrated store on a fresh database of the given kind. */
export async function openTestStore(kind: 'sqlite' | 'postgres'): Promise<TestStore> {
  const tdb = await createTestDatabase(kind);
  const store = await openStore({ db: tdb.url });
  return {
    store,
    url: tdb.url,
    close: async () => {
      await store.close();
      await tdb.drop();
    },
  };
}

/**
 * A fresh MariaDB database (an Asterisk CDR database to read from); `drop()` removes it. Tests
 * that need it skip with a message when available('mariadb') is false (a failure under CI=true).
 */
export async function createMariaDatabase(adminUrl: string = MARIADB_ADMIN_URL): Promise<TestDatabase> {
  const name = `bg_test_${randomBytes(6).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: adminUrl });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = await mysql.createConnection({ uri: adminUrl });
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await c.end();
      }
    },
  };
}
