import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addExtension, addUser } from '../../src/auth/index.js';
import { buildApp } from '../../src/server/app.js';
import { redactUrl } from '../../src/server/logger.js';
import type { Store } from '../../src/store/index.js';
import { openTestStore, type TestStore } from '../support/databases.js';

const KEY = createHash('sha256').update('s3cret').digest('hex');
let db: TestStore;
let store: Store;
const lines: string[] = [];
let app: Awaited<ReturnType<typeof buildApp>>['app'];

beforeAll(async () => {
  db = await openTestStore('sqlite');
  store = db.store;
  await addExtension(store, { number: '1001', secret: 's3cret', cdrAccess: true });
  await addUser(store, { username: 'admin', password: 'very-secret-pw', isAdmin: true });
  ({ app } = await buildApp({ store, logLevel: 'debug', logStream: { write: (l) => lines.push(l) } }));
});
afterAll(async () => {
  await app.close();
  await db.close();
});

test('keys, passwords, Authorization and cookies never reach the log; the URL key is redacted', async () => {
  await app.inject({ url: `/pbx/cdr/data?extension=1001&key=${KEY}` });
  await app.inject({ url: `/pbx/cdr/data?key=${KEY.toUpperCase()}&extension=1001&page=2` });
  await app.inject({
    url: '/pbx/cdr/data',
    headers: { authorization: `Basic ${Buffer.from(`1001:${KEY}`).toString('base64')}` },
  });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: 'very-secret-pw' },
  });
  const token = String(login.headers['set-cookie']).split(';')[0]?.split('=')[1] as string;
  await app.inject({ url: '/api/me', headers: { cookie: `bg_session=${token}` } });
  await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: 'wrong-secret-pw' },
  });

  const log = lines.join('');
  expect(lines.length).toBeGreaterThan(6);
  expect(log).toContain('key=***');
  for (const secret of [
    KEY,
    KEY.toUpperCase(),
    's3cret',
    'very-secret-pw',
    'wrong-secret-pw',
    token,
    'Basic ',
  ]) {
    expect(log).not.toContain(secret);
  }
});

test('redactUrl hides every secret-bearing parameter and keeps the rest', () => {
  expect(redactUrl('/pbx/cdr/data?page=2&key=abc&extension=1001&KEY=def')).toBe(
    '/pbx/cdr/data?page=2&key=***&extension=1001&KEY=***',
  );
  expect(redactUrl('/x?auth=pw&token=t&password=p&api_key=k&secret=s')).toBe(
    '/x?auth=***&token=***&password=***&api_key=***&secret=***',
  );
});
