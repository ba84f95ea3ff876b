// Runs the independent PDU oracle (../shared/tools/pdu-oracle.py, Debian python3-gammu) over a
// batch of hex PDUs in one process and returns its JSON answers, one per PDU, in order.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the oracle script lives: next to the repository, in the shared tools. */
export const oraclePath = path.resolve(repoRoot, '../shared/tools/pdu-oracle.py');

/** A timestamp as the oracle computes it from the raw octets. */
export interface OracleTimestamp {
  local: string;
  tz_offset_minutes: number;
}

/** The fields of one oracle answer that the tests compare. */
export interface OracleAnswer {
  pdu: string;
  error?: string;
  type?: string;
  smsc?: string | null;
  number?: string;
  text?: string | null;
  text_cut_at_nul?: boolean;
  coding?: string;
  message_reference?: number;
  validity?: string;
  udh?: { ref8: number; ref16: number; part: number; total: number; raw: string | null };
  raw?: {
    scts?: OracleTimestamp | null;
    discharge_time?: OracleTimestamp | null;
    raw_status?: number;
    vp_raw?: number;
    vp_absolute?: OracleTimestamp | null;
  };
}

/** Decodes every PDU (with SMSC prefix) through gammu; throws when the oracle itself fails. */
export function runOracle(pdus: readonly string[]): OracleAnswer[] {
  const result = spawnSync('/usr/bin/python3', [oraclePath], {
    input: `${pdus.join('\n')}\n`,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`pdu-oracle exited ${result.status}: ${result.stderr}`);
  const answers = result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OracleAnswer);
  if (answers.length !== pdus.length)
    throw new Error(`pdu-oracle answered ${answers.length} of ${pdus.length}`);
  return answers;
}
