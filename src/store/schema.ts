// The Kysely table types of the store: one interface per table, shared by SQLite and PostgreSQL.
// Booleans are integers (0/1) and times are integers (unix seconds or ms, as named) on both.
import type { Generated, Insertable, Selectable } from 'kysely';

/** Call detail records. db_id is dense (1..N) and assigned in commit order (see cdr/record-store.ts). */
export interface CdrTable {
  db_id: number;
  identity: string;
  uniqueid: string;
  linkedid: string;
  sequence: number | null;
  accountcode: string;
  clid: string;
  src: string;
  dst: string;
  dcontext: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  start_ts: number;
  answer_ts: number | null;
  end_ts: number;
  duration: number;
  billsec: number;
  disposition: string;
  amaflags: string;
  userfield: string;
  peeraccount: string;
  initial_destination: string;
  computed_destination: string;
  recording_url: string;
  created_at_ms: number;
}

/** Console users; `admin` is created on first start. */
export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  is_admin: number;
  created_at_ms: number;
}

/** Login sessions; id is the SHA-256 of the cookie token, so a database dump cannot be replayed. */
export interface SessionTable {
  id: string;
  user_id: number;
  created_at_ms: number;
  expires_at_ms: number;
}

/** PBX extensions that may pull CDRs; only the SHA-256 of the secret is kept. */
export interface ExtensionTable {
  number: string;
  name: string;
  key_sha256: string;
  cdr_access: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** Key/value settings; value is JSON text. */
export interface SettingTable {
  key: string;
  value: string;
  updated_at_ms: number;
}

/** One row per named write lock; taking the lock updates the row (see write-lock.ts). */
export interface WriteLockTable {
  name: string;
  taken: number;
}

/** CDR push delivery state: a single row (id 1); see cdr/push/push-state.ts. */
export interface CdrPushStateTable {
  id: number;
  acked_db_id: number | null;
  generation: number;
  failing_since_ms: number | null;
  last_success_ms: number | null;
  lease_owner: string | null;
  lease_expires_ms: number | null;
  /** The record whose last refusals are counted (the first db_id of the refused request). */
  poison_db_id: number | null;
  poison_status: number | null;
  poison_count: number;
}

/** Records set aside by the push's `park` policy, until resent. */
export interface CdrPushParkedTable {
  destination_id: number;
  db_id: number;
  parked_at_ms: number;
  status: number | null;
  error: string;
}

/** CDR push delivery log: one row per attempt (kind 'delivery' or 'test'). */
export interface CdrPushLogTable {
  id: Generated<number>;
  /** The destination the attempt was for (1: the seed's CDR API section). */
  destination_id: Generated<number>;
  at_ms: number;
  kind: string;
  first_db_id: number | null;
  last_db_id: number | null;
  records: number;
  status: number | null;
  latency_ms: number;
  error: string;
}

/** SMS messages, sent and received (see sms/message-store.ts); id never reused. */
export interface SmsMessageTable {
  id: Generated<number>;
  type: string;
  number: string;
  message: string;
  encoding: string;
  parts: number;
  status: string;
  error: string | null;
  incomplete: number;
  message_ms: number;
  created_ms: number;
  parts_sent: number;
  attempts: number;
  next_attempt_ms: number | null;
  reference: number | null;
  /** A sent message's destination as typed (number holds what was sent); null on older rows. */
  number_typed: string | null;
}

/** The modem's message reference of each sent part, and its delivery report. */
export interface SmsSentPartTable {
  message_id: number;
  sequence: number;
  mr: number;
  report: string | null;
  sent_ms: number;
}

/** Received parts of multipart messages still waiting for the rest. */
export interface SmsInboxPartTable {
  id: Generated<number>;
  group_key: string;
  group_id: string;
  sender: string;
  total: number;
  sequence: number;
  encoding: string;
  text: string;
  message_ms: number;
  stored_ms: number;
}

/** PDUs already taken from the modem, by SHA-256 of their hex. */
export interface SmsInboxSeenTable {
  pdu_sha256: string;
  seen_ms: number;
}

/** API tokens (see auth/tokens.ts); token_sha256 is the SHA-256 of the bearer token. */
export interface ApiTokenTable {
  id: Generated<number>;
  name: string;
  token_sha256: string;
  prefix: string;
  scopes: string;
  created_at_ms: number;
  last_used_ms: number | null;
  revoked_at_ms: number | null;
}

/** How far a live CDR source has read (see cdr/ingest/live/ingest-position.ts); position is JSON. */
export interface IngestPositionTable {
  source: string;
  position: string;
  updated_at_ms: number;
}

/** Live CDR sources added at run time (see cdr/ingest/live/stored-sources.ts). */
export interface IngestSourceTable {
  id: string;
  kind: string;
  spec: string;
  created_at_ms: number;
}

/** The whole database as Kysely sees it. Areas add their tables here with their migrations. */
/** The event log webhooks deliver from (see webhooks/events.ts). */
export interface EventTable {
  id: Generated<number>;
  type: string;
  payload: string;
  created_ms: number;
}

/** Webhooks and their delivery state (see webhooks/webhook-store.ts). */
export interface WebhookTable {
  id: Generated<number>;
  url: string;
  events: string;
  secret: string | null;
  previous_secret: string | null;
  created_ms: number;
  cursor: number;
  attempts: Generated<number>;
  next_attempt_ms: number | null;
  failing_since_ms: number | null;
  last_error: string | null;
}

/** One delivery attempt of a webhook. */
export interface WebhookAttemptTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: number;
  at_ms: number;
  status: number | null;
  latency_ms: number;
  error: string;
}

export interface Database {
  cdr: CdrTable;
  users: UserTable;
  sessions: SessionTable;
  extensions: ExtensionTable;
  settings: SettingTable;
  write_locks: WriteLockTable;
  cdr_push_state: CdrPushStateTable;
  cdr_push_log: CdrPushLogTable;
  cdr_push_parked: CdrPushParkedTable;
  sms_message: SmsMessageTable;
  sms_sent_part: SmsSentPartTable;
  sms_inbox_part: SmsInboxPartTable;
  sms_inbox_seen: SmsInboxSeenTable;
  api_tokens: ApiTokenTable;
  ingest_sources: IngestSourceTable;
  ingest_position: IngestPositionTable;
  events: EventTable;
  webhooks: WebhookTable;
  webhook_attempts: WebhookAttemptTable;
}

export type CdrRow = Selectable<CdrTable>;
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type ExtensionRow = Selectable<ExtensionTable>;
export type ApiTokenRow = Selectable<ApiTokenTable>;
