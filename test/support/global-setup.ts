// Runs once before the suite: finds which database servers are reachable and tells the workers
// through the environment. Under CI=true a missing server fails the run instead of skipping.
import pg from 'pg';
import { PG_ADMIN_URL } from './databases.js';

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
  const found = { postgres: await postgresUp() };
  const skipped: string[] = [];
  for (const [kind, up] of Object.entries(found)) {
    process.env[`BRANCHGATE_TEST_HAS_${kind.toUpperCase()}`] = up ? '1' : '0';
    if (!up) skipped.push(kind);
  }
  if (skipped.length > 0) {
    const what = skipped.join(' and ');
    if (ci) throw new Error(`CI=true but ${what} is not reachable: the suite must run against it`);
    process.stderr.write(
      `\n*** SKIPPED: ${what} not reachable (PostgreSQL at ${PG_ADMIN_URL}); ` +
        `tests against ${what} are skipped on this machine ***\n\n`,
    );
  }
}
