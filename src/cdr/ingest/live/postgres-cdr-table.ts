// CdrTableReader over PostgreSQL (pg), in a read-only session. calldate may be timestamp (wall
// clock, read in the source's tz) or timestamptz (an instant: the session runs in UTC, so its text
// is UTC).
import pg from 'pg';
import { CdrTableError } from './cdr-table-error.js';
import {
  CDR_TABLE_COLUMNS,
  type CdrTableReader,
  type PageQuery,
  quoteName,
  REQUIRED_TABLE_COLUMNS,
  type TableRow,
  type TableShape,
} from './cdr-table-reader.js';

interface ColumnInfo {
  name: string;
  data_type: string;
  column_default: string | null;
  is_identity: string;
}

/** Connects, checks the table, and returns its reader. */
export async function openPostgresCdrTable(url: string, table: string): Promise<CdrTableReader> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {
    // a dropped connection fails the next query, which the poller reports
  });
  await client.connect();
  try {
    await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
    await client.query("SET TIME ZONE 'UTC'");
    const [schemaPart, namePart] = table.includes('.') ? table.split('.') : [null, table];
    const found = await client.query<ColumnInfo>(
      `SELECT lower(column_name) AS name, data_type, column_default, is_identity
       FROM information_schema.columns
       WHERE table_schema = COALESCE($1, current_schema()) AND table_name = $2`,
      [schemaPart, namePart],
    );
    const shape = shapeOf(found.rows, table);
    const selected =
      shape.idColumn && !shape.columns.includes(shape.idColumn)
        ? [shape.idColumn, ...shape.columns]
        : shape.columns;
    const cols = selected.map((c) => `"${c}"`).join(', ');
    const end = shape.columns.includes('duration')
      ? 'calldate + make_interval(secs => COALESCE(duration, 0))'
      : 'calldate';
    const fmt = "'YYYY-MM-DD HH24:MI:SS'";
    const select = `SELECT ${cols}, to_char(calldate, ${fmt}) AS bg_calldate, to_char(${end}, ${fmt}) AS bg_end FROM ${quoteName(table, '"')}`;
    return {
      shape,
      async read(q: PageQuery): Promise<TableRow[]> {
        const where: string[] = ['calldate IS NOT NULL'];
        const args: unknown[] = [];
        if (q.from !== null) {
          args.push(q.from);
          where.push(`calldate >= $${args.length}`);
        }
        if (q.fromEnd !== null) {
          args.push(q.fromEnd);
          where.push(`${end} >= $${args.length}`);
        }
        args.push(q.limit);
        const rows = await client.query<Record<string, unknown>>(
          `${select} WHERE ${where.join(' AND ')} ORDER BY calldate LIMIT $${args.length}`,
          args,
        );
        return rows.rows.map((r) => {
          const { bg_calldate, bg_end, ...values } = r;
          return { values, calldate: String(bg_calldate), end: String(bg_end) };
        });
      },
      close: () => client.end(),
    };
  } catch (err) {
    await client.end().catch(() => {
      // the connection is already broken: nothing left to end
    });
    throw err;
  }
}

function shapeOf(found: ColumnInfo[], table: string): TableShape {
  if (found.length === 0) throw new CdrTableError('no_table', `table ${table} not found (or not readable)`);
  const names = new Set(found.map((r) => r.name));
  const missing = REQUIRED_TABLE_COLUMNS.filter((c) => !names.has(c));
  if (missing.length > 0)
    throw new CdrTableError('not_cdr_table', `table ${table} has no column ${missing.join(', ')}`);
  const id = found.find((r) => r.is_identity === 'YES' || /^nextval\(/.test(r.column_default ?? ''));
  const calldate = found.find((r) => r.name === 'calldate');
  return {
    columns: CDR_TABLE_COLUMNS.filter((c) => names.has(c)),
    idColumn: id ? id.name : null,
    calldateIsInstant: calldate?.data_type === 'timestamp with time zone',
  };
}
