// CDR push settings (DESIGN.md section 6): the stored shape, its defaults, the public view with
// secrets reduced to "is it set", and applyPatch(), the one validator used by REST and CLI alike.
// Pure: no I/O. Every error message starts with the field it is about.

import { generateSecret, secretKey } from '../../shared/standard-webhooks.js';
import { CDR_WIRE_FIELDS, type CdrWireField } from '../record.js';
import { CdrPushError } from './push-error.js';

/** Request methods the job may use. */
export type PushMethod = 'POST' | 'PUT';

/** The stored settings, secrets included ('' = not set). */
export interface CdrPushSettings {
  /** What the operator calls the destination ("CRM", "billing"); '' for none. */
  name: string;
  enabled: boolean;
  url: string;
  method: PushMethod;
  api_key: string;
  bearer_token: string;
  username: string;
  password: string;
  fields: CdrWireField[];
  interval_seconds: number;
  /** 1: one record per request, sent as a bare object; more: `{"data":[...]}` of up to this many. */
  batch_size: number;
  /** Applies to the first enable only: start from db_id 1 instead of after the newest record. */
  send_history: boolean;
  /** Seconds of failing without a success after which push:failing is raised (0: never). */
  alert_after_seconds: number;
  /** Standard Webhooks secret (whsec_...) deliveries are signed with; '' = unsigned. */
  signing_secret: string;
  /** During a rotation, the previous secret, which signs too; ''. */
  previous_signing_secret: string;
  /**
   * A record refused with the same 4xx poison_after times in a row: `hold` keeps retrying it (and
   * everything behind it waits), `park` sets it aside (listed, resendable) and goes on.
   */
  poison_policy: PoisonPolicy;
  poison_after: number;
}

/** What the job does with a record refused with the same 4xx again and again. */
export type PoisonPolicy = 'hold' | 'park';

/** What GET answers: secrets are never shown, only whether each is set. */
export interface CdrPushSettingsView {
  name: string;
  enabled: boolean;
  url: string;
  method: PushMethod;
  api_key_set: boolean;
  bearer_token_set: boolean;
  username: string;
  password_set: boolean;
  fields: CdrWireField[];
  interval_seconds: number;
  batch_size: number;
  send_history: boolean;
  alert_after_seconds: number;
  signing_secret_set: boolean;
  /** A previous secret still signs (a rotation is under way). */
  signing_rotating: boolean;
  poison_policy: PoisonPolicy;
  poison_after: number;
}

/** The largest batch_size accepted. */
export const MAX_BATCH_SIZE = 1000;
/** The longest interval accepted (one day). */
export const MAX_INTERVAL_SECONDS = 86_400;
/** Names of the secret settings (write-only). */
export const SECRET_SETTINGS = [
  'api_key',
  'bearer_token',
  'password',
  'signing_secret',
  'previous_signing_secret',
] as const;

/** The settings before anything was saved: disabled, POST, every field, 60 s, one per request. */
export const DEFAULT_CDR_PUSH_SETTINGS: Readonly<CdrPushSettings> = Object.freeze({
  name: '',
  enabled: false,
  url: '',
  method: 'POST',
  api_key: '',
  bearer_token: '',
  username: '',
  password: '',
  fields: [...CDR_WIRE_FIELDS],
  interval_seconds: 60,
  batch_size: 1,
  send_history: false,
  alert_after_seconds: 600,
  signing_secret: '',
  previous_signing_secret: '',
  poison_policy: 'hold',
  poison_after: 3,
});

/** The most refusals poison_after may ask for. */
export const MAX_POISON_AFTER = 100;

// Patch-only keys: they act on the settings but are not stored themselves.
const ACTIONS = new Set(['end_signing_rotation']);

const KNOWN = new Set<string>(Object.keys(DEFAULT_CDR_PUSH_SETTINGS));

/** The settings with secrets replaced by whether they are set. */
export function settingsView(s: CdrPushSettings): CdrPushSettingsView {
  return {
    name: s.name,
    enabled: s.enabled,
    url: s.url,
    method: s.method,
    api_key_set: s.api_key !== '',
    bearer_token_set: s.bearer_token !== '',
    username: s.username,
    password_set: s.password !== '',
    fields: [...s.fields],
    interval_seconds: s.interval_seconds,
    batch_size: s.batch_size,
    send_history: s.send_history,
    alert_after_seconds: s.alert_after_seconds,
    signing_secret_set: s.signing_secret !== '',
    signing_rotating: s.previous_signing_secret !== '',
    poison_policy: s.poison_policy,
    poison_after: s.poison_after,
  };
}

