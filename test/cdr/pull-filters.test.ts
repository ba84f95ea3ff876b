// The console's filters on GET /pbx/cdr/data and the streamed export, on both stores: each filter
// selects what it says, pages count the filtered set, no filter leaves the seed contract as it was.
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addUser, createToken } from '../../src/auth/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { storeKinds } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

type Rec = { db_id: number; source: string; disposition: string; caller_id: string; timestamp: string };

describe.each(storeKinds())('CDR filters and export on %s', (kind) => {
  let srv: TestServer;
  let cookie: string;
  beforeEach(async () => {
    srv = await startTestServer(kind);
    await addUser(srv.store, { username: 'admin', password: 'correct horse', isAdmin: true });
    const res = await send(`${srv.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    cookie = String(res.headers['set-cookie']).split(';')[0] as string;
    // 30 calls, 7 s apart from 2026-11-22 04:47:45 UTC; every third unanswered.
    await insertCdrRecords(srv.store, fixtureRecords(1, 30));
  });
  afterEach(async () => srv.close());

  const get = (path: string, headers: Record<string, string> = { cookie }) =>
    send(`${srv.url}${path}`, { headers });
  const data = async (
    query: string,
  ): Promise<{ data: Rec[]; total_pages: number; page: string; limit: string }> => {
    const res = await get(`/pbx/cdr/data?${query}`);
    expect(res.status, query).toBe(200);
    return res.json();
  };

  test('each filter selects what it names, and pages count the filtered set', async () => {
    const unanswered = await data('disposition=no%20answer&limit=1000');
    expect(unanswered.data.map((r) => r.db_id)).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
    expect((await data('source=4007')).data.map((r) => r.db_id)).toEqual([7]);
    expect((await data('destination=2012')).data.map((r) => r.db_id)).toEqual([12]);
    expect((await data('caller_id=CALLER%202&limit=100')).data.map((r) => r.db_id)).toEqual([
      2, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    ]);
    expect((await data('caller_id=100%25')).data).toEqual([]);
    const newest = await data('order=desc&limit=4&page=2&disposition=ANSWERED');
    // Answered, newest first: 29, 28, 26, 25 | 23, 22, 20, 19 | ...
    expect(newest.data.map((r) => r.db_id)).toEqual([23, 22, 20, 19]);
    expect([newest.total_pages, newest.page, newest.limit]).toEqual([5, '2', '4']);
    // Record i starts at 1795322858 + 7i: records 3..5 fall in [+21, +35].
    const range = await data(`from=${1795322858 + 21}&to=${1795322858 + 35}`);
    expect(range.data.map((r) => r.db_id)).toEqual([3, 4, 5]);
    const day = await data('from=2026-11-22&to=2026-11-22&limit=1000');
    expect(day.data).toHaveLength(30);
    expect((await data('from=2026-11-23')).data).toEqual([]);
  });

  test('without filters the answer is the seed contract, unchanged', async () => {
    const plain = await data('page=2&limit=7');
    expect(plain.data.map((r) => r.db_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect([plain.page, plain.limit, plain.total_pages]).toEqual(['2', '7', 5]);
  });

  test('a bad filter is a 400 naming it', async () => {
    for (const [query, message] of [
      ['from=yesterday', 'from: "yesterday" is not a date'],
      ['order=sideways', 'order: "sideways" is not asc or desc'],
      ['from=2026-11-23&to=2026-11-22', 'to: must not be before from'],
      ['source=a&source=b', 'source: give it once'],
    ] as const) {
      const res = await get(`/pbx/cdr/data?${query}`);
      expect(res.status).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
  });

  test('the export streams the filtered set as CSV or JSON, equal to the pulled records', async () => {
    const pulled = (await data('disposition=ANSWERED&order=desc&limit=1000')).data;
    const csv = await get('/pbx/cdr/export?format=csv&disposition=ANSWERED&order=desc');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="cdr-\d{4}-\d\d-\d\d\.csv"$/);
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => ({ ...r, db_id: Number(r.db_id) }))).toEqual(pulled);
    const json = await get('/pbx/cdr/export?format=json&disposition=ANSWERED&order=desc');
    expect(json.json()).toEqual(pulled);
    expect((await get('/pbx/cdr/export?format=xml')).status).toBe(400);
    const reader = await createToken(srv.store, { name: 'bi', scopes: ['cdr:read'] });
    const viaToken = await get('/pbx/cdr/export?format=json', { authorization: `Bearer ${reader.token}` });
    expect(viaToken.json()).toHaveLength(30);
    const geo = await createToken(srv.store, { name: 'router', scopes: ['geo:lookup'] });
    expect((await get('/pbx/cdr/export', { authorization: `Bearer ${geo.token}` })).status).toBe(403);
  });

  test('an export larger than a page arrives whole', async () => {
    await insertCdrRecords(
      srv.store,
      fixtureRecords(31, 2600).map((r) => ({ ...r, identity: `big-${r.identity}` })),
    );
    const json = await get('/pbx/cdr/export?format=json');
    const list = json.json() as Rec[];
    expect(list).toHaveLength(2600);
    expect(list.map((r) => r.db_id)).toEqual(Array.from({ length: 2600 }, (_, i) => i + 1));
  });
});
