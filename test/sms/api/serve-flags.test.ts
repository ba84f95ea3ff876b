// `serve` refuses a --modem value or a BRANCHGATE_SMS_* setting it cannot use, naming it, before
// it listens.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { BIN } from '../../support/serve-process.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'bg-sms-flags-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function serveFails(args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    await run(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--listen', '127.0.0.1:0', ...args], {
      env: { ...process.env, BRANCHGATE_ADMIN_PASSWORD: 'flags-pass-1', ...env },
      timeout: 20_000,
    });
  } catch (err) {
    const e = err as { code: number; stderr: string };
    expect(e.code).toBe(1);
    return e.stderr;
  }
  throw new Error('serve started');
}

test('an unknown --modem value stops serve with a message naming it', async () => {
  expect(await serveFails(['--modem', 'usb2'])).toMatch(
    /--modem "usb2": expected sim, sim-pty or a serial device such as \/dev\/ttyUSB2/,
  );
});

test('a malformed BRANCHGATE_SMS_MAX_PARTS stops serve with a message naming it', async () => {
  expect(await serveFails([], { BRANCHGATE_SMS_MAX_PARTS: '0' })).toMatch(
    /BRANCHGATE_SMS_MAX_PARTS "0": expected an integer from 1 to 255/,
  );
});
