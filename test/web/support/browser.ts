// Browser-test helpers: Debian's headless chromium through playwright-core (the machine has no
// outside network, so everything that phones home is off), a test server with an admin account,
// and logging in through the console's own login page.

import { type Browser, chromium, type Page } from 'playwright-core';
import { ensureAdmin } from '../../../src/auth/index.js';
import { CHROMIUM_PATH } from '../../support/global-setup.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** The admin password the helpers create. */
export const ADMIN_PASSWORD = 'console-admin-password';

/**
 * Whether the browser tests run: global-setup found chromium (under CI=true it fails the whole run
 * when chromium is missing, so they are never skipped there).
 */
export const browserAvailable = process.env.BRANCHGATE_TEST_HAS_CHROMIUM === '1' || process.env.CI === 'true';

/** Launches headless chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A test server (SQLite) with the admin account created. */
export async function startConsoleServer(
  options: Parameters<typeof startTestServer>[1] = {},
): Promise<TestServer> {
  const server = await startTestServer('sqlite', options);
  await ensureAdmin(server.store, ADMIN_PASSWORD);
  return server;
}

/**
 * Opens a console page in a fresh context (own cookies) and logs in through the login page it is
 * sent to; resolves once the page is shown.
 */
export async function openLoggedIn(browser: Browser, server: TestServer, path: string): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await Promise.all([
    page.waitForURL(`${server.url}${path}`),
    page.getByRole('button', { name: 'Log in' }).click(),
  ]);
  return page;
}
