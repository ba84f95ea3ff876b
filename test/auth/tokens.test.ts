import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  AuthError,
  addUser,
  createSession,
  createToken,
  FailureLimiter,
  listTokens,
  revokeToken,
  SESSION_COOKIE,
  tokenOf,
} from '../../src/auth/index.js';
import { createRequestAuth } from '../../src/server/request-auth.js';
import { openStore } from '../../src/store/index.js';
import { createTestDatabase, storeKinds, type TestDatabase } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { BIN } from '../support/serve-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(storeKinds())('API tokens on %s', (kind) => {
  let srv: TestServer;
  let now = 1_800_000_000_000;
  beforeEach(async () => {
    now = 1_800_000_000_000;
    srv = await startTestServer(kind, {
      clock: { now: () => now },
      failureLimits: { maxFailures: 3, windowSeconds: 600, blockSeconds: 600 },
    });
  });
  afterEach(async () => srv.close());

  const settings = (token: string) =>
    send(`${srv.url}/api/settings/cdr-push`, { headers: { authorization: `Bearer ${token}` } });

  test('stores only the hash, and a token is found by its value until revoked', async () => {
    const { token, info } = await createToken(srv.store, { name: 'billing feed', scopes: ['cdr:read'] }, now);
    expect(token).toMatch(/^bgt_[A-Za-z0-9_-]{43}$/);
    expect(info).toEqual({
      id: info.id,
      name: 'billing feed',
      prefix: token.slice(0, 8),
      scopes: ['cdr:read'],
      createdAtMs: now,
      lastUsedMs: null,
      revokedAtMs: null,
    });
    const rows = await srv.store.db.selectFrom('api_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_sha256).toBe(sha(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    expect((await tokenOf(srv.store, token, now + 5))?.lastUsedMs).toBe(now + 5);
    expect(await tokenOf(srv.store, `${token}x`, now)).toBeNull();
    expect((await revokeToken(srv.store, info.id, now + 10)).revokedAtMs).toBe(now + 10);
    expect(await tokenOf(srv.store, token, now + 20)).toBeNull();
    expect((await listTokens(srv.store))[0]?.revokedAtMs).toBe(now + 10);
  });

  test('refuses bad names, no scopes and unknown scopes, storing nothing', async () => {
    await expect(createToken(srv.store, { name: '', scopes: ['admin'] })).rejects.toThrow(/name ""/);
    await expect(createToken(srv.store, { name: 'x', scopes: [] })).rejects.toThrow(/at least one/);
    await expect(createToken(srv.store, { name: 'x', scopes: ['cdr:ingest', 'root'] })).rejects.toThrow(
      /unknown "root"/,
    );
    await expect(revokeToken(srv.store, 999)).rejects.toBeInstanceOf(AuthError);
    expect(await listTokens(srv.store)).toEqual([]);
  });

  test('an admin-scoped token opens admin routes; another scope is 403; revoked or unknown is 401', async () => {
    const admin = await createToken(srv.store, { name: 'ops', scopes: ['admin'] });
    const ingest = await createToken(srv.store, { name: 'exchange', scopes: ['cdr:ingest'] });
    expect((await settings(admin.token)).status).toBe(200);
    const narrow = await settings(ingest.token);
    expect(narrow.status).toBe(403);
    expect(narrow.json().error.message).toBe('API token "exchange" lacks the scope admin');
    await revokeToken(srv.store, admin.info.id);
    const revoked = await settings(admin.token);
    expect(revoked.status).toBe(401);
    expect(revoked.json().error.code).toBe('unauthorized');
    expect((await settings('bgt_nope')).status).toBe(401);
  });

  test('a client that keeps sending bad tokens is blocked with 429', async () => {
    for (let i = 0; i < 3; i++) expect((await settings(`bgt_wrong${i}`)).status).toBe(401);
    const blocked = await settings('bgt_wrong');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
  });

  test('requireScope admits the scope, admin tokens and admin sessions, and nothing else', async () => {
    const auth = createRequestAuth(srv.store, { now: () => now }, new FailureLimiter());
    const app = Fastify();
    await app.register(cookie);
    app.post('/ingest', { preHandler: auth.requireScope('cdr:ingest') }, async () => ({ ok: true }));
    const call = async (token?: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/ingest',
          headers: token ? { authorization: `Bearer ${token}` } : {},
        })
      ).statusCode;
    try {
      const ingest = await createToken(srv.store, { name: 'exchange', scopes: ['cdr:ingest'] });
      const admin = await createToken(srv.store, { name: 'ops', scopes: ['admin'] });
      const geo = await createToken(srv.store, { name: 'router', scopes: ['geo:lookup'] });
      expect(await call(ingest.token)).toBe(200);
      expect(await call(admin.token)).toBe(200);
      expect(await call(geo.token)).toBe(403);
      expect(await call()).toBe(401);
      const viaSession = async (isAdmin: boolean) => {
        const user = await addUser(srv.store, { username: `u${isAdmin}`, password: 'long enough', isAdmin });
        const session = await createSession(srv.store, user.id, { now: () => now });
        return (await app.inject({ method: 'POST', url: '/ingest', cookies: { [SESSION_COOKIE]: session } }))
          .statusCode;
      };
      expect(await viaSession(true)).toBe(200);
      expect(await viaSession(false)).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe.each(storeKinds())('the token command on %s', (kind) => {
  let tdb: TestDatabase;
  beforeEach(async () => {
    tdb = await createTestDatabase(kind);
  });
  afterEach(async () => tdb.drop());
  const cli = (...args: string[]) => run(process.execPath, [BIN, ...args, '--db', tdb.url]);

  test('prints a token once, lists it without the secret, and revokes it', async () => {
    const created = await cli('token', 'create', 'exchange', '--scope', 'cdr:ingest', '--scope', 'cdr:read');
    const token = created.stdout.trim();
    expect(token).toMatch(/^bgt_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(
      /^created API token 1 "exchange" \(cdr:ingest cdr:read\); it is shown only now:/,
    );
    const list = JSON.parse((await cli('token', 'list', '--json')).stdout);
    expect(list).toEqual([
      expect.objectContaining({ id: 1, name: 'exchange', scopes: ['cdr:ingest', 'cdr:read'] }),
    ]);
    expect(JSON.stringify(list)).not.toContain(token);
    expect((await cli('token', 'list')).stdout).not.toContain(token);
    expect((await cli('token', 'revoke', '1')).stdout).toBe('revoked API token 1 "exchange"\n');
    const store = await openStore({ db: tdb.url });
    try {
      expect(await tokenOf(store, token)).toBeNull();
    } finally {
      await store.close();
    }
  });

  test('an unknown scope fails with a message naming it and stores nothing', async () => {
    const err = await cli('token', 'create', 'x', '--scope', 'everything').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(err).toMatchObject({ code: 1 });
    expect((err as { stderr: string }).stderr).toContain('unknown "everything"');
    expect(JSON.parse((await cli('token', 'list', '--json')).stdout)).toEqual([]);
  });
});
