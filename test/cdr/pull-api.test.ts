import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addExtension, addUser, setExtension } from '../../src/auth/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { fixtureRecord, fixtureRecords } from '../support/cdr-fixtures.js';
import { storeKinds } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const KEY = sha256('s3cret');
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const COUNT = 23;

async function login(url: string, username: string, password: string): Promise<string> {
  const res = await send(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const cookie = String(res.headers['set-cookie']);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/Secure/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  return cookie.split(';')[0] as string;
}

describe.each(storeKinds())('GET /pbx/cdr/data on %s', (kind) => {
  let srv: TestServer;
  let adminCookie: string;
  let userCookie: string;

  beforeAll(async () => {
    srv = await startTestServer(kind, { timeZone: 'Europe/Berlin' });
    await addExtension(srv.store, { number: '1001', secret: 's3cret', cdrAccess: true });
    await addExtension(srv.store, { number: '1002', secret: 'other', cdrAccess: false });
    await addUser(srv.store, { username: 'admin', password: 'admin-pass-1', isAdmin: true });
    await addUser(srv.store, { username: 'bob', password: 'bob-pass-12', isAdmin: false });
    await insertCdrRecords(srv.store, [
      ...fixtureRecords(1, COUNT - 1),
      fixtureRecord(COUNT, { answer: null }),
    ]);
    adminCookie = await login(srv.url, 'admin', 'admin-pass-1');
    userCookie = await login(srv.url, 'bob', 'bob-pass-12');
  });
  afterAll(async () => srv?.close());

  const get = (query: string, headers: Record<string, string> = {}) =>
    send(`${srv.url}/pbx/cdr/data${query}`, { headers });

  test('Basic, query and admin session each get the same records', async () => {
    const viaBasic = await get('?limit=100', { authorization: basic('1001', KEY) });
    const viaQuery = await get(`?limit=100&extension=1001&key=${KEY}`);
    const viaSession = await get('?limit=100', { cookie: adminCookie });
    for (const res of [viaBasic, viaQuery, viaSession]) expect(res.status).toBe(200);
    expect(viaBasic.json().data).toHaveLength(COUNT);
    expect(viaQuery.json()).toEqual(viaBasic.json());
    expect(viaSession.json()).toEqual(viaBasic.json());
  });

  test('an upper-case hex key works', async () => {
    expect((await get(`?extension=1001&key=${KEY.toUpperCase()}`)).status).toBe(200);
    expect((await get('', { authorization: basic('1001', KEY.toUpperCase()) })).status).toBe(200);
  });

  test('wrong key or missing credentials get 401 with WWW-Authenticate', async () => {
    for (const res of [
      await get(`?extension=1001&key=${sha256('wrong')}`),
      await get('', { authorization: basic('1001', 's3cret') }),
      await get(`?extension=9999&key=${KEY}`),
      await get('?extension=1001'),
      await get(''),
      await get('', { authorization: 'Bearer abc' }),
      await get('', { cookie: 'bg_session=not-a-session' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="branchgate"');
      expect(res.json().error.code).toBe('unauthorized');
    }
  });

  test('an extension without CDR Access and a non-admin session get 403', async () => {
    const ext = await get(`?extension=1002&key=${sha256('other')}`);
    expect(ext.status).toBe(403);
    expect(ext.json()).toEqual({ error: { code: 'forbidden', message: 'extension 1002 has no CDR Access' } });
    const user = await get('', { cookie: userCookie });
    expect(user.status).toBe(403);
    expect(user.json().error.code).toBe('forbidden');
  });

  test('bad page or limit gets 400 naming the parameter', async () => {
    for (const [q, name] of [
      ['?page=0', 'page'],
      ['?limit=-1', 'limit'],
      ['?page=x', 'page'],
      ['?limit=1.5', 'limit'],
      ['?page=1&page=2', 'page'],
      ['?limit=', 'limit'],
    ] as const) {
      const res = await get(q, { authorization: basic('1001', KEY) });
      expect(res.status, q).toBe(400);
      expect(res.json().error.code).toBe('bad_parameter');
      expect(res.json().error.message).toMatch(new RegExp(`^${name}:`));
    }
  });

  test('limit above 1000 is clamped and said so in the envelope', async () => {
    const body = (await get('?limit=5000', { authorization: basic('1001', KEY) })).json();
    expect(body.limit).toBe('1000');
    expect(body.page).toBe('1');
    expect(body.total_pages).toBe(1);
  });

  test('pages are ascending db_id, total_pages is ceil(count/limit), past the end is empty', async () => {
    const auth = { authorization: basic('1001', KEY) };
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const body = (await get(`?page=${page}&limit=5`, auth)).json();
      expect(body.total_pages).toBe(Math.ceil(COUNT / 5));
      expect(body.page).toBe(String(page));
      expect(body.limit).toBe('5');
      seen.push(...body.data.map((r: { db_id: number }) => r.db_id));
    }
    expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    const past = (await get('?page=6&limit=5', auth)).json();
    expect(past).toEqual({ data: [], page: '6', limit: '5', total_pages: 5 });
    const far = (await get('?page=99999999999999999999&limit=5', auth)).json();
    expect(far.data).toEqual([]);
  });

  test('defaults are page 1, limit 10', async () => {
    const body = (await get('', { authorization: basic('1001', KEY) })).json();
    expect(body.page).toBe('1');
    expect(body.limit).toBe('10');
    expect(body.data.map((r: { db_id: number }) => r.db_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('every record has the 15 fields with the seed types, times in the exchange zone', async () => {
    const body = (await get('?limit=100', { authorization: basic('1001', KEY) })).json();
    const fields = [
      'db_id',
      'call_id',
      'caller_id',
      'source',
      'destination_context',
      'destination',
      'initial_destination',
      'computed_destination',
      'disposition',
      'timestamp',
      'date',
      'start_time',
      'answer_time',
      'end_time',
      'recording_url',
    ];
    for (const rec of body.data) {
      expect(Object.keys(rec).sort()).toEqual([...fields].sort());
      expect(Number.isInteger(rec.db_id)).toBe(true);
      for (const f of fields.slice(1)) expect(typeof rec[f], f).toBe('string');
    }
    const first = fixtureRecord(1);
    // 1795322865 is 2026-11-22 04:47:45 UTC, 05:47:45 in Berlin (CET, +1).
    expect(body.data[0]).toEqual({
      db_id: 1,
      call_id: first.uniqueid,
      caller_id: first.clid,
      source: first.src,
      destination_context: 'sip_internal',
      destination: first.dst,
      initial_destination: first.initialDestination,
      computed_destination: '',
      disposition: 'ANSWERED',
      timestamp: '1795322865',
      date: '2026-11-22 05:47:45',
      start_time: '2026-11-22 05:47:45',
      answer_time: '2026-11-22 05:47:46',
      end_time: '2026-11-22 05:47:50',
      recording_url: '',
    });
    expect(body.data[COUNT - 1].answer_time).toBe('');
  });
});

describe('authentication failures', () => {
  test('a client that keeps failing gets 429 with Retry-After, even with the right key afterwards', async () => {
    const srv = await startTestServer('sqlite', {
      failureLimits: { maxFailures: 3, windowSeconds: 60, blockSeconds: 60 },
    });
    try {
      await addExtension(srv.store, { number: '1001', secret: 's3cret', cdrAccess: true });
      const wrong = `${srv.url}/pbx/cdr/data?extension=1001&key=${sha256('nope')}`;
      for (let i = 0; i < 3; i++) expect((await send(wrong)).status).toBe(401);
      const blocked = await send(`${srv.url}/pbx/cdr/data?extension=1001&key=${KEY}`);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().error.code).toBe('too_many_attempts');
    } finally {
      await srv.close();
    }
  });
});

describe('extension changes', () => {
  test('a revoked CDR Access or a new secret takes effect once the 1 s credential cache expires', async () => {
    let now = 1_800_000_000_000;
    const srv = await startTestServer('sqlite', { clock: { now: () => now } });
    try {
      await addExtension(srv.store, { number: '1001', secret: 's3cret', cdrAccess: true });
      const pull = () => send(`${srv.url}/pbx/cdr/data?extension=1001&key=${KEY}`);
      expect((await pull()).status).toBe(200);
      await setExtension(srv.store, '1001', { cdrAccess: false });
      now += 999;
      expect((await pull()).status).toBe(200);
      now += 1;
      expect((await pull()).status).toBe(403);
      await setExtension(srv.store, '1001', { cdrAccess: true, secret: 'rotated' });
      now += 1000;
      expect((await pull()).status).toBe(401);
      const rotated = createHash('sha256').update('rotated').digest('hex');
      expect((await send(`${srv.url}/pbx/cdr/data?extension=1001&key=${rotated}`)).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});
