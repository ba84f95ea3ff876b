// Recomputes every stored record's identity with the cross-source rule of cdr/ingest/identity.ts,
// so a store filled by an earlier import is not duplicated by a live source bringing the same
// calls. Two rows that the old rule kept apart but the new one sees as one call (the same file
// imported once per layout) keep their old identity on the later row: both stay, as before.
import { sql } from 'kysely';
import { cdrIdentity } from '../../cdr/ingest/identity.js';
import type { StoreMigration } from './migration.js';

const PAGE = 2000;

interface Row {
  db_id: number;
  identity: string;
  uniqueid: string;
  start_ts: number;
  duration: number;
  billsec: number;
  src: string;
  dst: string;
  dcontext: string;
  clid: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  disposition: string;
}

/** Rewrites cdr.identity in db_id order. */
export const cdrIdentityMigration: StoreMigration = {
  name: '20261124-10-cdr-identity',
  async up(db) {
    const taken = new Set<string>();
    for (let after = 0; ; ) {
      const { rows } = await sql<Row>`
        SELECT db_id, identity, uniqueid, start_ts, duration, billsec, src, dst, dcontext, clid,
               channel, dstchannel, lastapp, lastdata, disposition
        FROM cdr WHERE db_id > ${after} ORDER BY db_id LIMIT ${PAGE}`.execute(db);
      if (rows.length === 0) return;
      for (const r of rows) {
        const next = cdrIdentity({
          ...r,
          start: Number(r.start_ts),
          duration: Number(r.duration),
          billsec: Number(r.billsec),
        });
        if (taken.has(next) || next === r.identity) {
          taken.add(r.identity);
          continue;
        }
        taken.add(next);
        await sql`UPDATE cdr SET identity = ${next} WHERE db_id = ${r.db_id}`.execute(db);
      }
      after = Number((rows[rows.length - 1] as Row).db_id);
    }
  },
};
