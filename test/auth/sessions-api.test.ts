import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addUser, ensureAdmin, listUsers, setUserPassword } from '../../src/auth/index.js';
import { storeKinds } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const json = { 'content-type': 'application/json' };

describe.each(storeKinds())('login, logout and sessions on %s', (kind) => {
  let srv: TestServer;
  let now = 1_800_000_000_000;
  beforeEach(async () => {
    now = 1_800_000_000_000;
    srv = await startTestServer(kind, {
      clock: { now: () => now },
      failureLimits: { maxFailures: 3, windowSeconds: 600, blockSeconds: 600 },
    });
    await addUser(srv.store, { username: 'admin', password: 'correct-horse', isAdmin: true });
  });
  afterEach(async () => srv.close());

  const login = (username: string, password: string) =>
    send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username, password }),
    });
  const me = (cookie: string) => send(`${srv.url}/api/me`, { headers: { cookie } });

  test('a session cookie works until logout, and then no more', async () => {
    const res = await login('admin', 'correct-horse');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ user: { username: 'admin', is_admin: true } });
    const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
    expect((await me(cookie)).status).toBe(200);
    const out = await send(`${srv.url}/api/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
  });

  test('a session expires after 12 hours of the injected clock', async () => {
    const cookie = String((await login('admin', 'correct-horse')).headers['set-cookie']).split(
      ';',
    )[0] as string;
    now += 12 * 3600_000 - 1;
    expect((await me(cookie)).status).toBe(200);
    now += 1;
    expect((await me(cookie)).status).toBe(401);
  });

  test('a wrong password gets 401, and repeated failures from one address get 429', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await login('admin', 'wrong-password');
      expect(res.status).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
    const blocked = await login('admin', 'correct-horse');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  test('a malformed login body gets 400 and a non-JSON body 415', async () => {
    const missing = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: '{"username":"admin"}',
    });
    expect(missing.status).toBe(400);
    expect(missing.json().error.message).toMatch(/password/);
    const broken = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: '{"username":',
    });
    expect(broken.status).toBe(400);
    const text = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'admin:pw',
    });
    expect(text.status).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
  });

  test('changing a password ends the sessions opened with the old one', async () => {
    const cookie = String((await login('admin', 'correct-horse')).headers['set-cookie']).split(
      ';',
    )[0] as string;
    await setUserPassword(srv.store, 'admin', 'battery-staple');
    expect((await me(cookie)).status).toBe(401);
    expect((await login('admin', 'battery-staple')).status).toBe(200);
  });

  test('ensureAdmin creates the admin once, from the given password or a generated one', async () => {
    // The server above already has an admin: nothing happens.
    expect(await ensureAdmin(srv.store, undefined)).toEqual({ created: false, generatedPassword: null });
    expect((await listUsers(srv.store)).map((u) => u.username)).toEqual(['admin']);
  });
});

describe('ensureAdmin on an empty store', () => {
  test('generates a password, prints it once, and it logs in', async () => {
    const srv = await startTestServer('sqlite');
    try {
      const first = await ensureAdmin(srv.store, undefined);
      expect(first.created).toBe(true);
      expect(first.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(await ensureAdmin(srv.store, undefined)).toEqual({ created: false, generatedPassword: null });
      const res = await send(`${srv.url}/api/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ username: 'admin', password: first.generatedPassword }),
      });
      expect(res.status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});
