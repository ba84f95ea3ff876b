import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { available, createTestDatabase } from '../support/databases.js';
import { send } from '../support/https-client.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';

const running: ServeProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'bg-serve-'));
  dirs.push(d);
  return d;
};

describe('branchgate serve', () => {
  test('with no flags serves HTTPS on 0.0.0.0:8443 with data in ./data, and stops on SIGTERM', async () => {
    const cwd = tempDir();
    const srv = await spawnServe([], { cwd });
    running.push(srv);
    expect(srv.url).toBe('https://0.0.0.0:8443');
    const health = await send('https://127.0.0.1:8443/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const password = /password: (\S+)/.exec(srv.output())?.[1];
    expect(password).toBeDefined();
    expect(readFileSync(join(cwd, 'data', 'tls-cert.pem'), 'utf8')).toMatch(/BEGIN CERTIFICATE/);
    const login = await send('https://127.0.0.1:8443/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    expect(await srv.stop('SIGTERM')).toBe(0);
    expect(srv.output()).toMatch(/SIGTERM, shutting down/);
  });

  test('prints the generated admin password only on the first start, and reuses the certificate', async () => {
    const dataDir = tempDir();
    const first = await spawnServe(['--data-dir', dataDir, '--listen', '127.0.0.1:0']);
    running.push(first);
    expect(first.output()).toMatch(/created user "admin" with password: /);
    const cert = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8');
    await first.stop();
    const second = await spawnServe(['--data-dir', dataDir, '--listen', '127.0.0.1:0']);
    running.push(second);
    expect(second.output()).not.toMatch(/password/);
    expect(second.output()).not.toMatch(/generated a self-signed/);
    expect(readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')).toBe(cert);
  });

  test('takes the admin password from BRANCHGATE_ADMIN_PASSWORD and serves plain HTTP only when asked', async () => {
    const dataDir = tempDir();
    const srv = await spawnServe(
      ['--data-dir', dataDir, '--listen', '127.0.0.1:0', '--http-listen', '127.0.0.1:0'],
      {
        env: { BRANCHGATE_ADMIN_PASSWORD: 'from-the-env-1' },
      },
    );
    running.push(srv);
    expect(srv.output()).not.toMatch(/from-the-env-1/);
    const res = await send(`${srv.httpUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'from-the-env-1' }),
    });
    expect(res.status).toBe(200);
  });

  test('a port already taken stops serve with the reason (its started parts do not keep it alive)', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      await expect(
        spawnServe(['--data-dir', tempDir(), '--listen', `127.0.0.1:${port}`], { timeoutMs: 20_000 }),
      ).rejects.toThrow(/serve exited with 1 before listening:[\s\S]*EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  test('refuses a bad --listen with a clear message', async () => {
    await expect(spawnServe(['--data-dir', tempDir(), '--listen', 'nonsense'])).rejects.toThrow(
      /--listen "nonsense": expected HOST:PORT/,
    );
  });

  test.skipIf(!available('postgres'))(
    "two instances on one PostgreSQL accept each other's sessions",
    async () => {
      const db = await createTestDatabase('postgres');
      try {
        const env = { BRANCHGATE_ADMIN_PASSWORD: 'shared-admin-1' };
        const [a, b] = await Promise.all([
          spawnServe(['--data-dir', tempDir(), '--db', db.url, '--listen', '127.0.0.1:0'], { env }),
          spawnServe(['--data-dir', tempDir(), '--db', db.url, '--listen', '127.0.0.1:0'], { env }),
        ]);
        running.push(a, b);
        const login = await send(`${a.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'shared-admin-1' }),
        });
        expect(login.status).toBe(200);
        const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
        const onB = await send(`${b.url}/pbx/cdr/data`, { headers: { cookie } });
        expect(onB.status).toBe(200);
        expect(onB.json()).toEqual({ data: [], page: '1', limit: '10', total_pages: 0 });
        await send(`${b.url}/api/logout`, { method: 'POST', headers: { cookie } });
        expect((await send(`${a.url}/api/me`, { headers: { cookie } })).status).toBe(401);
      } finally {
        await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
        await db.drop();
      }
    },
  );
});