const bad = (field: string, message: string) => new CdrPushError('bad_setting', `${field}: ${message}`);

function bool(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw bad(field, `must be true or false, not ${JSON.stringify(v)}`);
  return v;
}

function int(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw bad(field, `must be a whole number, not ${JSON.stringify(v)}`);
  }
  if (v < min || v > max) throw bad(field, `must be between ${min} and ${max}, not ${v}`);
  return v;
}

// Header values must be one line of visible ASCII (RFC 9110 field-value, no obs-text), so a
// secret can never smuggle a header or be mangled on the wire.
function headerText(field: string, v: unknown): string {
  if (v === null) return '';
  if (typeof v !== 'string') throw bad(field, 'must be a string (or "" / null to clear it)');
  if (v.length > 4096) throw bad(field, 'is longer than 4096 characters');
  if (!/^[\x20-\x7e]*$/.test(v))
    throw bad(field, 'may hold only printable ASCII characters (no line breaks)');
  return v;
}

function url(v: unknown): string {
  if (typeof v !== 'string') throw bad('url', 'must be a string');
  if (v === '') return '';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw bad('url', `"${v.slice(0, 200)}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw bad('url', `must be an http:// or https:// URL, not ${u.protocol}//`);
  }
  if (u.username || u.password) throw bad('url', 'put credentials in username/password, not in the URL');
  if (u.hash) throw bad('url', 'must not have a #fragment');
  return u.toString();
}

function signingSecret(field: string, v: unknown): string {
  if (typeof v !== 'string')
    throw bad(field, 'must be a whsec_ secret, "generate", "rotate", or "" / null to stop signing');
  try {
    secretKey(v);
  } catch (err) {
    throw bad(field, (err as Error).message.replace(/^secret: /, ''));
  }
  return v.startsWith('whsec_') ? v : `whsec_${v}`;
}

/** The longest destination name accepted. */
export const MAX_NAME_LENGTH = 100;

function name(v: unknown): string {
  if (v === null) return '';
  if (typeof v !== 'string') throw bad('name', 'must be a string');
  const t = v.trim();
  if (t.length > MAX_NAME_LENGTH) throw bad('name', `is longer than ${MAX_NAME_LENGTH} characters`);
  if (/[\p{Cc}\p{Cf}]/u.test(t)) throw bad('name', 'may not hold control characters');
  return t;
}

function method(v: unknown): PushMethod {
  const m = typeof v === 'string' ? v.toUpperCase() : v;
  if (m !== 'POST' && m !== 'PUT') throw bad('method', `must be POST or PUT, not ${JSON.stringify(v)}`);
  return m;
}

function fields(v: unknown): CdrWireField[] {
  if (!Array.isArray(v)) throw bad('fields', 'must be a list of record field names');
  if (v.length === 0) throw bad('fields', `name at least one of ${CDR_WIRE_FIELDS.join(', ')}`);
  const seen = new Set<string>();
  for (const f of v) {
    if (typeof f !== 'string' || !(CDR_WIRE_FIELDS as readonly string[]).includes(f)) {
      throw bad('fields', `unknown field ${JSON.stringify(f)}; known: ${CDR_WIRE_FIELDS.join(', ')}`);
    }
    if (seen.has(f)) throw bad('fields', `${f} is listed twice`);
    seen.add(f);
  }
  // Sent in the record's own order, whatever order they were given in.
  return CDR_WIRE_FIELDS.filter((f) => seen.has(f));
}

/**
 * Applies a patch (a partial settings object from REST or CLI) to the current settings and
 * validates the result. Absent keys keep their value; for a secret, "" or null clears it.
 * Throws CdrPushError('bad_setting') naming the field; the current settings are never changed.
 */
