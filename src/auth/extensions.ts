// PBX extensions allowed to pull CDRs. The pull key is SHA-256(secret) as hex, so only that hash is
// stored; keys are compared case-insensitively and in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ExtensionRow, Store } from '../store/index.js';
import { AuthError } from './auth-error.js';

/** An extension as shown to callers. */
export interface ExtensionInfo {
  number: string;
  name: string;
  cdrAccess: boolean;
}

const NUMBER = /^[0-9A-Za-z*#+_-]{1,32}$/;

function info(row: ExtensionRow): ExtensionInfo {
  return { number: row.number, name: row.name, cdrAccess: row.cdr_access === 1 };
}

/** The pull key of a secret: lowercase hex SHA-256. */
export function extensionKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function checkNumber(number: string): void {
  if (!NUMBER.test(number))
    throw new AuthError('bad_extension', `extension "${number}": use 1-32 digits or letters`);
}

function checkSecret(secret: string): void {
  if (secret.length === 0) throw new AuthError('bad_extension', 'secret: must not be empty');
}

/** Adds an extension; fails with extension_exists when the number is taken. */
export async function addExtension(
  store: Store,
  input: { number: string; secret: string; name?: string | undefined; cdrAccess: boolean },
  nowMs = Date.now(),
): Promise<ExtensionInfo> {
  checkNumber(input.number);
  checkSecret(input.secret);
  const row = await store.db
    .insertInto('extensions')
    .values({
      number: input.number,
      name: input.name ?? '',
      key_sha256: extensionKey(input.secret),
      cdr_access: input.cdrAccess ? 1 : 0,
      created_at_ms: nowMs,
      updated_at_ms: nowMs,
    })
    .onConflict((oc) => oc.column('number').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AuthError('extension_exists', `extension ${input.number} already exists`);
  return info(row);
}

/** Changes an extension's secret, name or CDR Access. */
export async function setExtension(
  store: Store,
  number: string,
  change: { secret?: string | undefined; name?: string | undefined; cdrAccess?: boolean | undefined },
  nowMs = Date.now(),
): Promise<ExtensionInfo> {
  if (change.secret !== undefined) checkSecret(change.secret);
  const row = await store.db
    .updateTable('extensions')
    .set({
      updated_at_ms: nowMs,
      ...(change.secret !== undefined ? { key_sha256: extensionKey(change.secret) } : {}),
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.cdrAccess !== undefined ? { cdr_access: change.cdrAccess ? 1 : 0 } : {}),
    })
    .where('number', '=', number)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AuthError('no_such_extension', `no extension ${number}`);
  return info(row);
}

/** Removes an extension. */
export async function removeExtension(store: Store, number: string): Promise<void> {
  const res = await store.db.deleteFrom('extensions').where('number', '=', number).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AuthError('no_such_extension', `no extension ${number}`);
}

/** All extensions, by number. */
export async function listExtensions(store: Store): Promise<ExtensionInfo[]> {
  const rows = await store.db.selectFrom('extensions').selectAll().orderBy('number').execute();
  return rows.map(info);
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const ZERO_KEY = Buffer.alloc(32);

/** What a key check needs of an extension: the stored key hash and the flag. */
export interface ExtensionCredential {
  keySha256: string;
  cdrAccess: boolean;
}

/** The credential of an extension, or undefined when there is no such extension. */
export async function findExtensionCredential(
  store: Store,
  number: string,
): Promise<ExtensionCredential | undefined> {
  if (number.length === 0 || number.length > 32) return undefined;
  const row = await store.db
    .selectFrom('extensions')
    .select(['key_sha256', 'cdr_access'])
    .where('number', '=', number)
    .executeTakeFirst();
  return row && { keySha256: row.key_sha256, cdrAccess: row.cdr_access === 1 };
}

/**
 * Checks a pull key against a credential: 'ok', 'no_access' (right key, no CDR Access) or 'bad'
 * (no such extension or wrong key; the same constant-time comparison runs either way).
 */
export function verifyExtensionKey(
  credential: ExtensionCredential | undefined,
  key: string,
): 'ok' | 'no_access' | 'bad' {
  const wellFormed = HEX64.test(key);
  const given = wellFormed ? Buffer.from(key, 'hex') : ZERO_KEY;
  const expected = credential ? Buffer.from(credential.keySha256, 'hex') : ZERO_KEY;
  if (!(timingSafeEqual(given, expected) && wellFormed && credential)) return 'bad';
  return credential.cdrAccess ? 'ok' : 'no_access';
}

/** Checks an extension's pull key against the store. */
export async function checkExtensionKey(
  store: Store,
  number: string,
  key: string,
): Promise<'ok' | 'no_access' | 'bad'> {
  return verifyExtensionKey(await findExtensionCredential(store, number), key);
}
