// The served TLS certificate, replaceable while running: PUT /api/tls/certificate {"cert","key"}
// (PEM) checks the pair (both parse, the key belongs to the certificate, it is valid now), writes it
// over the data directory's tls-cert.pem / tls-key.pem (key first, each written whole and renamed,
// the key 0600), and hands it to the HTTPS server (setSecureContext): new connections get it at
// once, open ones keep theirs. A certificate given by --tls-cert/--tls-key is the operator's files
// and is not replaced from the API (409).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { AppDeps } from './deps.js';
import { sendError } from './error-catalogue.js';

/** The certificate as the API and the console show it. */
export interface CertificateView {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  selfSigned: boolean;
  /** SHA-256 fingerprint, colon-separated hex. */
  fingerprint256: string;
}

/** Where the served certificate comes from. */
export interface TlsSource {
  /** The data directory holding tls-cert.pem / tls-key.pem; undefined when --tls-cert/--tls-key gave it. */
  dataDir: string | undefined;
}

/** The names and dates of a PEM certificate (the first of a chain), or null when it does not parse. */
export function certificateView(pem: string | Buffer | undefined): CertificateView | null {
  if (!pem) return null;
  try {
    const c = new X509Certificate(pem);
    return {
      subject: c.subject.replaceAll('\n', ', '),
      issuer: c.issuer.replaceAll('\n', ', '),
      validFrom: new Date(c.validFrom).toISOString(),
      validTo: new Date(c.validTo).toISOString(),
      selfSigned: c.subject === c.issuer,
      fingerprint256: c.fingerprint256,
    };
  } catch {
    return null;
  }
}

/** Checks a PEM pair for serving at `nowMs`; throws bad_certificate naming the field and the problem. */
export function checkCertificatePair(cert: string, key: string, nowMs: number): X509Certificate {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new AppError('bad_certificate', `cert: not a PEM certificate (${(err as Error).message})`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new AppError('bad_certificate', `key: not a PEM private key (${(err as Error).message})`);
  }
  if (!x509.checkPrivateKey(privateKey))
    throw new AppError(
      'bad_certificate',
      `key: does not belong to the certificate for ${x509.subject.replaceAll('\n', ', ')}`,
    );
  if (Date.parse(x509.validTo) <= nowMs)
    throw new AppError('bad_certificate', `cert: expired on ${new Date(x509.validTo).toISOString()}`);
  if (Date.parse(x509.validFrom) > nowMs)
    throw new AppError('bad_certificate', `cert: not valid before ${new Date(x509.validFrom).toISOString()}`);
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new AppError('bad_certificate', `cert: cannot be served (${(err as Error).message})`);
  }
  return x509;
}

function writeWhole(path: string, text: string, mode: number): void {
  const tmp = `${path}.new`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

/** The served certificate, shown and replaced. */
export class ServedCertificate {
  constructor(
    private cert: string | Buffer | undefined,
    private readonly source: TlsSource | undefined,
  ) {}

  /** The PEM served now (undefined: plain HTTP). */
  current(): string | Buffer | undefined {
    return this.cert;
  }

  /** Whether the API may replace it (HTTPS from the data directory). */
  replaceable(): boolean {
    return this.cert !== undefined && this.source?.dataDir !== undefined;
  }

  /** Checks, writes and serves a new pair; the app's HTTPS server takes it for new connections. */
  replace(app: FastifyInstance, cert: string, key: string, nowMs: number): CertificateView {
    if (this.cert === undefined) throw new AppError('unavailable', 'this server does not serve HTTPS');
    const dataDir = this.source?.dataDir;
    if (dataDir === undefined)
      throw new AppError(
        'tls_from_flag',
        'the certificate comes from --tls-cert/--tls-key: replace those files and restart',
      );
    checkCertificatePair(cert, key, nowMs);
    writeWhole(join(dataDir, 'tls-key.pem'), key, 0o600);
    writeWhole(join(dataDir, 'tls-cert.pem'), cert, 0o644);
    (app.server as unknown as { setSecureContext(o: { cert: string; key: string }): void }).setSecureContext({
      cert,
      key,
    });
    this.cert = cert;
    return certificateView(cert) as CertificateView;
  }
}

/** GET and PUT /api/tls/certificate (admin). */
export async function tlsRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  served: ServedCertificate,
): Promise<void> {
  app.get('/api/tls/certificate', { preHandler: deps.requireAdmin }, async (_request, reply) => {
    const view = certificateView(served.current());
    if (!view) return sendError(reply, 'unavailable', 'this server does not serve HTTPS');
    return { ...view, replaceable: served.replaceable() };
  });
  app.put<{ Body: { cert: string; key: string } }>(
    '/api/tls/certificate',
    {
      preHandler: deps.requireAdmin,
      // A PEM chain and key; 256 KiB is far above any real pair.
      bodyLimit: 256 * 1024,
      schema: {
        body: {
          type: 'object',
          required: ['cert', 'key'],
          additionalProperties: false,
          properties: {
            cert: { type: 'string', minLength: 1, maxLength: 200_000 },
            key: { type: 'string', minLength: 1, maxLength: 50_000 },
          },
        },
      },
    },
    async (request, reply) => {
      try {
        const view = served.replace(app, request.body.cert, request.body.key, deps.clock.now());
        request.log.info({ subject: view.subject, validTo: view.validTo }, 'TLS certificate replaced');
        return { ...view, replaceable: true };
      } catch (err) {
        if (err instanceof AppError) return sendError(reply, err.code, err.message);
        throw err;
      }
    },
  );
}