export function applyPatch(current: CdrPushSettings, patch: unknown): CdrPushSettings {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw new CdrPushError('bad_setting', 'settings: expected a JSON object');
  }
  const p = patch as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!KNOWN.has(key) && !ACTIONS.has(key))
      throw bad(key, `unknown setting; known: ${[...KNOWN, ...ACTIONS].join(', ')}`);
  }
  const next: CdrPushSettings = { ...current, fields: [...current.fields] };
  if ('name' in p) next.name = name(p.name);
  if ('enabled' in p) next.enabled = bool('enabled', p.enabled);
  if ('url' in p) next.url = url(p.url);
  if ('method' in p) next.method = method(p.method);
  if ('api_key' in p) next.api_key = headerText('api_key', p.api_key);
  if ('bearer_token' in p) next.bearer_token = headerText('bearer_token', p.bearer_token);
  if ('username' in p) {
    next.username = headerText('username', p.username);
    if (next.username.includes(':')) throw bad('username', 'must not contain ":" (HTTP Basic)');
  }
  if ('password' in p) next.password = headerText('password', p.password);
  if ('fields' in p) next.fields = fields(p.fields);
  if ('interval_seconds' in p)
    next.interval_seconds = int('interval_seconds', p.interval_seconds, 1, MAX_INTERVAL_SECONDS);
  if ('batch_size' in p) next.batch_size = int('batch_size', p.batch_size, 1, MAX_BATCH_SIZE);
  if ('send_history' in p) next.send_history = bool('send_history', p.send_history);
  if ('alert_after_seconds' in p)
    next.alert_after_seconds = int('alert_after_seconds', p.alert_after_seconds, 0, 7 * MAX_INTERVAL_SECONDS);
  if ('signing_secret' in p) {
    const v = p.signing_secret;
    if (v === null || v === '') {
      next.signing_secret = '';
      next.previous_signing_secret = '';
    } else if (v === 'generate') next.signing_secret = generateSecret();
    else if (v === 'rotate') {
      if (current.signing_secret === '') throw bad('signing_secret', 'nothing to rotate: no secret is set');
      next.previous_signing_secret = current.signing_secret;
      next.signing_secret = generateSecret();
    } else next.signing_secret = signingSecret('signing_secret', v);
  }
  if ('previous_signing_secret' in p) {
    const v = p.previous_signing_secret;
    next.previous_signing_secret = v === null || v === '' ? '' : signingSecret('previous_signing_secret', v);
  }
  if ('poison_policy' in p) {
    if (p.poison_policy !== 'hold' && p.poison_policy !== 'park')
      throw bad('poison_policy', `must be "hold" or "park", not ${JSON.stringify(p.poison_policy)}`);
    next.poison_policy = p.poison_policy;
  }
  if ('poison_after' in p) next.poison_after = int('poison_after', p.poison_after, 1, MAX_POISON_AFTER);
  if ('end_signing_rotation' in p && bool('end_signing_rotation', p.end_signing_rotation))
    next.previous_signing_secret = '';
  checkWhole(next);
  return next;
}

/** Rules across fields: Bearer xor Basic, Basic needs both halves, enabled needs a URL. */
function checkWhole(s: CdrPushSettings): void {
  const basic = s.username !== '' || s.password !== '';
  if (s.bearer_token !== '' && basic) {
    throw bad(
      'bearer_token',
      'Bearer token and Basic username/password cannot both be set (both use the Authorization header); clear one of them',
    );
  }
  if (s.username !== '' && s.password === '')
    throw bad('password', 'Basic authentication needs a password too');
  if (s.password !== '' && s.username === '')
    throw bad('username', 'Basic authentication needs a username too');
  if (s.enabled && s.url === '') throw bad('url', 'is required to enable delivery');
}

/** Reads stored JSON back into settings, filling defaults for keys added since it was saved. */
export function parseStoredSettings(json: string | undefined): CdrPushSettings {
  if (json === undefined)
    return { ...DEFAULT_CDR_PUSH_SETTINGS, fields: [...DEFAULT_CDR_PUSH_SETTINGS.fields] };
  const stored = JSON.parse(json) as Record<string, unknown>;
  const known = Object.fromEntries(Object.entries(stored).filter(([k]) => KNOWN.has(k)));
  return applyPatch({ ...DEFAULT_CDR_PUSH_SETTINGS, fields: [...DEFAULT_CDR_PUSH_SETTINGS.fields] }, known);
}
