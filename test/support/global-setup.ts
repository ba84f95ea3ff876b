// Runs once before the suite: finds which database servers are reachable and tells the workers
// through the environment. Under CI=true a missing server fails the run instead of skipping.
import { createConnection } from 'node:net';
import pg from 'pg';
import { PG_ADMIN_URL } from './databases.js';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host, port, timeout: 1500 });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

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

export default async function setup(): Promise<void> {
  const ci = process.env.CI === 'true';
  const found = { postgres: await postgresUp(), mariadb: await reachable('127.0.0.1', 3306) };
  const skipped: string[] = [];
  for (const [kind, up] of Object.entries(found)) {
    process.env[`BRANCHGATE_TEST_HAS_${kind.toUpperCase()}`] = up ? '1' : '0';
    if (!up) skipped.push(kind);
  }
  if (skipped.length > 0) {
    const what = skipped.join(' and ');
    if (ci) throw new Error(`CI=true but ${what} is not reachable: the suite must run against it`);
    process.stderr.write(
      `\n*** SKIPPED: ${what} not reachable (PostgreSQL 127.0.0.1:5432 / MariaDB 127.0.0.1:3306); ` +
        `tests against ${what} are skipped on this machine ***\n\n`,
    );
  }
}
