// Prometheus metrics (prom-client): HTTP requests by route and status with latency histograms,
// observed in-process; everything else is read on each scrape, before the text is written, from the store and the running parts,
// so figures written by another process (`branchgate cdr import`, a second server) show too and a
// restart loses nothing that the store keeps:
//
//   cdr records stored      max(db_id) (dense, never reused)
//   push                    enabled, backlog, lag of the oldest unsent record, last success, failing
//   push attempts           the delivery log's rows appended since the last scrape, by outcome
//   ingest                  each live source's status (state, records, duplicates, rejected, lag)
//   sms                     stored messages by direction and status, the outbox queue, the modem
//   process                 prom-client's default metrics (CPU, memory, event loop lag, handles)
//
// Each app has its own registry, so tests may build several in one process.
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { countParked, listDestinations, readPushState } from '../cdr/push/index.js';
import { isAlerting } from '../cdr/push/push-alert.js';
import { countCdrRecords } from '../cdr/record-store.js';
import type { Clock } from '../shared/clock.js';
import { VERSION } from '../shared/version.js';
import type { SmsGateway } from '../sms/index.js';
import type { AppDeps } from './deps.js';

/** The text format's content type. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const PREFIX = 'branchgate_';
// Seconds; API answers are milliseconds, exports and imports may take minutes.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FLOWING = new Set(['connected', 'following', 'polling']);

/** Sets a counter that is read from the store to its current value (prom-client counters only go up by inc). */
function setCounter(counter: Counter<string>, value: number, labels?: Record<string, string>): void {
  if (labels) {
    counter.remove(labels);
    counter.inc(labels, value);
  } else {
    counter.reset();
    counter.inc(value);
  }
}

/** What the metrics read from besides the store. */
export interface MetricsSources {
  sms?: SmsGateway | undefined;
}

