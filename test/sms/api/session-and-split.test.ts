// The SMS endpoints without `auth`: an admin session (the console) or a token with the `sms`
// scope stands in for it, anything else is refused as before; /api/sms/split tells how a text
// would be sent.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createToken } from '../../../src/auth/index.js';
import { storeKinds } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from './support/sms-server.js';

describe.each(storeKinds())('SMS with a session or token on %s', (kind) => {
  let srv: SmsTestServer;
  beforeEach(async () => {
    srv = await startSmsServer(kind);
  });
  afterEach(async () => srv.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(`${srv.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  test('an admin session or an sms token replaces auth; other tokens and no credentials do not', async () => {
    const login = await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    expect((await post('/api/sms/get-all', { type: 'sent' }, { cookie })).json()).toEqual({
      status: 'success',
      data: [],
    });
    const sms = await createToken(srv.store, { name: 'alerts', scopes: ['sms'] });
    const geo = await createToken(srv.store, { name: 'router', scopes: ['geo:lookup'] });
    expect(
      (await post('/api/sms/get-all', { type: 'sent' }, { authorization: `Bearer ${sms.token}` })).status,
    ).toBe(200);
    const refused = await post(
      '/api/sms/get-all',
      { type: 'sent' },
      { authorization: `Bearer ${geo.token}` },
    );
    expect([refused.status, refused.json().error.message]).toEqual([
      401,
      'auth: missing; give the admin password',
    ]);
    expect((await post('/api/sms/get-all', { type: 'sent' })).status).toBe(401);
    // A wrong auth is still wrong, session or not.
    expect((await post('/api/sms/get-all', { type: 'sent', auth: 'nope' }, { cookie })).status).toBe(401);
  });

  test('split says characters, parts, encoding and what forces UCS-2', async () => {
    const split = async (message: string) =>
      (await post('/api/sms/split', { auth: ADMIN_PASSWORD, message })).json().data;
    expect(await split('hello')).toEqual({
      characters: 5,
      encoding: 'gsm7',
      parts: 1,
      max_parts: 10,
      ucs2_characters: [],
    });
    expect(await split('a'.repeat(153 * 2 + 1))).toMatchObject({ encoding: 'gsm7', parts: 3 });
    // € takes two septets (escape + code): 80 fill one part exactly, 81 need two.
    expect(await split('€'.repeat(80))).toMatchObject({ encoding: 'gsm7', parts: 1 });
    expect(await split('€'.repeat(81))).toMatchObject({ encoding: 'gsm7', parts: 2 });
    expect(await split('Grüße ☺☺')).toEqual({
      characters: 8,
      encoding: 'ucs2',
      parts: 1,
      max_parts: 10,
      ucs2_characters: ['☺'],
    });
  });
});
