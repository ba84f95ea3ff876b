// `branchgate serve`: open the store, make sure there is an admin, load TLS, build the app, start
// the background services, listen (HTTPS, and plain HTTP when asked), and stop all of it cleanly on
// SIGTERM/SIGINT.
//
//   flags/env -> ServeConfig -> openStore -> ensureAdmin -> loadTls -> buildApp -> services -> listen
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureAdmin } from '../auth/index.js';
import { createLiveSources, type LiveSources } from '../cdr/ingest/live/live-sources.js';
import { startCdrPushJob } from '../cdr/push/push-job.js';
import { GeoService } from '../geo/service/geo-service.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { createSmsService, type SmsLog, type SmsService, smsOptionsFromEnv } from '../sms/index.js';
import { openStore, type Store } from '../store/index.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { appendEvent } from '../webhooks/events.js';
import { buildApp } from './app.js';
import type { ServeConfig } from './config.js';
import type { AppDeps } from './deps.js';
import { METRICS_CONTENT_TYPE, type ServerMetrics } from './metrics.js';
import { loadTls } from './tls.js';

/** A background part of the server (the CDR push job, the modem): started after the app is built, stopped before the store closes. */
export interface Service {
  name: string;
  stop(): Promise<void>;
}

/** Starts the background services; areas add theirs here. */
async function startServices(
  config: ServeConfig,
  deps: AppDeps,
  sms: SmsService,
  log: SmsLog,
  ingest: LiveSources,
  started: Service[],
): Promise<Service[]> {
  const { store, clock, timeZone } = deps;
  const push = startCdrPushJob({ store, clock, timeZone, logger: log, databaseUrl: config.db });
  const services: Service[] = [{ name: 'cdr-push', stop: push.stop }];
  started.push(services[0] as Service);
  await ingest.start(log);
  const ingestService = { name: 'cdr-ingest', stop: () => ingest.stop() };
  started.push(ingestService);
  const smsService = await sms.start(log);
  started.push(smsService);
  return [...services, smsService, ingestService];
}

/** A running server. */
export interface RunningServer {
  store: Store;
  /** The HTTPS URL it answers on (with the real port when 0 was asked). */
  url: string;
  httpUrl: string | undefined;
  /** The --metrics-listen URL of GET /metrics, when asked for. */
  metricsUrl: string | undefined;
  /** Reloads the geo files (SIGHUP). */
  reload(): void;
  close(): Promise<void>;
}

/** Webhook retry timing from BRANCHGATE_WEBHOOK_* (tests shorten it); defaults in dispatcher.ts. */
function webhookTimingFromEnv(env: NodeJS.ProcessEnv): {
  pollMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
} {
  const out: { pollMs?: number; retryBaseMs?: number; retryMaxMs?: number } = {};
  const read = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1)
      throw new AppError('bad_config', `${name} "${v}": give milliseconds (1 or more)`);
    return Number(v);
  };
  const poll = read('BRANCHGATE_WEBHOOK_POLL_MS');
  const base = read('BRANCHGATE_WEBHOOK_RETRY_MS');
  const max = read('BRANCHGATE_WEBHOOK_RETRY_MAX_MS');
  if (poll !== undefined) out.pollMs = poll;
  if (base !== undefined) out.retryBaseMs = base;
  if (max !== undefined) out.retryMaxMs = max;
  return out;
}

