// The SDK's CDR pull client against the real server over real TLS on loopback: pages, the
// iterator over many records (each once, in order, from any start), all three auth modes, the
// server's errors as ClientError, and certificate trust (untrusted fails clearly; with ca it works).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addExtension, addUser } from '../../src/auth/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import {
  type CdrPullAuth,
  CdrPullClient,
  type CdrWireRecord,
  loginAdminSession,
} from '../../src/client/index.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { peerCertificatePem } from '../support/peer-certificate.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { caught } from './support.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const KEY = sha256('pull-secret-1');
const COUNT = 2345;

async function collect(it: AsyncIterable<CdrWireRecord>): Promise<number[]> {
  const ids: number[] = [];
  for await (const r of it) ids.push(r.db_id);
  return ids;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('CdrPullClient against branchgate over TLS', () => {
  let srv: TestServer;
  let ca: string;
  let cookie: string;
  const clients: CdrPullClient[] = [];
  const client = (auth: CdrPullAuth, extra: { ca?: string; insecure?: boolean; timeoutMs?: number } = {}) => {
    const c = new CdrPullClient({ url: srv.url, auth, ca, ...extra });
    clients.push(c);
    return c;
  };
  const basic: CdrPullAuth = { kind: 'basic', extension: '2001', key: KEY };

  beforeAll(async () => {
    srv = await startTestServer('sqlite', {
      failureLimits: { maxFailures: 1_000_000, windowSeconds: 60, blockSeconds: 60 },
    });
    await addExtension(srv.store, { number: '2001', secret: 'pull-secret-1', cdrAccess: true });
    await addExtension(srv.store, { number: '2002', secret: 'no-access-2', cdrAccess: false });
    await addUser(srv.store, { username: 'admin', password: 'admin-pass-1', isAdmin: true });
    await addUser(srv.store, { username: 'bob', password: 'bob-pass-12', isAdmin: false });
    await insertCdrRecords(srv.store, fixtureRecords(1, COUNT));
    ca = await peerCertificatePem(srv.url);
    cookie = await loginAdminSession({ url: srv.url, username: 'admin', password: 'admin-pass-1', ca });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await srv?.close();
  });

  test('one page carries the contract envelope as numbers and typed records', async () => {
    const page = await client(basic).getPage({ page: 3, limit: 50 });
    expect(page.page).toBe(3);
    expect(page.limit).toBe(50);
    expect(page.totalPages).toBe(Math.ceil(COUNT / 50));
    expect(page.records.map((r) => r.db_id)).toEqual(range(101, 150));
    expect(page.records[0]).toMatchObject({
      call_id: expect.any(String),
      disposition: expect.stringMatching(/^(ANSWERED|NO ANSWER)$/),
      timestamp: expect.stringMatching(/^\d+$/),
    });
  });

  test('a limit above 1000 comes back clamped, and a page past the end is empty', async () => {
    const c = client(basic);
    expect((await c.getPage({ page: 1, limit: 5000 })).limit).toBe(1000);
    const past = await c.getPage({ page: 999, limit: 100 });
    expect(past.records).toEqual([]);
    expect(past.totalPages).toBe(Math.ceil(COUNT / 100));
  });

  test('basic, query and an admin session each read every record once, in order', async () => {
    const auths: CdrPullAuth[] = [
      basic,
      { kind: 'query', extension: '2001', key: KEY.toUpperCase() },
      { kind: 'session', cookie },
    ];
    for (const auth of auths) {
      expect(await collect(client(auth).records({ limit: 1000 }))).toEqual(range(1, COUNT));
    }
  });

  test('iterates from any start point with any page size, each record once', async () => {
    const c = client(basic);
    for (const [fromDbId, limit] of [
      [1, 7],
      [1234, 100],
      [1001, 1000],
      [1000, 1000],
      [2345, 10],
      [2300, 999],
    ] as const) {
      expect(await collect(c.records({ fromDbId, limit }))).toEqual(range(fromDbId, COUNT));
    }
    expect(await collect(c.records({ fromDbId: COUNT + 1, limit: 100 }))).toEqual([]);
  });

  test('pages() reports where it is, so a caller can show progress', async () => {
    const seen: Array<[number, number, number]> = [];
    for await (const p of client(basic).pages({ fromDbId: 2001, limit: 100 })) {
      seen.push([p.page, p.totalPages, p.records.length]);
    }
    expect(seen).toEqual([
      [21, 24, 100],
      [22, 24, 100],
      [23, 24, 100],
      [24, 24, 45],
    ]);
  });

  test('a wrong key is ClientError 401 with the server code; no CDR Access or a non-admin session is 403', async () => {
    const wrong = await caught(client({ kind: 'basic', extension: '2001', key: sha256('nope') }).getPage());
    expect(wrong.code).toBe('http_status');
    expect(wrong.status).toBe(401);
    expect(wrong.serverCode).toBe('unauthorized');
    expect(wrong.serverMessage).toEqual(expect.any(String));
    expect(wrong.request).toBe(`GET ${srv.url}/pbx/cdr/data`);

    const queryKey = sha256('also-wrong');
    const viaQuery = await caught(
      client({ kind: 'query', extension: '2001', key: queryKey }).getPage({ limit: 5 }),
    );
    expect(viaQuery.status).toBe(401);
    expect(viaQuery.request).toBe(`GET ${srv.url}/pbx/cdr/data?limit=5&extension=2001&key=***`);
    expect(viaQuery.message).not.toContain(queryKey);

    const noAccess = await caught(
      client({ kind: 'basic', extension: '2002', key: sha256('no-access-2') }).getPage(),
    );
    expect([noAccess.status, noAccess.serverCode]).toEqual([403, 'forbidden']);

    const bobCookie = await loginAdminSession({ url: srv.url, username: 'bob', password: 'bob-pass-12', ca });
    const notAdmin = await caught(client({ kind: 'session', cookie: bobCookie }).getPage());
    expect([notAdmin.status, notAdmin.serverCode]).toEqual([403, 'forbidden']);
  });

  test('a wrong admin password at login is ClientError 401', async () => {
    const err = await caught(
      loginAdminSession({ url: srv.url, username: 'admin', password: 'wrong-pass', ca }),
    );
    expect([err.status, err.serverCode]).toEqual([401, 'unauthorized']);
    expect(err.message).not.toContain('wrong-pass');
  });

  test('a page or limit the server refuses is ClientError 400 with its bad_parameter message', async () => {
    const c = client(basic);
    for (const [query, name] of [
      [{ page: 0 }, 'page'],
      [{ limit: -1 }, 'limit'],
      [{ page: 1.5 }, 'page'],
    ] as const) {
      const err = await caught(c.getPage(query));
      expect([err.code, err.status, err.serverCode]).toEqual(['http_status', 400, 'bad_parameter']);
      expect(err.serverMessage).toMatch(new RegExp(`^${name}: `));
      expect(err.message).toContain(`HTTP 400 bad_parameter: ${name}: `);
    }
    const local = await caught(collect(c.records({ limit: 1001 })));
    expect([local.code, local.status]).toEqual(['bad_argument', null]);
  });

  test('an untrusted certificate fails clearly; with its certificate as ca, or insecure, it works', async () => {
    const untrusted = new CdrPullClient({ url: srv.url, auth: basic });
    clients.push(untrusted);
    const err = await caught(untrusted.getPage());
    expect(err.code).toBe('tls');
    expect(err.status).toBeNull();
    expect(err.message).toMatch(
      /certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/,
    );
    expect(err.message).toContain('--ca');
    expect((await client(basic).getPage({ limit: 1 })).records).toHaveLength(1);
    const insecure = new CdrPullClient({ url: srv.url, auth: basic, insecure: true });
    clients.push(insecure);
    expect((await insecure.getPage({ limit: 1 })).records).toHaveLength(1);
  });

  test('a refused connection and a silent server are ClientErrors naming the request', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const c = new CdrPullClient({ url: `https://127.0.0.1:${port}`, auth: basic, timeoutMs: 300 });
      clients.push(c);
      const timeout = await caught(c.getPage());
      expect(timeout.code).toBe('timeout');
      expect(timeout.message).toBe(
        `GET https://127.0.0.1:${port}/pbx/cdr/data: no complete answer within 300 ms`,
      );
    } finally {
      silent.close();
    }
    const closedPort = port;
    const refused = new CdrPullClient({
      url: `https://127.0.0.1:${closedPort}`,
      auth: basic,
      timeoutMs: 2000,
    });
    clients.push(refused);
    const err = await caught(refused.getPage());
    expect(err.code).toBe('connection');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});

describe('CdrPullClient when rows were deleted by hand (gaps in db_id)', () => {
  let srv: TestServer;
  let client: CdrPullClient;
  beforeAll(async () => {
    srv = await startTestServer('sqlite');
    await addExtension(srv.store, { number: '2001', secret: 'pull-secret-1', cdrAccess: true });
    await insertCdrRecords(srv.store, fixtureRecords(1, 300));
    await srv.store.db.deleteFrom('cdr').where('db_id', '>=', 50).where('db_id', '<', 150).execute();
    await srv.store.db.deleteFrom('cdr').where('db_id', 'in', [7, 201, 250, 300]).execute();
    client = new CdrPullClient({
      url: srv.url,
      auth: { kind: 'basic', extension: '2001', key: KEY },
      insecure: true,
    });
  });
  afterAll(async () => {
    client?.close();
    await srv?.close();
  });

  test('still yields every remaining record from the start point once, in order', async () => {
    const remaining = range(1, 300).filter(
      (id) => !(id >= 50 && id < 150) && ![7, 201, 250, 300].includes(id),
    );
    for (const [fromDbId, limit] of [
      [1, 50],
      [120, 50],
      [150, 20],
      [202, 7],
      [299, 1000],
    ] as const) {
      expect(await collect(client.records({ fromDbId, limit }))).toEqual(
        remaining.filter((id) => id >= fromDbId),
      );
    }
  });
});
