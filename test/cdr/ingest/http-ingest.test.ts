// POST /api/cdr over real TLS on both stores: wire or Asterisk names, one record or {"data":[...]},
// idempotent on the cross-source identity, whole body or nothing, and only with the right scope.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addUser, createToken } from '../../../src/auth/index.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { storeKinds } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const wire = {
  call_id: '1795322858.1',
  caller_id: '"Alice Martin" <4001>',
  source: '4001',
  destination_context: 'sip_internal',
  destination: '2011',
  disposition: 'ANSWERED',
  start_time: '2026-11-22 04:47:38',
  answer_time: '2026-11-22 04:47:39',
  end_time: '2026-11-22 04:47:43',
};
const asterisk = {
  uniqueid: '1795322861.13',
  clid: '"Dave Evans" <4004>',
  src: '4004',
  dst: '2014',
  dcontext: 'sip_internal',
  channel: 'Local/2014@from-4004-00000006;2',
  dstchannel: 'Local/2014@phones-00000007;1',
  lastapp: 'Dial',
  lastdata: 'Local/2014@phones/n,10,tT',
  start: 1795322861,
  end: 1795322861,
  duration: 0,
  billsec: 0,
  disposition: 'BUSY',
};

describe.each(storeKinds())('POST /api/cdr on %s', (kind) => {
  let srv: TestServer;
  let token: string;
  beforeEach(async () => {
    srv = await startTestServer(kind);
    token = (await createToken(srv.store, { name: 'exchange', scopes: ['cdr:ingest'] })).token;
  });
  afterEach(async () => srv.close());

  const post = (body: unknown, bearer = token) =>
    send(`${srv.url}/api/cdr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });

  test('stores a wire record and an Asterisk one, and the same again adds nothing', async () => {
    const first = await post({ data: [wire, asterisk] });
    expect(first.status).toBe(201);
    expect(first.json()).toEqual({ inserted: 2, duplicates: 0 });
    const again = await post(asterisk);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual({ inserted: 0, duplicates: 1 });
    const rows = await listCdrRecordsAfter(srv.store, 0, 10);
    expect(
      rows.map((r) => [r.uniqueid, r.src, r.dst, r.disposition, r.start_ts, r.answer_ts, r.end_ts]),
    ).toEqual([
      ['1795322858.1', '4001', '2011', 'ANSWERED', 1795322858, 1795322859, 1795322863],
      ['1795322861.13', '4004', '2014', 'BUSY', 1795322861, null, 1795322861],
    ]);
    const status = await send(`${srv.url}/api/ingest/status`, {
      headers: {
        authorization: `Bearer ${(await createToken(srv.store, { name: 'ops', scopes: ['admin'] })).token}`,
      },
    });
    expect(status.status).toBe(200);
    expect(status.json().sources).toEqual([
      expect.objectContaining({
        id: 'http:/api/cdr',
        kind: 'http',
        state: 'connected',
        records_stored: 2,
        duplicates: 1,
      }),
    ]);
  });

  test('a bad record in a body is refused naming it, and nothing of the body is stored', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { data: [wire, { ...wire, call_id: '9.9', start_time: 'soon' }] },
        'data[1]: field start: "soon" is not a time',
      ],
      [{ data: [wire, { ...wire, colour: 'red' }] }, 'data[1]: unknown field "colour"'],
      [{ ...wire, disposition: undefined }, 'record: missing disposition'],
      [{ data: [] }, 'data: no records'],
      [{ data: [42] }, 'data[0]: a record must be a JSON object'],
      [{ ...wire, uniqueid: 'other' }, 'disagree'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('bad_record');
      expect(res.json().error.message).toContain(message);
    }
    expect(await listCdrRecordsAfter(srv.store, 0, 10)).toEqual([]);
  });

  test('needs an admin session or a token with cdr:ingest', async () => {
    const geo = (await createToken(srv.store, { name: 'router', scopes: ['geo:lookup'] })).token;
    expect((await post(wire, geo)).status).toBe(403);
    expect((await post(wire, 'bgt_unknown')).status).toBe(401);
    expect(
      (
        await send(`${srv.url}/api/cdr`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(wire),
        })
      ).status,
    ).toBe(401);
    await addUser(srv.store, { username: 'root', password: 'long enough', isAdmin: true });
    const login = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: 'long enough' }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const viaSession = await send(`${srv.url}/api/cdr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(wire),
    });
    expect(viaSession.status).toBe(201);
    expect(await listCdrRecordsAfter(srv.store, 0, 10)).toHaveLength(1);
  });
});
