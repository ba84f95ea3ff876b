// The console's pages in headless Debian chromium: an extension made on the Extensions page pulls
// with the key the page shows; an API token made on the Users page works and is refused once
// revoked; the call list filters and exports; the dashboard counts. Every page passes axe-core
// with no serious or critical violation at 360 and 1280 px, and is screenshotted at both widths
// into test-output/console/.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import selfsigned from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createDestination } from '../../src/cdr/push/index.js';
import { insertCdrRecords } from '../../src/cdr/record-store.js';
import { ADMIN_PASSWORD as SMS_ADMIN_PASSWORD, startSmsServer } from '../sms/api/support/sms-server.js';
import { fixtureRecords } from '../support/cdr-fixtures.js';
import { send } from '../support/https-client.js';
import { peerCertificatePem } from '../support/peer-certificate.js';
import { REPO_ROOT } from '../support/serve-process.js';
import type { TestServer } from '../support/test-server.js';
import { browserAvailable, launchChromium, openLoggedIn, startConsoleServer } from './support/browser.js';

const POLL = { timeout: 10_000 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = join(REPO_ROOT, 'test-output', 'console');
const PAGES = [
  '/',
  '/pbx/extensions',
  '/pbx/cdr',
  '/lte/sms',
  '/system/users',
  '/pbx/settings',
  '/pbx/settings?destination=2',
  '/pbx/settings/ingest',
  '/pbx/settings/system',
  '/routing/geo',
  '/system/webhooks',
];
const UPSTREAM = join(REPO_ROOT, '../shared/corpora/geo/upstream');

describe.skipIf(!browserAvailable)('console pages', () => {
  let browser: Browser;
  let server: TestServer;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());
  afterEach(async () => server?.close());

  async function axeViolations(page: Page): Promise<string[]> {
    // The console's CSP forbids inline scripts; axe is injected into a copy of the page's context.
    await page.evaluate(AXE);
    const found = await page.evaluate(async () => {
      const w = globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      };
      const r = await w.axe.run();
      return r.violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
    });
    return found.filter((v) => v.startsWith('serious') || v.startsWith('critical'));
  }

  test('an extension added on the page pulls with the key it shows; CDR Access can be taken away', async () => {
    server = await startConsoleServer();
    const page = await openLoggedIn(browser, server, '/pbx/extensions');
    page.on('dialog', (d) => d.accept());
    await page.getByLabel('Number').fill('1001');
    await page.getByLabel('Name').fill('Front desk');
    await page.getByLabel('CDR Access', { exact: true }).check();
    await page.getByRole('button', { name: 'Add extension' }).click();
    const key = page.locator('#credential code[data-field="key"]');
    await expect.poll(() => key.count(), POLL).toBe(1);
    const shown = (await key.textContent()) as string;
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    const pull = () =>
      send(`${server.url}/pbx/cdr/data`, {
        headers: { authorization: `Basic ${Buffer.from(`1001:${shown}`).toString('base64')}` },
      });
    expect((await pull()).status).toBe(200);
    // A number the API refuses: the error stands next to the field.
    await page.getByLabel('Number').fill('bad number!');
    await page.getByRole('button', { name: 'Add extension' }).click();
    await expect
      .poll(() => page.locator('#number-error').textContent(), POLL)
      .toContain('extension "bad number!"');
    await expect(page.getByLabel('Number').getAttribute('aria-invalid')).resolves.toBe('true');
    // Take CDR Access away in the list.
    await page.getByLabel('CDR Access for 1001').uncheck();
    await expect
      .poll(
        async () =>
          (await send(`${server.url}/api/extensions`, { headers: { cookie: await cookieOf(page) } })).json()
            .data[0].cdr_access,
        POLL,
      )
      .toBe(false);
  });

  test('an API token made on the Users page works, and is refused once revoked', async () => {
    server = await startConsoleServer();
    const page = await openLoggedIn(browser, server, '/system/users');
    await page.getByLabel('Name', { exact: true }).fill('billing');
    await page.getByLabel('admin', { exact: true }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const code = page.locator('#new-token');
    await expect.poll(() => code.count(), POLL).toBe(1);
    const token = (await code.textContent()) as string;
    const use = () => send(`${server.url}/api/extensions`, { headers: { authorization: `Bearer ${token}` } });
    expect((await use()).status).toBe(200);
    await page.locator('#tokens').getByRole('button', { name: 'Revoke' }).click();
    await expect
      .poll(() => page.locator('#tokens tbody tr').first().textContent(), POLL)
      .toContain('revoked');
    expect((await use()).status).toBe(401);
    // Keyboard only: the new-user form is reachable and submits with Enter.
    await page.getByLabel('Username', { exact: true }).focus();
    await page.keyboard.type('olga');
    await page.keyboard.press('Tab');
    await page.keyboard.type('olga password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#users tbody tr[data-username="olga"]').count(), POLL).toBe(1);
  });

  test('the call list filters, pages newest first, and exports what it shows', async () => {
    server = await startConsoleServer();
    await insertCdrRecords(server.store, fixtureRecords(1, 60));
    const page = await openLoggedIn(browser, server, '/pbx/cdr');
    await expect(page.locator('#records tbody tr').count()).resolves.toBe(50);
    await expect(page.getByText('Page 1 of 2 (60 records)').count()).resolves.toBe(1);
    await page.getByLabel('Disposition').selectOption('NO ANSWER');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/disposition=NO\+ANSWER/);
    await expect(page.locator('#records tbody tr').count()).resolves.toBe(20);
    const href = (await page.locator('#export-csv').getAttribute('href')) as string;
    const csv = await send(`${server.url}${href}`, { headers: { cookie: await cookieOf(page) } });
    expect(csv.text.trim().split('\n')).toHaveLength(21);
    await page.getByLabel('From (date)').fill('2030-01-01');
    await page.getByLabel('To (date)').fill('2029-01-01');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(() => page.locator('#f-to-error').textContent(), POLL)
      .toContain('to: must not be before from');
  });

  test('SMS: the counter follows the codec, a sent message goes from queued to delivered, a received one shows', async () => {
    const smsServer = await startSmsServer('sqlite');
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto(`${smsServer.url}/lte/sms`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill(SMS_ADMIN_PASSWORD);
      await Promise.all([
        page.waitForURL(`${smsServer.url}/lte/sms`),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      await expect(page.locator('#modem-state').textContent()).resolves.toBe('Modem: ready');
      // The modem's health as polled at its start: network, signal, SIM and storage.
      await smsServer.sms.refreshModemStatus();
      await page.reload();
      await expect(page.locator('#modem-status').textContent()).resolves.toMatch(
        /network\s*registered \(home\), Simulated Network\s*signal\s*-71 dBm \(4\/5\)\s*SIM\s*ready\s*storage\s*\d+ of \d+ used \(SM\)/,
      );
      await page.getByLabel('Message', { exact: true }).fill('x'.repeat(161));
      await expect
        .poll(() => page.locator('#counter').textContent(), POLL)
        .toBe('161 characters, 2 parts, GSM 7-bit');
      await page.getByLabel('Message', { exact: true }).fill('Grüße ☺');
      await expect
        .poll(() => page.locator('#counter').textContent(), POLL)
        .toBe('7 characters, 1 part, UCS-2 because of ☺');
      await page.getByLabel('To', { exact: true }).fill('+15551234567');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.locator('#send-status').textContent(), POLL)
        .toMatch(/^Message \d+: (queued|sent)/);
      await expect
        .poll(() => page.locator('#send-status').textContent(), { timeout: 20_000 })
        .toMatch(/^Message \d+: delivered$/);
      await expect(page.locator('#sent tbody tr').first().locator('.status').textContent()).resolves.toBe(
        'delivered',
      );
      // A bad number: the API's message stands next to the field.
      await page.getByLabel('To', { exact: true }).fill('call me');
      await page.getByLabel('Message', { exact: true }).fill('hello');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.locator('#to-error').textContent(), POLL).toMatch(/^to: /);
      // A message arriving on the simulated network shows after a reload.
      smsServer.simulator?.deliver('+4915112345678', 'Reply from the field');
      await expect
        .poll(
          async () => {
            await page.reload();
            return page.locator('#received tbody').textContent();
          },
          { timeout: 20_000 },
        )
        .toContain('Reply from the field');
      await context.close();
    } finally {
      await smsServer.close();
    }
  }, 60_000);

  test('Settings: the old path moves to /pbx/settings; the System tab shows the zone and the certificate, and replaces it', async () => {
    server = await startConsoleServer({ timeZone: 'Europe/Berlin', ownTls: true });
    const page = await openLoggedIn(browser, server, '/pbx/settings');
    const moved = await send(`${server.url}/pbx/settings/extra-configurations`, {
      headers: { cookie: await cookieOf(page) },
    });
    expect([moved.status, moved.headers.location]).toEqual([301, '/pbx/settings']);
    await expect(
      page.getByRole('link', { name: 'Extra Configurations' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await page.getByRole('link', { name: 'System', exact: true }).click();
    await page.waitForURL(`${server.url}/pbx/settings/system`);
    await expect(page.locator('#time-zone').textContent()).resolves.toBe('Europe/Berlin');
    await expect(page.locator('#certificate').textContent()).resolves.toMatch(/CN=.*self-signed/s);
    // Upload a new pair: a key of another certificate is refused next to the key field; the right one is served.
    const make = async (cn: string) => {
      const p = await selfsigned.generate([{ name: 'commonName', value: cn }], {
        keySize: 2048,
        algorithm: 'sha256',
      });
      return { cert: p.cert, key: p.private };
    };
    const fresh = await make('console.example.net');
    const other = await make('other.example.net');
    const file = (name: string, text: string) => ({
      name,
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(text),
    });
    await page.getByLabel('Certificate (PEM)').setInputFiles(file('cert.pem', fresh.cert));
    await page.getByLabel('Private key (PEM)').setInputFiles(file('key.pem', other.key));
    await page.getByRole('button', { name: 'Upload and serve' }).click();
    await expect
      .poll(() => page.locator('#tls-key-error').textContent(), POLL)
      .toMatch(/^key: does not belong/);
    await expect(page.locator('#tls-key').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Private key (PEM)').setInputFiles(file('key.pem', fresh.key));
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Upload and serve' }).click(),
    ]);
    await expect(page.locator('#certificate').textContent()).resolves.toMatch(/CN=console\.example\.net/);
    expect(new X509Certificate(await peerCertificatePem(server.url)).subject).toBe('CN=console.example.net');
    await page.getByRole('link', { name: 'Ingest sources' }).click();
    await expect(page.locator('#sources caption').textContent()).resolves.toBe('Sources and their state');
  });

  test('Geo: the loaded file and its lists show, a lookup answers, a bad path is refused next to its field, a good one loads', async () => {
    server = await startConsoleServer({ geo: { ip: join(UPSTREAM, 'geoip-only-cn-private.dat') } });
    const page = await openLoggedIn(browser, server, '/routing/geo');
    await expect(page.locator('#ip-path').inputValue()).resolves.toBe(
      join(UPSTREAM, 'geoip-only-cn-private.dat'),
    );
    await expect(page.locator('#ip-from').textContent()).resolves.toBe('from the serve flag');
    await expect(page.locator('#lists-ip tbody th').allTextContents()).resolves.toEqual(['CN', 'PRIVATE']);
    await page.getByLabel('Domain or IP address').fill('10.1.2.3');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.locator('#lookup-result').textContent(), POLL).toBe('10.1.2.3: PRIVATE');
    // No site file yet: a domain falls in no list.
    await page.getByLabel('Domain or IP address').fill('www.baidu.com');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => page.locator('#lookup-result').textContent(), POLL)
      .toBe('www.baidu.com: in no list');

    await page.getByLabel('Site file (geosite.dat)').fill(join(UPSTREAM, 'missing.dat'));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('#site-path-error').textContent(), POLL)
      .toMatch(/^Not saved: .*missing\.dat/);
    await expect(page.locator('#site-path').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Site file (geosite.dat)').fill(join(UPSTREAM, 'dlc.dat'));
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Save' }).click()]);
    await expect(page.locator('#site-from').textContent()).resolves.toBe('set here');
    await expect(page.locator('#lists-site tbody tr').count()).resolves.toBeGreaterThan(1000);
    await page.getByLabel('Domain or IP address').fill('www.baidu.com');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => page.locator('#lookup-result').textContent(), POLL)
      .toBe('www.baidu.com: BAIDU, CN, GEOLOCATION-CN');
    // Keyboard only: the lookup form submits with Enter.
    await page.getByLabel('Domain or IP address').fill('114.114.114.114');
    await page.getByLabel('Domain or IP address').press('Enter');
    await expect.poll(() => page.locator('#lookup-result').textContent(), POLL).toBe('114.114.114.114: CN');
  });

  test('Webhooks: refusals by their field, a secret shown once, rotation and removal', async () => {
    server = await startConsoleServer();
    const page = await openLoggedIn(browser, server, '/system/webhooks');
    await page.getByLabel('URL').fill('ftp://example.net/x');
    await page.getByLabel('sms:received').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect
      .poll(() => page.locator('#webhook-url-error').textContent(), POLL)
      .toMatch(/^url: must be http/);
    await page.getByLabel('URL').fill('https://crm.example.net/sms');
    await page.getByLabel('sms:received').uncheck();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => page.locator('#webhook-events-error').textContent(), POLL).toMatch(/^events: /);
    await page.getByLabel('sms:received').check();
    await page.getByLabel('modem:state').check();
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Add webhook' }).click()]);
    await expect
      .poll(() => page.locator('#new-secret').textContent(), POLL)
      .toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const first = await page.locator('#new-secret').textContent();
    await expect(page.locator('#webhooks tbody tr th').allTextContents()).resolves.toEqual([
      'https://crm.example.net/sms',
    ]);
    await expect(page.locator('#webhooks tbody td').first().textContent()).resolves.toBe(
      'sms:received, modem:state',
    );
    // Shown once: a reload does not show it again.
    await page.reload();
    await expect(page.locator('#new-secret').count()).resolves.toBe(0);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: /^Rotate the secret/ }).click(),
    ]);
    await expect.poll(() => page.locator('#new-secret').textContent(), POLL).toMatch(/^whsec_/);
    expect(await page.locator('#new-secret').textContent()).not.toBe(first);
    await expect(page.locator('#webhooks tbody').textContent()).resolves.toContain('signed (rotating)');
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: /^Remove webhook/ }).click(),
    ]);
    await expect(page.locator('#webhooks tbody tr').count()).resolves.toBe(0);
  });

  test('every page: no serious axe violation at 360 and 1280 px, screenshots of both', async () => {
    server = await startConsoleServer({
      geo: { ip: join(UPSTREAM, 'geoip-only-cn-private.dat') },
      ownTls: true,
    });
    await insertCdrRecords(server.store, fixtureRecords(1, 12));
    // A second push destination, failing since a minute ago: on the dashboard and its own page.
    await createDestination(
      server.store,
      { name: 'billing', enabled: true, url: 'http://127.0.0.1:9/b' },
      Date.now(),
    );
    await server.store.db
      .updateTable('cdr_push_state')
      .set({ failing_since_ms: Date.now() - 60_000 })
      .where('id', '=', 2)
      .execute();
    const page = await openLoggedIn(browser, server, '/');
    await expect(page.getByRole('heading', { name: 'Call records' }).count()).resolves.toBe(1);
    await expect(page.locator('#tile-cdr-push').locator('..').textContent()).resolves.toMatch(
      /destination 2 \(billing\)backlog 0, failing since \d{4}-/,
    );
    const context = await browser.newContext({ ignoreHTTPSErrors: true, bypassCSP: true });
    await context.addCookies(await page.context().cookies());
    const checked = await context.newPage();
    for (const width of [360, 1280]) {
      await checked.setViewportSize({ width, height: 900 });
      for (const path of PAGES) {
        await checked.goto(`${server.url}${path}`);
        expect(await axeViolations(checked), `${path} at ${width} px`).toEqual([]);
        const name = path === '/' ? 'dashboard' : path.slice(1).replace(/[^a-z0-9]+/g, '-');
        await checked.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
    }
    await context.close();
  }, 120_000);
});

async function cookieOf(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'bg_session');
  return `bg_session=${c?.value}`;
}