/** One app's metrics. */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  // The delivery log's highest id read so far: attempts are counted from the rows after it.
  private pushLogSeen: number | null = null;
  // Each group's read of the store and the running parts, run before every exposition.
  private readonly refreshers: (() => Promise<void>)[] = [];
  // Concurrent scrapes share one refresh.
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly deps: Pick<AppDeps, 'store' | 'ingest'> & { clock: Clock },
    private readonly sources: MetricsSources = {},
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    new Gauge({
      name: `${PREFIX}info`,
      help: 'The running version (always 1).',
      labelNames: ['version'],
      registers,
    }).set({ version: VERSION }, 1);
    this.requests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route (the path pattern) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from receiving a request to finishing its answer, by method and route.',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.defineCdrAndPush(registers);
    this.defineIngest(registers);
    this.defineSms(registers);
  }

  /** Counts every answered request of an app. */
  observe(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      // The route's pattern (`/api/extensions/:number`), never the raw URL: bounded label values.
      const route = request.routeOptions.url ?? 'unmatched';
      const method = request.method;
      this.requests.inc({ method, route, status: String(reply.statusCode) });
      this.latency.observe({ method, route }, reply.elapsedTime / 1000);
    });
  }

  /** The text exposition of every metric now. */
  async text(): Promise<string> {
    this.refreshing ??= (async () => {
      try {
        for (const refresh of this.refreshers) await refresh();
      } finally {
        this.refreshing = undefined;
      }
    })();
    await this.refreshing;
    return this.registry.metrics();
  }

  private defineCdrAndPush(registers: Registry[]): void {
    const { store, clock } = this.deps;
    const stored = new Counter({
      name: `${PREFIX}cdr_records_stored_total`,
      help: 'Call records in the store (every source and import; records are never deleted).',
      registers,
    });
    const enabled = new Gauge({
      name: `${PREFIX}push_enabled`,
      help: 'Whether the CDR push is enabled (1) or not (0).',
      labelNames: ['destination'],
      registers,
    });
    const backlog = new Gauge({
      name: `${PREFIX}push_backlog_records`,
      help: 'Records stored but not yet acknowledged by the push receiver.',
      labelNames: ['destination'],
      registers,
    });
    const lag = new Gauge({
      name: `${PREFIX}push_lag_seconds`,
      help: 'Age of the oldest record not yet acknowledged (0 when none waits).',
      labelNames: ['destination'],
      registers,
    });
    const lastSuccess = new Gauge({
      name: `${PREFIX}push_last_success_timestamp_seconds`,
      help: 'When the receiver last acknowledged a delivery (unix seconds; 0 never).',
      labelNames: ['destination'],
      registers,
    });
    const failing = new Gauge({
      name: `${PREFIX}push_failing_seconds`,
      help: 'How long deliveries have been failing without a success in between (0 when not failing).',
      labelNames: ['destination'],
      registers,
    });
    const alerting = new Gauge({
      name: `${PREFIX}push_alert`,
      help: 'Whether push has failed for longer than its alert_after_seconds (push:failing): 1 or 0.',
      labelNames: ['destination'],
      registers,
    });
    const parked = new Gauge({
      name: `${PREFIX}push_parked_records`,
      help: 'Records set aside by the park poison policy, waiting to be resent.',
      labelNames: ['destination'],
      registers,
    });
    const attempts = new Counter({
      name: `${PREFIX}push_attempts_total`,
      help: 'Delivery attempts by destination and outcome (ok, http_error, no_answer) and kind (delivery, test), counted from the delivery log since this process began.',
      labelNames: ['destination', 'kind', 'outcome'],
      registers,
    });
    const attemptRecords = new Counter({
      name: `${PREFIX}push_attempt_records_total`,
      help: 'Records carried by delivery attempts, by destination and outcome.',
      labelNames: ['destination', 'outcome'],
      registers,
    });
    this.refreshers.push(async () => {
      const now = clock.now();
      const [destinations, total] = await Promise.all([listDestinations(store), countCdrRecords(store)]);
      setCounter(stored, total);
      // Removed destinations drop out of the gauges.
      for (const g of [enabled, backlog, lag, lastSuccess, failing, alerting, parked]) g.reset();
      for (const { id, settings } of destinations) {
        const labels = { destination: String(id) };
        const state = await readPushState(store.db, id);
        enabled.set(labels, settings.enabled ? 1 : 0);
        const acked = state.ackedDbId;
        backlog.set(labels, acked === null ? 0 : Math.max(0, total - acked));
        let lagSeconds = 0;
        if (acked !== null && total > acked) {
          const oldest = await store.db
            .selectFrom('cdr')
            .select('created_at_ms')
            .where('db_id', '=', acked + 1)
            .executeTakeFirst();
          if (oldest) lagSeconds = Math.max(0, (now - Number(oldest.created_at_ms)) / 1000);
        }
        lag.set(labels, lagSeconds);
        lastSuccess.set(labels, state.lastSuccessMs === null ? 0 : state.lastSuccessMs / 1000);
        failing.set(
          labels,
          state.failingSinceMs === null ? 0 : Math.max(0, (now - state.failingSinceMs) / 1000),
        );
        alerting.set(labels, isAlerting(settings, state.failingSinceMs, now) ? 1 : 0);
        parked.set(labels, await countParked(store, id));
      }
      await this.countPushAttempts(attempts, attemptRecords);
    });
  }

  private async countPushAttempts(
    attempts: Counter<'destination' | 'kind' | 'outcome'>,
    records: Counter<'destination' | 'outcome'>,
  ): Promise<void> {
    const db = this.deps.store.db;
    if (this.pushLogSeen === null) {
      // Start from the log as it is: attempts before this process's first scrape are not counted
      // again by every new process.
      const { max } = await db
        .selectFrom('cdr_push_log')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirstOrThrow();
      this.pushLogSeen = Number(max ?? 0);
      for (const outcome of ['ok', 'http_error', 'no_answer'])
        for (const kind of ['delivery', 'test']) attempts.inc({ destination: '1', kind, outcome }, 0);
      return;
    }
    const rows = await db
      .selectFrom('cdr_push_log')
      .select(['id', 'destination_id', 'kind', 'status', 'records', 'error'])
      .where('id', '>', this.pushLogSeen)
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const outcome = r.error === '' ? 'ok' : r.status === null ? 'no_answer' : 'http_error';
      const kind = r.kind === 'test' ? 'test' : 'delivery';
      const destination = String(r.destination_id);
      attempts.inc({ destination, kind, outcome });
      if (kind === 'delivery') records.inc({ destination, outcome }, Number(r.records));
      this.pushLogSeen = Number(r.id);
    }
  }

  private defineIngest(registers: Registry[]): void {
    const ingest = this.deps.ingest;
    const labelNames = ['source', 'kind'] as const;
    const up = new Gauge({
      name: `${PREFIX}ingest_source_up`,
      help: 'Whether a live CDR source is receiving (connected, following or polling: 1) or not (0).',
      labelNames,
      registers,
    });
    const state = new Gauge({
      name: `${PREFIX}ingest_source_state`,
      help: "A live CDR source's state (1 for the state it is in).",
      labelNames: ['source', 'state'],
      registers,
    });
    const storedBy = new Counter({
      name: `${PREFIX}ingest_records_stored_total`,
      help: 'Records a live source stored since the server started.',
      labelNames,
      registers,
    });
    const duplicates = new Counter({
      name: `${PREFIX}ingest_duplicates_total`,
      help: 'Records a live source brought that were already stored.',
      labelNames,
      registers,
    });
    const rejected = new Counter({
      name: `${PREFIX}ingest_rejected_total`,
      help: 'Inputs a live source refused as malformed.',
      labelNames,
      registers,
    });
    const lag = new Gauge({
      name: `${PREFIX}ingest_lag_seconds`,
      help: 'Seconds between the end of the last call a source stored and its storing.',
      labelNames,
      registers,
    });
    this.refreshers.push(async () => {
      lag.reset();
      up.reset();
      state.reset();
      for (const s of ingest.statuses()) {
        const labels = { source: s.id, kind: s.kind };
        up.set(labels, FLOWING.has(s.state) ? 1 : 0);
        state.set({ source: s.id, state: s.state }, 1);
        setCounter(storedBy, s.recordsStored, labels);
        setCounter(duplicates, s.duplicates, labels);
        setCounter(rejected, s.rejected, labels);
        if (s.lagSeconds !== null) lag.set(labels, s.lagSeconds);
      }
    });
  }

  private defineSms(registers: Registry[]): void {
    const { store } = this.deps;
    const sms = this.sources.sms;
    const queue = new Gauge({
      name: `${PREFIX}sms_queue_length`,
      help: 'Messages waiting to be sent (queued or being sent).',
      registers,
    });
    const ready = new Gauge({
      name: `${PREFIX}modem_ready`,
      help: 'Whether the modem has answered since start (1), is absent or not yet answering (0).',
      registers,
    });
    const signal = new Gauge({
      name: `${PREFIX}modem_signal_rssi_dbm`,
      help: 'Received signal strength as last polled (+CSQ, in dBm); absent while not known.',
      registers,
    });
    const bars = new Gauge({
      name: `${PREFIX}modem_signal_level`,
      help: 'Signal bars as last polled, 0 (none) to 5.',
      registers,
    });
    const registered = new Gauge({
      name: `${PREFIX}modem_registered`,
      help: 'Whether the modem is registered on a network (home or roaming) as last polled.',
      registers,
    });
    const registration = new Gauge({
      name: `${PREFIX}modem_registration`,
      help: 'The registration as last polled (1 for the one it is in): home, roaming, searching, denied, not_registered, unknown.',
      labelNames: ['registration'],
      registers,
    });
    const messages = new Gauge({
      name: `${PREFIX}sms_messages`,
      help: 'Stored SMS messages by direction (sent, received) and status.',
      labelNames: ['type', 'status'],
      registers,
    });
    this.refreshers.push(async () => {
      const rows = await store.db
        .selectFrom('sms_message')
        .select(['type', 'status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['type', 'status'])
        .execute();
      messages.reset();
      let waiting = 0;
      for (const r of rows) {
        messages.set({ type: r.type, status: r.status }, Number(r.n));
        if (r.type === 'sent' && (r.status === 'queued' || r.status === 'sending')) waiting += Number(r.n);
      }
      queue.set(waiting);
      ready.set(sms?.modemReady() ? 1 : 0);
      const health = sms?.modemStatus().health ?? null;
      signal.reset();
      registration.reset();
      if (health?.signal.rssiDbm != null) signal.set(health.signal.rssiDbm);
      bars.set(health?.signal.level ?? 0);
      registered.set(health?.registration === 'home' || health?.registration === 'roaming' ? 1 : 0);
      if (health) registration.set({ registration: health.registration }, 1);
    });
  }
}