/** The --metrics-listen server: GET /metrics and nothing else, no authentication. */
function metricsHttpServer(metrics: ServerMetrics): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('not found: only GET /metrics is served here\n');
      return;
    }
    metrics.text().then(
      (text) =>
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(req.method === 'HEAD' ? '' : text),
      (err: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics could not be read: ${String(err)}\n`),
    );
  });
}

/** Writes a line for the operator on stdout (not the log). */
export type Say = (line: string) => void;

/** Starts everything; resolves once it listens. */
export async function startServer(
  config: ServeConfig,
  say: Say = (l) => process.stdout.write(`${l}\n`),
  clock: Clock = systemClock,
): Promise<RunningServer> {
  const store = await openStore({ db: config.db, dataDir: config.dataDir });
  // Whatever has started, newest last, so a failure later in start-up can stop it.
  const started: Service[] = [];
  try {
    const admin = await ensureAdmin(store, config.adminPassword, clock.now());
    if (admin.generatedPassword) {
      say(`branchgate: created user "admin" with password: ${admin.generatedPassword}`);
      say('branchgate: this password is shown once; change it with `branchgate user passwd admin`');
    } else if (admin.created) {
      say('branchgate: created user "admin" with the password from BRANCHGATE_ADMIN_PASSWORD');
    }
    const tls = await loadTls(config.dataDir, config.tlsCert, config.tlsKey);
    if (tls.generated) say(`branchgate: generated a self-signed TLS certificate in ${config.dataDir}`);
    const ingest = createLiveSources({
      store,
      clock,
      recordingUrl: config.recordingUrl,
      ami: config.ingestAmi,
      csv: config.ingestCsv,
      sql: config.ingestSql,
    });
    const geo = new GeoService({
      store,
      clock,
      site: config.geosite,
      ip: config.geoip,
      watchIntervalMs: config.geoWatchMs,
    });
    const smsOptions = smsOptionsFromEnv(process.env);
    if (config.smsDefaultCountryCode) smsOptions.defaultCountryCode = config.smsDefaultCountryCode;
    const sms = createSmsService({ store, modem: config.modem, options: smsOptions });
    let dispatcher: WebhookDispatcher | undefined;
    const { app, deps, metrics } = await buildApp({
      store,
      clock,
      timeZone: config.timeZone,
      logLevel: config.logLevel,
      https: { key: tls.key, cert: tls.cert },
      tlsSource: { dataDir: config.tlsCert ? undefined : config.dataDir },
      sms,
      ingest: ingest.manager,
      ingestSources: ingest.stored,
      recordingUrl: config.recordingUrl,
      geo,
      kickWebhooks: () => dispatcher?.kick(),
    });
    dispatcher = new WebhookDispatcher({
      store,
      clock,
      timeZone: config.timeZone,
      log: app.log,
      ...webhookTimingFromEnv(process.env),
    });
    const webhooks = dispatcher;
    // modem:state changes go to the event log like the SMS events (which their own transactions append).
    sms.onModemState((change) => {
      const { health, ...rest } = change;
      appendEvent(
        store.db,
        'modem:state',
        {
          ...rest,
          registration: health?.registration ?? null,
          operator: health?.operator ?? null,
          signal_level: health?.signal.level ?? null,
          sim: health?.sim ?? null,
        },
        change.atMs,
      ).then(
        () => webhooks.kick(),
        (err: unknown) => app.log.warn({ error: String(err) }, 'modem:state event not stored'),
      );
    });
    await geo.start(app.log);
    started.push({ name: 'app', stop: () => app.close() }, { name: 'geo', stop: () => geo.stop() });
    webhooks.start();
    started.push({ name: 'webhooks', stop: () => webhooks.stop() });
    const services = await startServices(config, deps, sms, app.log, ingest, started);
    await app.listen({ host: config.listen.host, port: config.listen.port });
    const address = app.server.address() as AddressInfo;
    const hostForUrl = (h: string) => (h.includes(':') ? `[${h}]` : h);
    const url = `https://${hostForUrl(config.listen.host)}:${address.port}`;
    say(`branchgate: listening on ${url} (data in ${config.dataDir}, store ${store.location})`);

    let plain: Server | undefined;
    let httpUrl: string | undefined;
    if (config.httpListen) {
      const { host, port } = config.httpListen;
      plain = createServer((req, res) => app.routing(req, res));
      await new Promise<void>((resolve, reject) => {
        plain?.once('error', reject);
        plain?.listen(port, host, () => resolve());
      });
      httpUrl = `http://${hostForUrl(host)}:${(plain.address() as AddressInfo).port}`;
      say(`branchgate: also listening on ${httpUrl} (plain HTTP)`);
    }

    let metricsServer: Server | undefined;
    let metricsUrl: string | undefined;
    if (config.metricsListen) {
      const { host, port } = config.metricsListen;
      metricsServer = metricsHttpServer(metrics);
      await new Promise<void>((resolve, reject) => {
        metricsServer?.once('error', reject);
        metricsServer?.listen(port, host, () => resolve());
      });
      metricsUrl = `http://${hostForUrl(host)}:${(metricsServer.address() as AddressInfo).port}/metrics`;
      say(`branchgate: metrics on ${metricsUrl} (no authentication: keep this address private)`);
    }

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        for (const s of [plain, metricsServer])
          if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
        await app.close();
        for (const s of services.reverse()) await s.stop();
        await webhooks.stop();
        await geo.stop();
        await store.close();
      })();
      return closing;
    };
    return { store, url, httpUrl, metricsUrl, reload: () => geo.reload('SIGHUP'), close };
  } catch (err) {
    // A failure after the background parts started (a port taken, ...) stops them too: otherwise
    // their timers would keep a process alive that serves nothing.
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await store.close();
    throw err;
  }
}
