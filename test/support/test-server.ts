// Starts the real app on a loopback port over real TLS (a self-signed certificate generated into a
// temp dir, as `serve` does), against a fresh test database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FailureLimits } from '../../src/auth/index.js';
import { GeoService } from '../../src/geo/index.js';
import { buildApp } from '../../src/server/app.js';
import type { AppDeps } from '../../src/server/deps.js';
import { loadTls } from '../../src/server/tls.js';
import { type Clock, systemClock } from '../../src/shared/clock.js';
import type { Store } from '../../src/store/index.js';
import { openTestStore } from './databases.js';

/** A running test server. */
export interface TestServer {
  url: string;
  app: FastifyInstance;
  deps: AppDeps;
  store: Store;
  close(): Promise<void>;
}

let tlsDir: string | undefined;

/** Starts the app over HTTPS on 127.0.0.1 with a random port. */
export async function startTestServer(
  kind: 'sqlite' | 'postgres',
  options: {
    clock?: Clock;
    timeZone?: string;
    failureLimits?: FailureLimits;
    /** Runs the geo service over these files (watching off). */
    geo?: { site?: string; ip?: string };
    /** A certificate of its own in a temp data directory, replaceable through PUT /api/tls/certificate. */
    ownTls?: boolean;
    /** How long close() waits for open connections before dropping them (the app's default otherwise). */
    shutdownGraceMs?: number;
  } = {},
): Promise<TestServer> {
  tlsDir ??= mkdtempSync(join(tmpdir(), 'bg-tls-'));
  const ownDir = options.ownTls ? mkdtempSync(join(tmpdir(), 'bg-tls-own-')) : undefined;
  const tls = await loadTls(ownDir ?? tlsDir);
  const db = await openTestStore(kind);
  const store = db.store;
  const geo = options.geo
    ? new GeoService({ store, clock: options.clock ?? systemClock, ...options.geo, watchIntervalMs: 0 })
    : undefined;
  await geo?.start();
  const { app, deps } = await buildApp({
    store,
    logLevel: 'silent',
    https: { key: tls.key, cert: tls.cert },
    ...(ownDir ? { tlsSource: { dataDir: ownDir } } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.failureLimits ? { failureLimits: options.failureLimits } : {}),
    ...(geo ? { geo } : {}),
    ...(options.shutdownGraceMs !== undefined ? { shutdownGraceMs: options.shutdownGraceMs } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    app,
    deps,
    store,
    close: async () => {
      await app.close();
      await db.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

/** Removes the shared TLS directory (call from afterAll if wanted). */
export function cleanupTls(): void {
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  tlsDir = undefined;
}
