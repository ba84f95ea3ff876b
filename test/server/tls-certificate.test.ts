// PUT /api/tls/certificate on a real `branchgate serve`: a good pair is written to the data
// directory and served to the next handshake without a restart (and after one); a pair that does
// not fit is refused naming the field, and nothing changes; a certificate from --tls-cert is not
// the API's to replace.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { send } from '../support/https-client.js';
import { peerCertificatePem } from '../support/peer-certificate.js';
import { createTokenWithCli, type ServeProcess, spawnServe } from '../support/serve-process.js';

const DAY = 86_400_000;

async function pair(cn: string, from = new Date(Date.now() - DAY), to = new Date(Date.now() + 90 * DAY)) {
  const p = await selfsigned.generate([{ name: 'commonName', value: cn }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: from,
    notAfterDate: to,
  });
  return { cert: p.cert, key: p.private };
}
const subjectOf = (pem: string) => new X509Certificate(pem).subject;

describe('replacing the served TLS certificate', () => {
  let dir: string;
  let srv: ServeProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bg-tls-put-'));
  });
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    srv = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const adminToken = async (dataDir: string) => createTokenWithCli('tls', 'admin', ['--data-dir', dataDir]);
  const put = (token: string, body: unknown) =>
    send(`${srv?.url}/api/tls/certificate`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  test('a good pair is served to the next connection and kept; bad ones change nothing', async () => {
    const dataDir = join(dir, 'data');
    srv = await spawnServe(['--data-dir', dataDir, '--listen', '127.0.0.1:0'], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'tls-admin-pw-1' },
    });
    const token = await adminToken(dataDir);
    const original = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8');
    const originalKey = readFileSync(join(dataDir, 'tls-key.pem'), 'utf8');
    expect(subjectOf(await peerCertificatePem(srv.url))).toBe(subjectOf(original));

    const fresh = await pair('gateway.example.net');
    const other = await pair('other.example.net');
    const expired = await pair(
      'old.example.net',
      new Date(Date.now() - 400 * DAY),
      new Date(Date.now() - DAY),
    );
    const refusals: Array<[unknown, RegExp]> = [
      [
        { cert: fresh.cert, key: other.key },
        /^key: does not belong to the certificate for CN=gateway\.example\.net/,
      ],
      [{ cert: 'not a certificate', key: fresh.key }, /^cert: not a PEM certificate/],
      [{ cert: fresh.cert, key: 'nope' }, /^key: not a PEM private key/],
      [expired, /^cert: expired on \d{4}-/],
    ];
    for (const [body, message] of refusals) {
      const res = await put(token, body);
      expect(res.status).toBe(400);
      expect(res.json().error.code).toBe('bad_certificate');
      expect(res.json().error.message).toMatch(message);
    }
    expect(readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')).toBe(original);
    expect(readFileSync(join(dataDir, 'tls-key.pem'), 'utf8')).toBe(originalKey);
    expect(subjectOf(await peerCertificatePem(srv.url))).toBe(subjectOf(original));
    const anonymous = await send(`${srv.url}/api/tls/certificate`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fresh),
    });
    expect(anonymous.status).toBe(401);
    expect(subjectOf(await peerCertificatePem(srv.url))).toBe(subjectOf(original));

    const ok = await put(token, fresh);
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({
      subject: 'CN=gateway.example.net',
      selfSigned: true,
      replaceable: true,
    });
    // No restart: the next handshake presents the new certificate.
    const served = new X509Certificate(await peerCertificatePem(srv.url));
    expect(served.fingerprint256).toBe(new X509Certificate(fresh.cert).fingerprint256);
    expect(readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')).toBe(fresh.cert);
    expect(readFileSync(join(dataDir, 'tls-key.pem'), 'utf8')).toBe(fresh.key);
    expect(statSync(join(dataDir, 'tls-key.pem')).mode & 0o777).toBe(0o600);
    expect(srv.output()).not.toContain('PRIVATE KEY');
    const shown = await send(`${srv.url}/api/tls/certificate`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(shown.json().fingerprint256).toBe(new X509Certificate(fresh.cert).fingerprint256);

    // A restart serves it from the data directory.
    await srv.stop('SIGTERM');
    srv = await spawnServe(['--data-dir', dataDir, '--listen', '127.0.0.1:0']);
    expect(subjectOf(await peerCertificatePem(srv.url))).toBe('CN=gateway.example.net');
  }, 60_000);

  test('a certificate given by --tls-cert/--tls-key is refused with 409', async () => {
    const dataDir = join(dir, 'data');
    const given = await pair('flag.example.net');
    writeFileSync(join(dir, 'cert.pem'), given.cert);
    writeFileSync(join(dir, 'key.pem'), given.key);
    srv = await spawnServe(
      [
        '--data-dir',
        dataDir,
        '--listen',
        '127.0.0.1:0',
        '--tls-cert',
        join(dir, 'cert.pem'),
        '--tls-key',
        join(dir, 'key.pem'),
      ],
      { env: { BRANCHGATE_ADMIN_PASSWORD: 'tls-admin-pw-1' } },
    );
    const token = await adminToken(dataDir);
    const res = await put(token, await pair('new.example.net'));
    expect(res.status).toBe(409);
    expect(res.json().error).toEqual({
      code: 'tls_from_flag',
      message: 'the certificate comes from --tls-cert/--tls-key: replace those files and restart',
    });
    expect(subjectOf(await peerCertificatePem(srv.url))).toBe('CN=flag.example.net');
    expect(readFileSync(join(dir, 'cert.pem'), 'utf8')).toBe(given.cert);
  }, 60_000);
});
