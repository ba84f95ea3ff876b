// Console users: the `admin` account created on first start, and any number of others (admins or
// not). Passwords are kept only as scrypt hashes.
import type { Store, UserRow } from '../store/index.js';
import { AuthError } from './auth-error.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';

/** A user as shown to callers (never the hash). */
export interface UserInfo {
  id: number;
  username: string;
  isAdmin: boolean;
  createdAtMs: number;
}

const USERNAME = /^[A-Za-z0-9_.@-]{1,64}$/;
/** The name of the account created on first start. */
export const ADMIN_USERNAME = 'admin';

function info(row: UserRow): UserInfo {
  return { id: row.id, username: row.username, isAdmin: row.is_admin === 1, createdAtMs: row.created_at_ms };
}

function checkPassword(password: string): void {
  if (password.length < 8)
    throw new AuthError('bad_password', 'password: at least 8 characters are required');
  if (password.length > 1024) throw new AuthError('bad_password', 'password: at most 1024 characters');
}

/** Adds a user; fails with user_exists when the name is taken. */
export async function addUser(
  store: Store,
  input: { username: string; password: string; isAdmin: boolean },
  nowMs = Date.now(),
): Promise<UserInfo> {
  if (!USERNAME.test(input.username))
    throw new AuthError('bad_username', `username "${input.username}": use 1-64 letters, digits or _.@-`);
  checkPassword(input.password);
  const password_hash = await hashPassword(input.password);
  const row = await store.db
    .insertInto('users')
    .values({
      username: input.username,
      password_hash,
      is_admin: input.isAdmin ? 1 : 0,
      created_at_ms: nowMs,
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AuthError('user_exists', `user "${input.username}" already exists`);
  return info(row);
}

/** All users, by name. */
export async function listUsers(store: Store): Promise<UserInfo[]> {
  const rows = await store.db.selectFrom('users').selectAll().orderBy('username').execute();
  return rows.map(info);
}

/** Sets a user's password; ends the user's sessions so the old password's sessions stop working. */
export async function setUserPassword(store: Store, username: string, password: string): Promise<void> {
  checkPassword(password);
  const password_hash = await hashPassword(password);
  await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set({ password_hash })
      .where('username', '=', username)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new AuthError('no_such_user', `no user "${username}"`);
    await trx.deleteFrom('sessions').where('user_id', '=', row.id).execute();
  });
}

/** The user when the password is right, else null (same work either way, against user enumeration). */
export async function checkLogin(store: Store, username: string, password: string): Promise<UserInfo | null> {
  const row = await store.db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
  return row && ok ? info(row) : null;
}

/** True when the password is that of the `admin` account (the SMS API's `auth`). */
export async function checkAdminPassword(store: Store, password: string): Promise<boolean> {
  return (await checkLogin(store, ADMIN_USERNAME, password))?.isAdmin === true;
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * Creates the `admin` account if there is none: with the given password, or a generated one.
 * Returns the generated password (to print once) or null when none was generated.
 */
export async function ensureAdmin(
  store: Store,
  envPassword: string | undefined,
  nowMs = Date.now(),
): Promise<{ created: boolean; generatedPassword: string | null }> {
  const existing = await store.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  if (existing) return { created: false, generatedPassword: null };
  const password = envPassword && envPassword.length > 0 ? envPassword : generatePassword();
  try {
    await addUser(store, { username: ADMIN_USERNAME, password, isAdmin: true }, nowMs);
  } catch (err) {
    // Another instance created it at the same moment: theirs stands.
    if (err instanceof AuthError && err.code === 'user_exists')
      return { created: false, generatedPassword: null };
    throw err;
  }
  return { created: true, generatedPassword: envPassword ? null : password };
}

async function adminCount(store: Store): Promise<number> {
  const { n } = await store.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_admin', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(n);
}

// The user's row; refuses when the change would leave no administrator.
async function rowKeepingAnAdmin(store: Store, username: string, losesAdmin: boolean): Promise<UserRow> {
  const row = await store.db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
  if (!row) throw new AuthError('no_such_user', `no user "${username}"`);
  if (losesAdmin && row.is_admin === 1 && (await adminCount(store)) <= 1)
    throw new AuthError('last_admin', `"${username}" is the last administrator; make another one first`);
  return row;
}

/** Grants or takes administrator rights; refuses to take them from the last administrator. */
export async function setUserAdmin(store: Store, username: string, isAdmin: boolean): Promise<UserInfo> {
  const row = await rowKeepingAnAdmin(store, username, !isAdmin);
  const updated = await store.db
    .updateTable('users')
    .set({ is_admin: isAdmin ? 1 : 0 })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return info(updated);
}

/** Removes a user and their sessions; refuses to remove the last administrator. */
export async function removeUser(store: Store, username: string): Promise<void> {
  const row = await rowKeepingAnAdmin(store, username, true);
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('user_id', '=', row.id).execute();
    await trx.deleteFrom('users').where('id', '=', row.id).execute();
  });
}
