// Builds the Fastify app from the parts: error handling, cookies, then each area's routes with
// explicit dependencies. server.ts (listen, TLS, signals) is a thin shell around this; tests call
// buildApp and use inject() or listen on a loopback port.
import type { Socket } from 'node:net';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { adminRoutes } from '../auth/admin-routes.js';
import { FailureLimiter, type FailureLimits } from '../auth/index.js';
import { authRoutes } from '../auth/routes.js';
import { cdrExportRoutes } from '../cdr/export-routes.js';
import { ingestRoutes } from '../cdr/ingest/live/ingest-routes.js';
import type { IngestStatusReader } from '../cdr/ingest/live/ingest-source.js';
import type { StoredIngestSources } from '../cdr/ingest/live/stored-sources.js';
import type { RecordingUrlBuilder } from '../cdr/ingest/recording-url.js';
import { cdrPullRoutes } from '../cdr/pull-routes.js';
import { cdrPushRoutes } from '../cdr/push/routes.js';
import { geoRoutes } from '../geo/service/geo-routes.js';
import type { GeoService } from '../geo/service/geo-service.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { type SmsGateway, smsRoutes } from '../sms/index.js';
import { modemStatusRoutes } from '../sms/modem-status.js';
import type { Store } from '../store/index.js';
import { consoleRoutes } from '../web/index.js';
import { webhookRoutes } from '../webhooks/routes.js';
import type { AppDeps } from './deps.js';
import { installErrorHandlers } from './error-handler.js';
import { loggerOptions } from './logger.js';
import { METRICS_CONTENT_TYPE, ServerMetrics } from './metrics.js';
import { registerOpenApi } from './openapi.js';
import { createRequestAuth } from './request-auth.js';
import { installRouteDocs } from './route-docs.js';
import { ServedCertificate, type TlsSource, tlsRoutes } from './tls-certificate.js';

/** What buildApp needs; everything but the store has a default. */
export interface AppOptions {
  store: Store;
  clock?: Clock;
  timeZone?: string;
  logLevel?: string;
  /** Where log lines go (default stdout); tests capture them to check what is never logged. */
  logStream?: { write(line: string): void };
  failureLimits?: FailureLimits;
  /** TLS key and certificate (PEM); plain HTTP when absent. */
  https?: { key: string | Buffer; cert: string | Buffer } | undefined;
  /** Where the certificate comes from; with a data directory, PUT /api/tls/certificate may replace it. */
  tlsSource?: TlsSource | undefined;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * How long close() waits for requests in flight before it drops every connection (default
   * 5000 ms). Idle keep-alive connections close at once; this also ends connections that were
   * opened but never sent a request (browsers preconnect), which Node would otherwise hold open
   * until their headers timeout, a minute later.
   */
  shutdownGraceMs?: number;
  /** The SMS service (modem, outbox); without it send-one answers 503. */
  sms?: SmsGateway | undefined;
  /** The live CDR sources' statuses; without it /api/ingest/status lists none. */
  ingest?: IngestStatusReader | undefined;
  /** Sources added and removed at run time (/api/ingest/sources); absent outside serve. */
  ingestSources?: StoredIngestSources | undefined;
  /** Builds recording_url of records posted to /api/cdr (serve --recording-url). */
  recordingUrl?: RecordingUrlBuilder | undefined;
  /** The geo lookup service (serve --geosite/--geoip); without it the geo endpoints answer 503. */
  geo?: GeoService | undefined;
  /** Called when a webhook is added, so it is served without waiting for the dispatcher's poll. */
  kickWebhooks?: (() => void) | undefined;
}

/** The app and the dependencies it was built with. */
export interface BuiltApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** Its Prometheus metrics (GET /metrics with a metrics or admin token, or serve's --metrics-listen). */
  metrics: ServerMetrics;
}

/** Builds the app (not yet listening). */
export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const clock = options.clock ?? systemClock;
  const serverOptions: FastifyServerOptions & { https?: { key: string | Buffer; cert: string | Buffer } } = {
    logger: loggerOptions(options.logLevel ?? 'info', options.logStream),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: false,
    // Some documented request schemas describe fields without typing the body (route-docs.ts: the
    // routes check those bodies themselves); that is intended, not a strict-types slip.
    ajv: { customOptions: { strictTypes: false } },
  };
  if (options.https) serverOptions.https = options.https;
  const app = Fastify(serverOptions) as unknown as FastifyInstance;
  installErrorHandlers(app);
  dropConnectionsAfter(app, options.shutdownGraceMs ?? 5000);
  // Every API takes JSON: a text/plain body is answered 415 rather than parsed into a string.
  app.removeContentTypeParser('text/plain');
  await app.register(cookie);
  installRouteDocs(app);
  await registerOpenApi(app);

  const failures = new FailureLimiter(options.failureLimits);
  const auth = createRequestAuth(options.store, clock, failures);
  const deps: AppDeps = {
    store: options.store,
    clock,
    timeZone: options.timeZone ?? 'UTC',
    failures,
    sessionUser: auth.sessionUser,
    apiToken: auth.apiToken,
    requireAdmin: auth.requireAdmin,
    requireScope: auth.requireScope,
    ingest: options.ingest ?? { statuses: () => [] },
  };

  const metrics = new ServerMetrics(deps, { sms: options.sms });
  metrics.observe(app);
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Off the public API: a token with the metrics (or admin) scope, or an admin session.
  app.get('/metrics', { preHandler: deps.requireScope('metrics') }, async (_request, reply) =>
    reply.type(METRICS_CONTENT_TYPE).send(await metrics.text()),
  );
  await authRoutes(app, deps);
  await adminRoutes(app, deps);
  await cdrPullRoutes(app, deps);
  await cdrExportRoutes(app, deps);
  await app.register(smsRoutes(deps, options.sms));
  await modemStatusRoutes(app, deps, options.sms);
  await cdrPushRoutes(app, deps);
  await ingestRoutes(app, deps, options.recordingUrl, options.ingestSources);
  await geoRoutes(app, deps, options.geo);
  await webhookRoutes(app, deps, options.kickWebhooks ?? (() => undefined));
  const served = new ServedCertificate(options.https?.cert, options.tlsSource);
  await tlsRoutes(app, deps, served);
  await app.register(
    consoleRoutes({
      ...deps,
      sms: options.sms,
      ingestSources: options.ingestSources,
      certificate: served,
      geo: options.geo,
    }),
  );
  return { app, deps, metrics };
}

/**
 * Once close() starts, connections still open after `graceMs` are dropped. The sockets are
 * tracked from their TCP connection on: Node's own closeAllConnections() knows only connections
 * that got as far as HTTP, not one still before (or stuck in) its TLS handshake.
 */
function dropConnectionsAfter(app: FastifyInstance, graceMs: number): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setTimeout(() => {
      for (const socket of sockets) socket.destroy();
    }, graceMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearTimeout(timer));
}
