// CdrTableReader over MariaDB/MySQL (mysql2), in a read-only session; FreePBX keeps its CDRs in
// asteriskcdrdb.cdr. Dates come back as text (dateStrings), never through a JavaScript Date.
import mysql from 'mysql2/promise';
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

/** Connects, checks the table, and returns its reader. */
export async function openMysqlCdrTable(url: string, table: string): Promise<CdrTableReader> {
  const conn = await mysql.createConnection({ uri: url, dateStrings: true, connectTimeout: 5000 });
  try {
    await conn.query('SET SESSION TRANSACTION READ ONLY');
    const [schemaPart, namePart] = table.includes('.') ? table.split('.') : [null, table];
    const [found] = await conn.query<mysql.RowDataPacket[]>(
      `SELECT LOWER(column_name) AS name, extra FROM information_schema.columns
       WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?`,
      [schemaPart, namePart],
    );
    const shape = shapeOf(found, table);
    const selected =
      shape.idColumn && !shape.columns.includes(shape.idColumn)
        ? [shape.idColumn, ...shape.columns]
        : shape.columns;
    const cols = selected.map((c) => `\`${c}\``).join(', ');
    const end = shape.columns.includes('duration')
      ? 'calldate + INTERVAL COALESCE(duration, 0) SECOND'
      : 'calldate';
    const from = quoteName(table, '`');
    const fmt = "'%Y-%m-%d %H:%i:%s'";
    const select = `SELECT ${cols}, DATE_FORMAT(calldate, ${fmt}) AS bg_calldate, DATE_FORMAT(${end}, ${fmt}) AS bg_end FROM ${from}`;
    return {
      shape,
      async read(q: PageQuery): Promise<TableRow[]> {
        const where: string[] = ['calldate IS NOT NULL'];
        const args: unknown[] = [];
        if (q.from !== null) {
          where.push('calldate >= ?');
          args.push(q.from);
        }
        if (q.fromEnd !== null) {
          where.push(`${end} >= ?`);
          args.push(q.fromEnd);
        }
        args.push(q.limit);
        const [rows] = await conn.query<mysql.RowDataPacket[]>(
          `${select} WHERE ${where.join(' AND ')} ORDER BY calldate LIMIT ?`,
          args,
        );
        return rows.map((r) => {
          const { bg_calldate, bg_end, ...values } = r;
          return { values, calldate: String(bg_calldate), end: String(bg_end) };
        });
      },
      close: () => conn.end(),
    };
  } catch (err) {
    await conn.end().catch(() => {
      // the connection is already broken: nothing left to end
    });
    throw err;
  }
}

function shapeOf(found: mysql.RowDataPacket[], table: string): TableShape {
  const names = new Set(found.map((r) => String(r.name)));
  const missing = REQUIRED_TABLE_COLUMNS.filter((c) => !names.has(c));
  if (found.length === 0) throw new CdrTableError('no_table', `table ${table} not found (or not readable)`);
  if (missing.length > 0)
    throw new CdrTableError('not_cdr_table', `table ${table} has no column ${missing.join(', ')}`);
  const id = found.find((r) => /auto_increment/i.test(String(r.extra ?? '')));
  return {
    columns: CDR_TABLE_COLUMNS.filter((c) => names.has(c)),
    idColumn: id ? String(id.name) : null,
    calldateIsInstant: false,
  };
}
