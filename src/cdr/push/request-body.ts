// Builds one push request from the settings and the records it carries: the body (a bare record,
// or {"data":[...]} in batch mode) with only the selected fields, and the headers (Idempotency-Key
// of the first record, User-Agent, x-api-key, Bearer or Basic). Pure.

import { webhookHeaders } from '../../shared/standard-webhooks.js';
import { VERSION } from '../../shared/version.js';
import { CDR_WIRE_FIELDS, type CdrWireRecord } from '../record.js';
import type { CdrPushSettings } from './settings.js';

/** A request ready to send. */
export interface PushRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The User-Agent every push request carries. */
export const USER_AGENT = `branchgate/${VERSION}`;

/** The record with only the selected fields, in the record's own field order. */
export function pickFields(
  record: CdrWireRecord,
  fields: readonly string[],
): Record<string, string | number> {
  if (fields.length === CDR_WIRE_FIELDS.length) return record;
  const out: Record<string, string | number> = {};
  const all = record as Record<string, string | number>;
  for (const f of fields) out[f] = all[f] as string | number;
  return out;
}

/** The authentication and identification headers of the settings (no Idempotency-Key). */
export function baseHeaders(s: CdrPushSettings): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (s.api_key !== '') h['x-api-key'] = s.api_key;
  if (s.bearer_token !== '') h.authorization = `Bearer ${s.bearer_token}`;
  else if (s.username !== '') {
    h.authorization = `Basic ${Buffer.from(`${s.username}:${s.password}`, 'latin1').toString('base64')}`;
  }
  return h;
}

/**
 * The request carrying these records (at least one). With batch_size 1 the body is the record
 * itself; otherwise `{"data":[...]}`. `idempotencyKey` overrides cdr-<first db_id> (test records).
 */
export function buildPushRequest(
  s: CdrPushSettings,
  records: readonly CdrWireRecord[],
  idempotencyKey?: string,
  nowMs: number = Date.now(),
): PushRequest {
  const first = records[0];
  if (first === undefined) throw new RangeError('buildPushRequest: no records');
  const picked = records.map((r) => pickFields(r, s.fields));
  const body = JSON.stringify(s.batch_size === 1 && picked.length === 1 ? picked[0] : { data: picked });
  const headers = baseHeaders(s);
  const id = idempotencyKey ?? `cdr-${first.db_id}`;
  headers['idempotency-key'] = id;
  if (s.signing_secret !== '') {
    // Standard Webhooks: webhook-id is the Idempotency-Key, the same on every retry of the record
    // (or batch), so receivers de-duplicate on either; both secrets sign during a rotation.
    const secrets = [s.signing_secret, s.previous_signing_secret].filter((x) => x !== '');
    Object.assign(headers, webhookHeaders(secrets, id, Math.floor(nowMs / 1000), body));
  }
  return { method: s.method, url: s.url, headers, body };
}
