// What the dashboard and the call-records page read from the store (pages only read; changes go
// through the REST API).
import type { UserInfo } from '../auth/index.js';
import { parseCdrFilter, whereFilter } from '../cdr/cdr-filter.js';
import { backlogOf, listDestinations, loadCdrPushSettings, readPushState } from '../cdr/push/index.js';
import { isAlerting } from '../cdr/push/push-alert.js';
import { countCdrRecords } from '../cdr/record-store.js';
import { TimeFormatter, toWireRecord } from '../cdr/wire-record.js';
import { VERSION } from '../shared/version.js';
import { wallClockFormat, zoneOffsetMs } from '../shared/wall-time.js';
import { toWireMessage } from '../sms/message.js';
import { listMessages } from '../sms/message-store.js';
import { CDR_PAGE_FILTERS, type CdrPageData } from './cdr-page.js';
import type { ConsoleDeps } from './console-routes.js';
import type { DashboardData } from './dashboard-page.js';
import type { SmsPageData } from './sms-page.js';

/** Records per page of the call list. */
export const CDR_PAGE_SIZE = 50;
const STARTED_MS = Date.now();

async function countSince(deps: ConsoleDeps, sinceSeconds: number): Promise<number> {
  const { n } = await deps.store.db
    .selectFrom('cdr')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('start_ts', '>=', sinceSeconds)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The dashboard's figures now. */
export async function dashboardData(deps: ConsoleDeps, user: UserInfo): Promise<DashboardData> {
  const nowMs = deps.clock.now();
  // Midnight and the hour's start in the exchange's zone, as unix seconds.
  const offset = zoneOffsetMs(wallClockFormat(deps.timeZone), nowMs);
  const wall = nowMs + offset;
  const midnight = Math.floor((wall - (wall % 86_400_000) - offset) / 1000);
  const hour = Math.floor((wall - (wall % 3_600_000) - offset) / 1000);
  const [settings, state, total, today, thisHour, sms] = await Promise.all([
    loadCdrPushSettings(deps.store),
    readPushState(deps.store.db),
    countCdrRecords(deps.store),
    countSince(deps, midnight),
    countSince(deps, hour),
    deps.store.db
      .selectFrom('sms_message')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('type', '=', 'sent')
      .where('status', 'in', ['queued', 'sending', 'failed'])
      .groupBy('status')
      .execute(),
  ]);
  const others = await Promise.all(
    (await listDestinations(deps.store)).slice(1).map(async (d) => {
      const st = await readPushState(deps.store.db, d.id);
      return {
        id: d.id,
        name: d.settings.name,
        enabled: d.settings.enabled,
        backlog: await backlogOf(deps.store, st),
        failingSinceMs: st.failingSinceMs,
        alert: isAlerting(d.settings, st.failingSinceMs, nowMs),
      };
    }),
  );
  const smsCount = (statuses: string[]) =>
    sms.filter((r) => statuses.includes(r.status)).reduce((a, r) => a + Number(r.n), 0);
  return {
    username: user.username,
    timeZone: deps.timeZone,
    recordsTotal: total,
    recordsToday: today,
    recordsThisHour: thisHour,
    push: {
      enabled: settings.enabled,
      backlog: await backlogOf(deps.store, state),
      lastSuccessMs: state.lastSuccessMs,
      failingSinceMs: state.failingSinceMs,
      alert: isAlerting(settings, state.failingSinceMs, nowMs),
      others,
    },
    ingest: deps.ingest.statuses(),
    modem: deps.sms ? deps.sms.modemStatus() : null,
    sms: { queued: smsCount(['queued', 'sending']), failed: smsCount(['failed']) },
    version: VERSION,
    uptimeSeconds: Math.max(0, Math.floor((nowMs - STARTED_MS) / 1000)),
  };
}

/** One page of the call list for a query (filters as the pull API takes them). */
export async function cdrPageData(
  deps: ConsoleDeps,
  user: UserInfo,
  query: Record<string, unknown>,
): Promise<CdrPageData> {
  const given: Record<string, string> = {};
  for (const name of [...CDR_PAGE_FILTERS.map((f) => f.name), 'disposition'] as const) {
    const v = query[name];
    if (typeof v === 'string' && v !== '') given[name] = v;
  }
  const pageText = typeof query.page === 'string' && /^[1-9]\d{0,6}$/.test(query.page) ? query.page : '1';
  const page = Number(pageText);
  const parsed = parseCdrFilter({ ...given, order: 'desc' }, deps.timeZone);
  const empty = { username: user.username, query: given, records: [], page, totalPages: 0, total: 0 };
  if (!parsed.ok) {
    const field = /^(\w+):/.exec(parsed.message)?.[1] ?? 'from';
    return { ...empty, error: { field, message: parsed.message } };
  }
  const f = parsed.filter;
  const { n } = await whereFilter(
    deps.store.db.selectFrom('cdr').select((eb) => eb.fn.countAll<number>().as('n')),
    f,
  ).executeTakeFirstOrThrow();
  const total = Number(n);
  const rows = await whereFilter(deps.store.db.selectFrom('cdr').selectAll(), f)
    .orderBy('db_id', 'desc')
    .offset((page - 1) * CDR_PAGE_SIZE)
    .limit(CDR_PAGE_SIZE)
    .execute();
  const time = new TimeFormatter(deps.timeZone);
  return {
    ...empty,
    error: null,
    records: rows.map((r) => toWireRecord(r, time)),
    total,
    totalPages: Math.ceil(total / CDR_PAGE_SIZE),
  };
}

/** The SMS page: both collections newest first, and the modem as the service reports it. */
export async function smsPageData(deps: ConsoleDeps, user: UserInfo): Promise<SmsPageData> {
  const dates = new TimeFormatter(deps.timeZone);
  const [received, sent] = await Promise.all([
    listMessages(deps.store, 'received'),
    listMessages(deps.store, 'sent'),
  ]);
  const wire = (rows: typeof received) => rows.reverse().map((r) => toWireMessage(r, dates));
  return {
    username: user.username,
    modem: deps.sms ? (deps.sms.modemReady() ? 'ready' : 'not ready') : 'none',
    modemStatus: deps.sms ? deps.sms.modemStatus() : null,
    received: wire(received),
    sent: wire(sent),
  };
}
