// Starts the real app with a real SMS service on the simulated modem (in memory), over real TLS on
// a loopback port, against a fresh test database; the simulator stays reachable for fault switches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAdmin, type FailureLimits } from '../../../../src/auth/index.js';
import { buildApp } from '../../../../src/server/app.js';
import { loadTls } from '../../../../src/server/tls.js';
import {
  createSmsService,
  DEFAULT_SMS_OPTIONS,
  type SmsOptions,
  type SmsService,
} from '../../../../src/sms/index.js';
import type { SimulatedModem } from '../../../../src/sms/modem/index.js';
import { openStore, type Store } from '../../../../src/store/index.js';
import { createTestDatabase } from '../../../support/databases.js';

/** The admin password of every SMS test server. */
export const ADMIN_PASSWORD = 'sms-admin-pass-1';

/** A running server with its SMS service. */
export interface SmsTestServer {
  url: string;
  store: Store;
  sms: SmsService;
  /** The simulated modem (undefined with a device path). */
  simulator: SimulatedModem | undefined;
  close(): Promise<void>;
}

/** Starts a server on `kind` with the simulated modem; options override the SMS defaults. */
export async function startSmsServer(
  kind: 'sqlite' | 'postgres',
  options: { sms?: Partial<SmsOptions>; failureLimits?: FailureLimits; modem?: string } = {},
): Promise<SmsTestServer> {
  const tlsDir = mkdtempSync(join(tmpdir(), 'bg-sms-tls-'));
  const tls = await loadTls(tlsDir);
  const tdb = await createTestDatabase(kind);
  const store = await openStore({ db: tdb.url });
  await ensureAdmin(store, ADMIN_PASSWORD);
  const sms = createSmsService({
    store,
    modem: options.modem ?? 'sim',
    options: { ...DEFAULT_SMS_OPTIONS, ...options.sms },
    modemOptions: {
      commandTimeoutMs: 1500,
      promptTimeoutMs: 1500,
      sendTimeoutMs: 3000,
      listTimeoutMs: 3000,
      reopenDelayMs: 200,
      reopenDelayMaxMs: 1000,
    },
  });
  const { app } = await buildApp({
    store,
    logLevel: 'silent',
    https: { key: tls.key, cert: tls.cert },
    sms,
    ...(options.failureLimits ? { failureLimits: options.failureLimits } : {}),
  });
  const started = await sms.start();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const simulator = sms.simulator;
  return {
    url: `https://127.0.0.1:${port}`,
    store,
    sms,
    simulator,
    close: async () => {
      await app.close();
      await started.stop();
      await store.close();
      await tdb.drop();
      rmSync(tlsDir, { recursive: true, force: true });
    },
  };
}
