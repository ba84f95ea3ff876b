// PostgreSQL dialect: a pg Pool whose int8 values come back as numbers (our ids and times stay far
// below 2^53), set per pool so other pg users in the process are unaffected.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

const INT8_OID = 20;

/** Opens a pool to a postgres:// URL. */
export function openPostgres(url: string, maxConnections = 10): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text'),
    } as pg.CustomTypesConfig,
  });
  // An idle pooled connection can be cut by the server (restart, DROP DATABASE ... FORCE); the pool
  // replaces it on next use, so the error is not fatal to the process.
  pool.on('error', (err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
