// PBX > Settings > Extra Configurations > CDR API in headless chromium against a real HTTPS server
// and real receivers: saving (secrets write-only), settings errors, clearing a secret, "send test
// record", replay, the delivery log after a real delivery, and HTML in values shown as text.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type CdrReceiver, HttpSender, runDelivery, startCdrReceiver } from '../../src/cdr/push/index.js';
import { CDR_WIRE_FIELDS } from '../../src/cdr/record.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { TimeFormatter } from '../../src/cdr/wire-record.js';
import { systemClock } from '../../src/shared/clock.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { send } from '../support/https-client.js';
import type { TestServer } from '../support/test-server.js';
import { browserAvailable, launchChromium, openLoggedIn, startConsoleServer } from './support/browser.js';

const PAGE = '/pbx/settings';
// Answers can be slow while the rest of the suite runs alongside.
const POLL = { timeout: 10_000 };

/** A plain HTTP server giving every request the same answer (for answers the receiver never gives). */
async function startFixedAnswer(
  status: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, headers).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cdr`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!browserAvailable)('admin console: CDR API settings page', () => {
  let browser: Browser;
  let server: TestServer;
  let receiver: CdrReceiver;
  let page: Page;
  let cookie: string;
  let other: CdrReceiver | undefined;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    server = await startConsoleServer();
    receiver = await startCdrReceiver({ apiKey: 'K-123' });
    page = await openLoggedIn(browser, server, PAGE);
    const session = (await page.context().cookies()).find((c) => c.name === 'bg_session');
    cookie = `bg_session=${session?.value}`;
  });
  afterEach(async () => {
    await page.context().close();
    for (const close of closers.splice(0)) await close();
    await receiver.close();
    await server.close();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await send(`${server.url}${path}`, {
      method,
      headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: res.json() };
  };
  const stored = async () => (await api('GET', '/api/settings/cdr-push')).body;
  const reload = async () => {
    await page.reload();
  };
  const text = (id: string) => page.locator(`#${id}`).textContent();
  const save = async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    // Polled from here: a string predicate in the page would be eval, which the page's CSP forbids.
    await expect
      .poll(
        async () =>
          (await text('settings-saved')) !== '' || (await page.locator('#settings-error').isVisible()),
        POLL,
      )
      .toBe(true);
  };
  const focusedId = () => page.locator(':focus').getAttribute('id');

  test('saves the form and shows secrets only as set, never their values', async () => {
    expect(await page.title()).toBe('PBX > Settings > Extra Configurations - branchgate');
    await page.getByLabel('Enable CDR Log To API').check();
    await page.getByLabel('API URL').fill(receiver.url);
    await page.getByLabel('Method').selectOption('PUT');
    await page.getByLabel('API Key', { exact: true }).fill('K-123');
    for (const f of CDR_WIRE_FIELDS) {
      if (!['db_id', 'call_id', 'disposition'].includes(f))
        await page.getByLabel(f, { exact: true }).uncheck();
    }
    await page.getByLabel('Interval (seconds)').fill('30');
    await page.getByLabel('Batch size').fill('5');
    await page.getByLabel(/^Send history/).check();
    await page.getByLabel('Record refused again and again').selectOption('park');
    await page.getByLabel('Refusals before it counts').fill('2');
    await save();
    expect(await text('settings-saved')).toBe('Saved.');

    expect(await stored()).toEqual({
      name: '',
      enabled: true,
      url: receiver.url,
      method: 'PUT',
      api_key_set: true,
      bearer_token_set: false,
      username: '',
      password_set: false,
      fields: ['db_id', 'call_id', 'disposition'],
      interval_seconds: 30,
      batch_size: 5,
      send_history: true,
      alert_after_seconds: 600,
      signing_secret_set: false,
      signing_rotating: false,
      poison_policy: 'park',
      poison_after: 2,
    });
    // The page shows the state, and the secret's input is empty again.
    expect(await text('api_key-state')).toBe('set');
    expect(await page.getByLabel('API Key', { exact: true }).inputValue()).toBe('');

    await reload();
    expect(await page.getByLabel('API URL').inputValue()).toBe(receiver.url);
    expect(await page.getByLabel('Method').inputValue()).toBe('PUT');
    expect(await page.getByLabel('Interval (seconds)').inputValue()).toBe('30');
    expect(await page.getByLabel('Batch size').inputValue()).toBe('5');
    expect(await page.getByLabel('Enable CDR Log To API').isChecked()).toBe(true);
    expect(await page.getByLabel('db_id', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('caller_id', { exact: true }).isChecked()).toBe(false);
    expect(await text('api_key-state')).toBe('set');
    expect(await text('bearer_token-state')).toBe('not set');
    expect(await text('password-state')).toBe('not set');
    expect(await page.getByLabel('API Key', { exact: true }).getAttribute('placeholder')).toBe(
      'set; leave empty to keep it',
    );
    expect(await page.content()).not.toContain('K-123');
  });

  test.each([
    {
      what: 'Bearer and Basic together',
      fill: async (p: Page) => {
        await p.getByLabel('Bearer Token', { exact: true }).fill('T-1');
        await p.getByLabel('Username').fill('crm');
        await p.getByLabel('Password', { exact: true }).fill('pw');
      },
      field: 'bearer_token',
      message: /^Not saved: bearer_token: Bearer token and Basic username\/password cannot both be set/,
    },
    {
      what: 'interval 0',
      fill: (p: Page) => p.getByLabel('Interval (seconds)').fill('0'),
      field: 'interval_seconds',
      message: /^Not saved: interval_seconds: must be between 1 and 86400, not 0$/,
    },
    {
      what: 'an ftp:// URL',
      fill: (p: Page) => p.getByLabel('API URL').fill('ftp://crm.example/cdr'),
      field: 'url',
      message: /^Not saved: url: must be an http:\/\/ or https:\/\/ URL, not ftp:\/\/$/,
    },
  ])('$what is shown as the API error naming the field, and nothing is changed', async (c) => {
    await api('PUT', '/api/settings/cdr-push', { url: receiver.url, api_key: 'K-123', interval_seconds: 45 });
    await reload();
    const before = await stored();
    await c.fill(page);
    await save();
    const alert = page.locator('#settings-error');
    expect(await alert.isVisible()).toBe(true);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.textContent()).toMatch(c.message);
    // The named field is marked and has the focus.
    expect(await page.locator(`#${c.field}`).getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId()).toBe(c.field);
    expect(await page.locator(`#${c.field}`).getAttribute('aria-describedby')).toMatch(
      /(^| )settings-error$/,
    );
    expect(await text('settings-saved')).toBe('');
    expect(await stored()).toEqual(before);
  });

  test('a secret is kept when left empty and removed with its Clear box', async () => {
    await api('PUT', '/api/settings/cdr-push', {
      url: receiver.url,
      api_key: 'K-123',
      username: 'crm',
      password: 'pw',
    });
    await reload();
    expect(await text('api_key-state')).toBe('set');
    expect(await text('password-state')).toBe('set');

    // Saving with the secret inputs empty changes no secret.
    await page.getByLabel('Batch size').fill('2');
    await save();
    expect(await stored()).toMatchObject({ api_key_set: true, password_set: true, batch_size: 2 });

    await page.getByLabel('Clear API Key').check();
    await save();
    expect(await text('settings-saved')).toBe('Saved.');
    expect(await text('api_key-state')).toBe('not set');
    expect(await page.getByLabel('Clear API Key').isChecked()).toBe(false);
    expect(await stored()).toMatchObject({ api_key_set: false, password_set: true, username: 'crm' });

    // Switching from Basic to Bearer: clear the password and the username, type the token.
    await page.getByLabel('Clear Password').check();
    await page.getByLabel('Username').fill('');
    await page.getByLabel('Bearer Token', { exact: true }).fill('T-1');
    await save();
    expect(await stored()).toMatchObject({ bearer_token_set: true, password_set: false, username: '' });
    await reload();
    expect(await text('bearer_token-state')).toBe('set');
    expect(await text('password-state')).toBe('not set');
  });

  test('"Send test record" shows the receiver\'s answer, a refusal, and a missing URL', async () => {
    const result = page.locator('#test-result');
    const sendTest = async () => {
      await page.getByRole('button', { name: 'Send test record' }).click();
      await expect.poll(() => page.locator('#send-test').isEnabled(), POLL).toBe(true);
    };
    await sendTest();
    expect(await result.textContent()).toBe('Not sent: url: set the receiver URL first');

    await api('PUT', '/api/settings/cdr-push', { url: receiver.url, api_key: 'K-123' });
    await sendTest();
    expect(await result.textContent()).toMatch(/^Acknowledged: HTTP 200 in \d+ ms/);
    expect(receiver.records).toHaveLength(1);
    expect(receiver.records[0]?.call_id).toMatch(/^branchgate-test-\d+$/);

    await api('PUT', '/api/settings/cdr-push', { api_key: 'wrong' });
    await sendTest();
    expect(await result.textContent()).toMatch(/^Failed: HTTP 401 in \d+ ms \(HTTP 401\)/);
    expect(receiver.records).toHaveLength(1);
  });

  test('an answer with HTML in it is shown as text', async () => {
    const evil = await startFixedAnswer(
      500,
      { 'content-type': 'text/html' },
      '<script>document.title="pwned"</script><b>bold</b>',
    );
    closers.push(evil.close);
    await api('PUT', '/api/settings/cdr-push', { url: evil.url });
    await page.getByRole('button', { name: 'Send test record' }).click();
    const result = page.locator('#test-result');
    await expect.poll(() => result.textContent(), POLL).toContain('Answer starts:');
    expect(await result.textContent()).toMatch(
      /^Failed: HTTP 500 in \d+ ms \(HTTP 500\)Answer starts: <script>document\.title="pwned"<\/script><b>bold<\/b>$/,
    );
    expect(await result.locator('script, b').count()).toBe(0);
    expect(await page.title()).toBe('PBX > Settings > Extra Configurations - branchgate');
  });

  test('replay sets the next run back to a db_id and shows errors from the API', async () => {
    await insertCdrRecords(server.store, fixtureRecords(1, 5));
    await api('PUT', '/api/settings/cdr-push', { enabled: true, url: receiver.url, api_key: 'K-123' });
    await reload();
    expect(await text('status-acked')).toBe('5');
    expect(await text('status-backlog')).toBe('0');

    const replay = async (value: string) => {
      await page.locator('#replay-result').evaluate((el) => {
        el.textContent = '';
      });
      await page.getByLabel('Replay from db_id').fill(value);
      await page.getByRole('button', { name: 'Replay' }).click();
      await expect.poll(() => text('replay-result'), POLL).not.toBe('');
      return text('replay-result');
    };
    expect(await replay('2')).toBe('The next run sends again from db_id 2; backlog 4 record(s).');
    expect(await text('status-backlog')).toBe('4');
    expect(await text('status-acked')).toBe('1');
    expect((await api('GET', '/api/cdr-push/log')).body).toMatchObject({
      last_acknowledged_db_id: 1,
      backlog: 4,
    });

    expect(await replay('0')).toBe(
      'Not replayed: from_db_id: give a positive integer db_id to send again from',
    );
    expect(await replay('')).toMatch(/^Not replayed: from_db_id: /);
    expect((await api('GET', '/api/cdr-push/log')).body).toMatchObject({
      last_acknowledged_db_id: 1,
      backlog: 4,
    });
  });

  test('the delivery log lists real deliveries and a failure, with HTML in the error shown as text', async () => {
    await insertCdrRecords(server.store, fixtureRecords(1, 3));
    await api('PUT', '/api/settings/cdr-push', {
      enabled: true,
      send_history: true,
      url: receiver.url,
      api_key: 'K-123',
    });
    const sender = new HttpSender({});
    closers.push(async () => sender.close());
    const ctx = { store: server.store, sender, time: new TimeFormatter(), clock: systemClock };
    expect(await runDelivery(ctx)).toMatchObject({ outcome: 'drained', acknowledged: 3 });
    expect(receiver.records.map((r) => r.db_id)).toEqual([1, 2, 3]);

    // Then a receiver that redirects to a location with markup in it.
    const evil = await startFixedAnswer(307, { location: '/<script>document.title="pwned"</script>' }, '');
    closers.push(evil.close);
    await api('PUT', '/api/settings/cdr-push', { url: evil.url });
    await insertCdrRecords(server.store, fixtureRecords(4, 4));
    expect(await runDelivery(ctx)).toMatchObject({ outcome: 'failed', acknowledged: 0 });

    await reload();
    expect(await text('status-enabled')).toBe('enabled');
    expect(await text('status-backlog')).toBe('1');
    expect(await text('status-acked')).toBe('3');
    expect(await text('status-failing')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const rows = await page
      .locator('#attempts tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toHaveLength(4);
    // Newest first: the redirect, then the three deliveries (db_ids 3, 2, 1).
    const [failed, ...ok] = rows;
    expect(failed?.slice(1, 5)).toEqual(['delivery', '4', '1', '307']);
    expect(failed?.[6]).toBe('HTTP 307 redirect to /<script>document.title="pwned"</script> not followed');
    expect(ok.map((r) => r.slice(1, 5))).toEqual([
      ['delivery', '3', '1', '200'],
      ['delivery', '2', '1', '200'],
      ['delivery', '1', '1', '200'],
    ]);
    for (const r of rows) {
      expect(r[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r[5]).toMatch(/^\d+ ms$/);
    }
    expect(ok.map((r) => r[6])).toEqual(['', '', '']);
    expect(await page.locator('#attempts script').count()).toBe(0);
    expect(await page.title()).toBe('PBX > Settings > Extra Configurations - branchgate');
  });

  test('a username with markup is saved and shown back as the same text', async () => {
    const name = '<script>document.title="pwned"</script>"\'&';
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Password', { exact: true }).fill('pw');
    await save();
    expect(await text('settings-saved')).toBe('Saved.');
    expect((await stored()).username).toBe(name);
    await reload();
    expect(await page.getByLabel('Username').inputValue()).toBe(name);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.title()).toBe('PBX > Settings > Extra Configurations - branchgate');
  });

  test('every control has a label, and the form is used from the keyboard alone', async () => {
    const unlabelled = await page
      .locator('input, select')
      .evaluateAll((els) =>
        els
          .filter(
            (el) => ((el as unknown as { labels: { length: number } | null }).labels?.length ?? 0) === 0,
          )
          .map((el) => el.id),
      );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('input, select').count()).toBeGreaterThan(25);

    // Tab from the Method select to the API Key input, type, Enter in a text input submits.
    await page.getByLabel('Method').focus();
    await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('api_key');
    await page.keyboard.type('K-123');
    await page.getByLabel('API URL').focus();
    await page.keyboard.type(receiver.url);
    await page.keyboard.press('Enter');
    await expect.poll(() => text('settings-saved'), POLL).toBe('Saved.');
    expect(await stored()).toMatchObject({ url: receiver.url, api_key_set: true });

    // Space toggles a field checkbox; the test button works with Enter.
    await page.getByLabel('caller_id', { exact: true }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await stored()).fields.includes('caller_id'), POLL).toBe(false);
    await page.getByRole('button', { name: 'Send test record' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => text('test-result'), POLL).toMatch(/^Acknowledged: HTTP 200/);
  });

  test('a second destination is added, set, tested and removed from the page; destination 1 is untouched', async () => {
    await page.getByLabel('API URL').fill(receiver.url);
    await save();
    const before = await stored();
    other = await startCdrReceiver({ bearer: 'B-77' });
    closers.push(() => (other as CdrReceiver).close());

    await page.getByLabel("New destination's name").fill('billing');
    await Promise.all([
      page.waitForURL(/destination=2$/),
      page.getByRole('button', { name: 'Add destination' }).click(),
    ]);
    expect(await page.getByRole('heading', { name: 'CDR API: destination 2 (billing)' }).count()).toBe(1);
    await page.getByLabel('Enable CDR Log To API').check();
    await page.getByLabel('API URL').fill(other.url);
    await page.getByLabel('Bearer Token', { exact: true }).fill('B-77');
    await page.getByLabel('Name', { exact: true }).fill('billing system');
    await page.getByLabel('Signatures').selectOption('generate');
    await page.getByLabel(/^Alert after/).fill('120');
    await save();
    expect(await text('settings-saved')).toBe('Saved.');
    // The new secret is shown this once; the receiver checks deliveries with it.
    const shown = (await text('signing-secret')) ?? '';
    expect(shown).toMatch(/whsec_[A-Za-z0-9+/=]+$/);
    expect(await text('signing-state')).toBe('signed');
    const port = other.port;
    await other.close();
    other = await startCdrReceiver({ port, bearer: 'B-77', secrets: [shown.slice(shown.indexOf('whsec_'))] });
    const two = (await api('GET', '/api/cdr-push/destinations/2')).body;
    expect(two).toMatchObject({
      id: 2,
      name: 'billing system',
      enabled: true,
      url: other.url,
      bearer_token_set: true,
      signing_secret_set: true,
      alert_after_seconds: 120,
    });
    expect(two.status).toMatchObject({ enabled: true, backlog: 0, parked: 0 });
    expect(await stored()).toEqual(before);

    // The test record goes to this destination's receiver, with its credentials.
    await page.getByRole('button', { name: 'Send test record' }).click();
    await expect.poll(() => text('test-result'), POLL).toMatch(/^Acknowledged: HTTP 200/);
    expect(other.requests).toHaveLength(1);
    expect(receiver.requests).toHaveLength(0);

    // Both are listed; the list links each destination's page.
    await page.reload();
    const rows = page.locator('#destinations tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('billing system (destination 2)');
    expect(await rows.nth(1).textContent()).toContain(other.url);

    page.once('dialog', (d) => d.accept());
    await Promise.all([
      page.waitForURL(/\/pbx\/settings$/),
      page.getByRole('button', { name: 'Remove destination 2' }).click(),
    ]);
    expect(await page.locator('#destinations tbody tr').count()).toBe(1);
    expect((await api('GET', '/api/cdr-push/destinations/2')).status).toBe(404);
    expect(await stored()).toEqual(before);
  });
});
