// Fuzzed query strings and headers against the pull route never give a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addExtension } from '../../src/auth/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { buildApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { openTestStore, type TestStore } from '../support/databases.js';

let db: TestStore;
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>['app'];

beforeAll(async () => {
  db = await openTestStore('sqlite');
  store = db.store;
  await addExtension(store, { number: '1001', secret: 's3cret', cdrAccess: true });
  await insertCdrRecords(store, fixtureRecords(1, 30));
  // Generous failure limits: the fuzzer fails authentication on purpose, thousands of times.
  ({ app } = await buildApp({
    store,
    logLevel: 'silent',
    failureLimits: { maxFailures: 1_000_000, windowSeconds: 1, blockSeconds: 1 },
  }));
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const KEY = 'c0b7b5b6a0d0b3a1c02d0e0b0c3e1a7d1fd9d6d0d1a1e0b7b5b6a0d0b3a1c02d';
const paramName = fc.constantFrom(
  'page',
  'limit',
  'extension',
  'key',
  'x',
  'page[]',
  'limit[a]',
  '',
  '__proto__',
);
const paramValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '1e3',
    '0x10',
    '99999999999999999999999999',
    '1001',
    KEY,
    '%00',
    '%ZZ',
    '1.0',
  ),
);
const query = fc
  .array(fc.tuple(paramName, paramValue), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
const rawQuery = fc.string({ unit: fc.constantFrom('a', '=', '&', '%', '[', ']', '1', '.', '+', ' ') });
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const authorization = fc.oneof(
  headerValue,
  headerValue.map((v) => `Basic ${Buffer.from(v).toString('base64')}`),
  fc.constant(`Basic ${Buffer.from(`1001:${KEY}`).toString('base64')}`),
  headerValue.map((v) => `Basic ${v}`),
);

test('fuzzed query strings and headers never give a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(query, rawQuery),
      fc.option(authorization, { nil: undefined }),
      fc.option(headerValue, { nil: undefined }),
      async (q, auth, cookie) => {
        const headers: Record<string, string> = {};
        if (auth !== undefined) headers.authorization = auth;
        if (cookie !== undefined) headers.cookie = cookie;
        const res = await app.inject({ method: 'GET', url: `/pbx/cdr/data?${q}`, headers });
        expect(res.statusCode, `${q} ${JSON.stringify(headers)}: ${res.body}`).toBeLessThan(500);
        const body = res.json();
        if (res.statusCode === 200) expect(Array.isArray(body.data)).toBe(true);
        else expect(typeof body.error.code).toBe('string');
      },
    ),
    { numRuns: 1500 },
  );
});
