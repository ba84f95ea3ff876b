// The admin console's login, logout and page guard, in headless chromium against a real HTTPS
// server: redirects to /login and back, the visible errors (wrong password, 429), security headers.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { addUser } from '../../src/auth/index.js';
import { send } from '../support/https-client.js';
import type { TestServer } from '../support/test-server.js';
import {
  ADMIN_PASSWORD,
  browserAvailable,
  launchChromium,
  openLoggedIn,
  startConsoleServer,
} from './support/browser.js';

const PAGE = '/pbx/settings';
// Answers can be slow while the rest of the suite runs alongside.
const POLL = { timeout: 10_000 };
const TITLE = 'PBX > Settings > Extra Configurations';

describe.skipIf(!browserAvailable)('admin console login', () => {
  let browser: Browser;
  let server: TestServer | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
    await server?.close();
    server = undefined;
  });

  const newPage = async (): Promise<Page> =>
    (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();

  const submitLogin = async (page: Page, username: string, password: string) => {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  test('a page asked for without a session goes to the login page, and there after logging in', async () => {
    server = await startConsoleServer();
    const page = await newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });

    const first = await page.goto(`${server.url}${PAGE}`);
    expect(first?.url()).toBe(`${server.url}/login?next=${encodeURIComponent(PAGE)}`);
    await expect(page.title()).resolves.toBe('Log in - branchgate');

    await submitLogin(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(`${server.url}${PAGE}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(TITLE);
    await expect(page.getByRole('heading', { name: 'CDR API' }).isVisible()).resolves.toBe(true);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'bg_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    // No CSP violation, script error or failed request on either page.
    expect(problems).toEqual([]);
  });

  test('a wrong password shows an error on the login page and logs nobody in', async () => {
    server = await startConsoleServer();
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await submitLogin(page, 'admin', 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe('Login failed: wrong username or password.');
    expect(page.url()).toBe(`${server.url}/login`);
    expect(await page.context().cookies()).toEqual([]);

    // Empty fields are refused in the page, before any request.
    await page.getByLabel('Password').fill('');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(alert.textContent()).resolves.toBe('Enter a username and a password.');
  });

  test('after too many failed logins the page says the client is blocked (429)', async () => {
    server = await startConsoleServer({
      failureLimits: { maxFailures: 2, windowSeconds: 60, blockSeconds: 60 },
    });
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    const alert = page.getByRole('alert');
    for (let i = 0; i < 2; i++) {
      await submitLogin(page, 'admin', `wrong-${i}`);
      await expect.poll(() => alert.textContent(), POLL).toBe('Login failed: wrong username or password.');
      await alert.evaluate((el) => {
        el.hidden = true;
      });
    }
    // Blocked now, even with the right password.
    await submitLogin(page, 'admin', ADMIN_PASSWORD);
    await expect
      .poll(() => alert.textContent(), POLL)
      .toMatch(/^Login blocked: too many failed logins; try again in \d+ s\.$/);
    expect(page.url()).toBe(`${server.url}/login`);
  });

  test('GET / shows an admin the dashboard; logging out there ends the session', async () => {
    server = await startConsoleServer();
    const page = await openLoggedIn(browser, server, PAGE);
    const home = await page.goto(`${server.url}/`);
    expect(home?.url()).toBe(`${server.url}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Dashboard');
    const token = (await page.context().cookies()).find((c) => c.name === 'bg_session')?.value;
    expect(token).toBeTruthy();

    await Promise.all([
      page.waitForURL(`${server.url}/login`),
      page.getByRole('button', { name: 'Log out' }).click(),
    ]);
    // The old session no longer opens anything, in the browser or over the API.
    const after = await page.goto(`${server.url}/`);
    expect(after?.url()).toBe(`${server.url}/login?next=%2F`);
    const api = await send(`${server.url}/api/settings/cdr-push`, {
      headers: { cookie: `bg_session=${token}` },
    });
    expect(api.status).toBe(401);
  });

  test('the login form is used from the keyboard alone', async () => {
    server = await startConsoleServer();
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    // The username input takes the focus on arrival (autofocus, which a loaded machine may apply
    // a moment after the load event: wait for it, or the typing goes nowhere).
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document
                .activeElement?.id,
          ),
        POLL,
      )
      .toBe('username');
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_PASSWORD);
    await Promise.all([page.waitForURL(`${server.url}${PAGE}`), page.keyboard.press('Enter')]);
  });

  test('login only returns to console pages, never to another site', async () => {
    server = await startConsoleServer();
    const page = await newPage();
    await page.goto(`${server.url}/login?next=${encodeURIComponent('https://evil.example/')}`);
    await submitLogin(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(`${server.url}${PAGE}`);
  });

  test('a logged-in user who is not an administrator is refused with 403', async () => {
    server = await startConsoleServer();
    await addUser(server.store, { username: 'clerk', password: 'clerk-password-1', isAdmin: false });
    const page = await newPage();
    await page.goto(`${server.url}/login?next=${encodeURIComponent(PAGE)}`);
    const answer = page.waitForResponse(`${server.url}${PAGE}`);
    await submitLogin(page, 'clerk', 'clerk-password-1');
    expect((await answer).status()).toBe(403);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'User clerk is not an administrator; the console is for administrators only.',
    );
    await expect(page.getByRole('heading', { name: 'CDR API' }).count()).resolves.toBe(0);
  });

  test('console pages forbid inline script and framing, and are not cached', async () => {
    server = await startConsoleServer();
    for (const path of ['/login', PAGE, '/console/assets/extra-configurations.js']) {
      const res = await send(`${server.url}${path}`);
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const redirect = await send(`${server.url}${PAGE}`);
    expect(redirect.status).toBe(303);
    expect(redirect.headers.location).toBe(`/login?next=${encodeURIComponent(PAGE)}`);
    const css = await send(`${server.url}/console/assets/console.css`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await send(`${server.url}/console/assets/nope.js`)).status).toBe(404);
  });
});
