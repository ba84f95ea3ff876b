// Login sessions stored in the database, so every instance on one PostgreSQL accepts them. The
// cookie holds a random token; the table holds only its SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import type { UserInfo } from './users.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'bg_session';
/** How long a session lasts: 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const tokenId = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session for a user; returns the cookie token. */
export async function createSession(store: Store, userId: number, clock: Clock): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  await store.db
    .insertInto('sessions')
    .values({ id: tokenId(token), user_id: userId, created_at_ms: now, expires_at_ms: now + SESSION_TTL_MS })
    .execute();
  // Expired sessions are swept here, on login, rather than by a timer.
  await store.db.deleteFrom('sessions').where('expires_at_ms', '<=', now).execute();
  return token;
}

/** The user of a live session, or null for an unknown or expired token. */
export async function sessionUser(store: Store, token: string, clock: Clock): Promise<UserInfo | null> {
  if (token.length === 0 || token.length > 128) return null;
  const row = await store.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username', 'users.is_admin', 'users.created_at_ms', 'sessions.expires_at_ms'])
    .where('sessions.id', '=', tokenId(token))
    .executeTakeFirst();
  if (!row || row.expires_at_ms <= clock.now()) return null;
  return { id: row.id, username: row.username, isAdmin: row.is_admin === 1, createdAtMs: row.created_at_ms };
}

/** Ends a session (no error when it is already gone). */
export async function endSession(store: Store, token: string): Promise<void> {
  await store.db.deleteFrom('sessions').where('id', '=', tokenId(token)).execute();
}
