// Runs once before the suite: finds which database servers are reachable, and whether Debian's
// chromium is installed for the browser tests, and tells the workers through the environment.
// Under CI=true a missing server or browser fails the run instead of skipping.
import { accessSync, constants } from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { MARIADB_ADMIN_URL, PG_ADMIN_URL } from './databases.js';

async function postgresUp(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

async function mariadbUp(): Promise<boolean> {
  try {
    const c = await mysql.createConnection({ uri: MARIADB_ADMIN_URL, connectTimeout: 2000 });
    try {
      await c.query('SELECT 1');
      return true;
    } finally {
      await c.end().catch(() => {});
    }
  } catch {
    return false;
  }
}

/** Where the browser tests (test/web) expect Debian's chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

function chromiumInstalled(): boolean {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export default async function setup(): Promise<void> {
  const ci = process.env.CI === 'true';
  const found = { postgres: await postgresUp(), mariadb: await mariadbUp() };
  const skipped: string[] = [];
  for (const [kind, up] of Object.entries(found)) {
    process.env[`BRANCHGATE_TEST_HAS_${kind.toUpperCase()}`] = up ? '1' : '0';
    if (!up) skipped.push(kind);
  }
  if (skipped.length > 0) {
    const what = skipped.join(' and ');
    if (ci) throw new Error(`CI=true but ${what} is not reachable: the suite must run against it`);
    process.stderr.write(
      `\n*** SKIPPED: ${what} not reachable (PostgreSQL at ${PG_ADMIN_URL}, MariaDB at ${MARIADB_ADMIN_URL}); ` +
        `tests against ${what} are skipped on this machine ***\n\n`,
    );
  }
  const chromium = chromiumInstalled();
  process.env.BRANCHGATE_TEST_HAS_CHROMIUM = chromium ? '1' : '0';
  if (!chromium) {
    if (ci)
      throw new Error(
        `CI=true but chromium is not installed at ${CHROMIUM_PATH}: the browser tests must run`,
      );
    process.stderr.write(
      `\n*** SKIPPED: chromium not installed at ${CHROMIUM_PATH} (apt-get install chromium); ` +
        `the admin console browser tests (test/web) are skipped on this machine ***\n\n`,
    );
  }
}
