// API tokens: `bgt_` + 32 random bytes (base64url), each with a name and scopes. Only the token's
// SHA-256 is stored, so a database dump cannot be replayed; the token is shown once, at creation.
// A token is accepted wherever an admin session is, within its scopes (server/request-auth.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { ApiTokenRow, Store } from '../store/index.js';
import { AuthError } from './auth-error.js';

/**
 * Every scope a token may carry. `admin` grants what an admin session grants; the others each
 * open one kind of machine access and nothing else.
 */
export const TOKEN_SCOPES = ['admin', 'cdr:ingest', 'cdr:read', 'geo:lookup', 'metrics', 'sms'] as const;

/** One scope name. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The prefix every token starts with, so a leaked one is recognisable in a secret scanner. */
export const TOKEN_PREFIX = 'bgt_';

/** A token as shown to callers (never the token or its hash). */
export interface TokenInfo {
  id: number;
  name: string;
  /** The token's first characters, e.g. `bgt_Xy3k`, to tell tokens apart. */
  prefix: string;
  scopes: TokenScope[];
  createdAtMs: number;
  lastUsedMs: number | null;
  revokedAtMs: number | null;
}

const NAME = /^[\w .:@-]{1,64}$/u;
// A token's last use is written at most this often, so a busy integration does not write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

function info(row: ApiTokenRow): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(' ').filter(isTokenScope),
    createdAtMs: Number(row.created_at_ms),
    lastUsedMs: row.last_used_ms === null ? null : Number(row.last_used_ms),
    revokedAtMs: row.revoked_at_ms === null ? null : Number(row.revoked_at_ms),
  };
}

/** Whether a string names a scope. */
export function isTokenScope(value: string): value is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(value);
}

/** Checks a name and a scope list; throws bad_token with what was wrong. */
export function checkTokenInput(name: string, scopes: readonly string[]): TokenScope[] {
  if (!NAME.test(name))
    throw new AuthError('bad_token', `name "${name}": use 1-64 letters, digits, spaces or _.:@-`);
  if (scopes.length === 0)
    throw new AuthError('bad_token', `scopes: give at least one of ${TOKEN_SCOPES.join(', ')}`);
  const unknown = scopes.filter((s) => !isTokenScope(s));
  if (unknown.length > 0)
    throw new AuthError(
      'bad_token',
      `scopes: unknown ${unknown.map((s) => `"${s}"`).join(', ')}; known: ${TOKEN_SCOPES.join(', ')}`,
    );
  return [...new Set(scopes as TokenScope[])].sort();
}

/** Creates a token; returns it (the only time it is ever available) and its info. */
export async function createToken(
  store: Store,
  input: { name: string; scopes: readonly string[] },
  nowMs = Date.now(),
): Promise<{ token: string; info: TokenInfo }> {
  const scopes = checkTokenInput(input.name, input.scopes);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await store.db
    .insertInto('api_tokens')
    .values({
      name: input.name,
      token_sha256: tokenHash(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 4),
      scopes: scopes.join(' '),
      created_at_ms: nowMs,
      last_used_ms: null,
      revoked_at_ms: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, info: info(row) };
}

/** Every token, newest first, revoked ones included (they show when they were revoked). */
export async function listTokens(store: Store): Promise<TokenInfo[]> {
  const rows = await store.db.selectFrom('api_tokens').selectAll().orderBy('id', 'desc').execute();
  return rows.map(info);
}

/** Revokes a token; no_such_token when there is none with that id. Revoking twice is not an error. */
export async function revokeToken(store: Store, id: number, nowMs = Date.now()): Promise<TokenInfo> {
  await store.db
    .updateTable('api_tokens')
    .set({ revoked_at_ms: nowMs })
    .where('id', '=', id)
    .where('revoked_at_ms', 'is', null)
    .execute();
  const row = await store.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AuthError('no_such_token', `no API token with id ${id}`);
  return info(row);
}

/** The live (not revoked) token a bearer value names, or null. Notes its last use. */
export async function tokenOf(store: Store, token: string, nowMs = Date.now()): Promise<TokenInfo | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 128) return null;
  const row = await store.db
    .selectFrom('api_tokens')
    .selectAll()
    .where('token_sha256', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row || row.revoked_at_ms !== null) return null;
  const last = row.last_used_ms === null ? null : Number(row.last_used_ms);
  if (last === null || nowMs - last >= LAST_USED_RESOLUTION_MS) {
    await store.db.updateTable('api_tokens').set({ last_used_ms: nowMs }).where('id', '=', row.id).execute();
    row.last_used_ms = nowMs;
  }
  return info(row);
}

/** Whether a token's scopes grant a scope (`admin` grants every scope). */
export function tokenGrants(token: TokenInfo, scope: TokenScope): boolean {
  return token.scopes.includes('admin') || token.scopes.includes(scope);
}
