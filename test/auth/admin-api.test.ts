// The accounts REST API over real TLS on both stores: extensions (with the key shown once and a
// pull that works with it), users (rights, passwords, the last administrator), API tokens.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addUser, extensionKey } from '../../src/auth/index.js';
import { storeKinds } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(storeKinds())('accounts REST on %s', (kind) => {
  let srv: TestServer;
  let cookie: string;
  let now = 1_800_000_000_000;
  beforeEach(async () => {
    now = 1_800_000_000_000;
    srv = await startTestServer(kind, { clock: { now: () => now } });
    await addUser(srv.store, { username: 'admin', password: 'correct horse', isAdmin: true });
    cookie = await login('admin', 'correct horse');
  });
  afterEach(async () => srv.close());

  async function login(username: string, password: string): Promise<string> {
    const res = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    expect(res.status).toBe(200);
    return String(res.headers['set-cookie']).split(';')[0] as string;
  }
  const api = (method: string, path: string, body?: unknown, as = cookie) =>
    send(`${srv.url}${path}`, {
      method,
      headers: { cookie: as, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const pull = (number: string, key: string) =>
    send(`${srv.url}/pbx/cdr/data`, {
      headers: { authorization: `Basic ${Buffer.from(`${number}:${key}`).toString('base64')}` },
    });

  test('an extension created with CDR Access pulls with the key shown once; a new secret retires it', async () => {
    const created = await api('POST', '/api/extensions', {
      number: '1001',
      name: 'Front desk',
      cdr_access: true,
    });
    expect(created.status).toBe(201);
    const body = created.json();
    expect(body.extension).toEqual({ number: '1001', name: 'Front desk', cdr_access: true });
    expect(body.secret).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(body.key).toBe(extensionKey(body.secret));
    expect(body.curl).toBe(
      `curl -sk "https://${new URL(srv.url).host}/pbx/cdr/data?page=1&limit=100" -u "1001:${body.key}"`,
    );
    expect((await pull('1001', body.key)).status).toBe(200);

    const given = await api('POST', '/api/extensions', { number: '1002', secret: 'known secret' });
    expect(given.json()).toEqual({
      extension: { number: '1002', name: '', cdr_access: false },
      key: extensionKey('known secret'),
      curl: expect.stringContaining('1002:'),
    });
    expect((await pull('1002', extensionKey('known secret'))).status).toBe(403);

    const regenerated = await api('PATCH', '/api/extensions/1001', { regenerate_secret: true });
    expect(regenerated.status).toBe(200);
    expect(regenerated.json().key).not.toBe(body.key);
    // Pull keys are cached for EXTENSION_CACHE_TTL_MS (1 s) per instance.
    now += 1500;
    expect((await pull('1001', body.key)).status).toBe(401);
    expect((await pull('1001', regenerated.json().key)).status).toBe(200);

    expect((await api('PATCH', '/api/extensions/1001', { cdr_access: false })).json()).toEqual({
      extension: { number: '1001', name: 'Front desk', cdr_access: false },
    });
    expect(
      (await api('GET', '/api/extensions')).json().data.map((e: { number: string }) => e.number),
    ).toEqual(['1001', '1002']);
    expect((await api('DELETE', '/api/extensions/1002')).status).toBe(204);
    const gone = await api('DELETE', '/api/extensions/1002');
    expect([gone.status, gone.json().error.code]).toEqual([404, 'no_such_extension']);
  });

  test('bad extension input is refused naming the field, and nothing changes', async () => {
    const cases: Array<[string, string, unknown, number, RegExp]> = [
      ['POST', '/api/extensions', { number: '10 01' }, 400, /extension "10 01"/],
      ['POST', '/api/extensions', { number: '1003', cdr_access: 'yes' }, 400, /cdr_access/],
      ['PATCH', '/api/extensions/9999', { cdr_access: true }, 404, /no extension 9999/],
      ['PATCH', '/api/extensions/1001', { secret: 'x', regenerate_secret: true }, 400, /not both/],
    ];
    await api('POST', '/api/extensions', { number: '1001', secret: 's' });
    for (const [method, path, body, status, message] of cases) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await api('GET', '/api/extensions')).json().data).toEqual([
      { number: '1001', name: '', cdr_access: false },
    ]);
  });

  test('users: create, rights, own and others passwords end sessions, the last administrator stays', async () => {
    const created = await api('POST', '/api/users', { username: 'olga', password: 'olga password' });
    expect(created.status).toBe(201);
    expect(created.json().user).toMatchObject({ username: 'olga', is_admin: false });
    const olga = await login('olga', 'olga password');
    // Olga may change her own password with the current one, and nothing else.
    expect((await api('PATCH', '/api/users/admin', { password: 'taken over!' }, olga)).status).toBe(403);
    expect((await api('PATCH', '/api/users/olga', { password: 'new password 1' }, olga)).status).toBe(400);
    expect(
      (
        await api(
          'PATCH',
          '/api/users/olga',
          { is_admin: true, password: 'x', current_password: 'olga password' },
          olga,
        )
      ).status,
    ).toBe(403);
    const own = await api(
      'PATCH',
      '/api/users/olga',
      { password: 'new password 1', current_password: 'olga password' },
      olga,
    );
    expect([own.status, own.json().sessions_ended]).toEqual([200, true]);
    expect((await api('GET', '/api/me', undefined, olga)).status).toBe(401);
    // The administrator resets it and makes her an administrator.
    expect(
      (await api('PATCH', '/api/users/olga', { password: 'reset by admin', is_admin: true })).json().user,
    ).toMatchObject({
      username: 'olga',
      is_admin: true,
    });
    const olga2 = await login('olga', 'reset by admin');
    expect(
      (await api('GET', '/api/users', undefined, olga2))
        .json()
        .data.map((u: { username: string }) => u.username),
    ).toEqual(['admin', 'olga']);
    expect((await api('DELETE', '/api/users/admin', undefined, olga2)).status).toBe(204);
    const last = await api('PATCH', '/api/users/olga', { is_admin: false }, olga2);
    expect([last.status, last.json().error.code]).toEqual([409, 'last_admin']);
    expect((await api('DELETE', '/api/users/olga', undefined, olga2)).json().error.code).toBe('last_admin');
    expect((await api('GET', '/api/me', undefined, cookie)).status).toBe(401);
  });

  test('tokens: shown once at creation, listed without it, refused once revoked', async () => {
    const created = await api('POST', '/api/tokens', { name: 'exchange', scopes: ['cdr:ingest', 'admin'] });
    expect(created.status).toBe(201);
    const { token, id } = created.json();
    expect(token).toMatch(/^bgt_/);
    const list = await api('GET', '/api/tokens');
    expect(list.json().data).toEqual([
      expect.objectContaining({ id, name: 'exchange', scopes: ['admin', 'cdr:ingest'], revoked_at: null }),
    ]);
    expect(list.text).not.toContain(token);
    const viaToken = await send(`${srv.url}/api/extensions`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(viaToken.status).toBe(200);
    const revoked = await api('DELETE', `/api/tokens/${id}`);
    expect(revoked.json().revoked_at).toMatch(/^\d{4}-/);
    expect(
      (await send(`${srv.url}/api/extensions`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    expect(
      (await api('POST', '/api/tokens', { name: 'x', scopes: ['root'] })).json().error.message,
    ).toContain('unknown "root"');
  });
});
