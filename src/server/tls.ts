// The HTTPS certificate: the operator's (--tls-cert/--tls-key), or a self-signed one generated into
// the data directory on first start and reused afterwards.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { AppError } from '../shared/errors.js';

/** A PEM key and certificate. */
export interface TlsMaterial {
  key: string;
  cert: string;
  /** Whether it was generated just now. */
  generated: boolean;
}

/** Loads the given certificate files, or the data dir's self-signed one, generating it when absent. */
export async function loadTls(dataDir: string, certFile?: string, keyFile?: string): Promise<TlsMaterial> {
  if (certFile || keyFile) {
    if (!certFile || !keyFile) throw new AppError('bad_config', '--tls-cert and --tls-key go together');
    try {
      return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), generated: false };
    } catch (err) {
      throw new AppError('bad_config', `cannot read the TLS files: ${(err as Error).message}`);
    }
  }
  const certPath = join(dataDir, 'tls-cert.pem');
  const keyPath = join(dataDir, 'tls-key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), generated: false };
  }
  const host = hostname();
  const pems = await selfsigned.generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 3650 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: host },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  return { cert: pems.cert, key: pems.private, generated: true };
}
