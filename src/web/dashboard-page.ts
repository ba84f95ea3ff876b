// The console's home: records today and this hour, the push job's state, the live ingest sources,
// SMS waiting or failed, version and uptime, each linking to the page that manages it.
import type { IngestSourceStatus } from '../cdr/ingest/live/ingest-source.js';
import type { ModemStatusView } from '../sms/index.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';
import { modemRows } from './modem-rows.js';

/** What the dashboard shows. */
export interface DashboardData {
  username: string;
  timeZone: string;
  recordsTotal: number;
  recordsToday: number;
  recordsThisHour: number;
  push: {
    enabled: boolean;
    backlog: number;
    lastSuccessMs: number | null;
    failingSinceMs: number | null;
    /** Failing for longer than alert_after_seconds (push:failing). */
    alert: boolean;
    /** Destinations after the first, a row each. */
    others: ReadonlyArray<{
      id: number;
      name: string;
      enabled: boolean;
      backlog: number;
      failingSinceMs: number | null;
      alert: boolean;
    }>;
  };
  ingest: readonly IngestSourceStatus[];
  sms: { queued: number; failed: number };
  modem: ModemStatusView | null;
  version: string;
  uptimeSeconds: number;
}

const iso = (ms: number | null) =>
  ms === null ? 'never' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function uptime(s: number): string {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d > 0 ? `${d} d ` : ''}${h} h ${m} min`;
}

function tile(title: string, href: string | null, rows: ReadonlyArray<[string, string | number]>): Html {
  const id = `tile-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return html`<section class="card" aria-labelledby="${id}">
  <h2 id="${id}">${href ? html`<a href="${href}">${title}</a>` : title}</h2>
  <dl class="status">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl>
</section>`;
}

/** The whole page. */
export function dashboardPage(d: DashboardData): string {
  const failing = d.push.failingSinceMs !== null;
  const ingestRows: Array<[string, string]> =
    d.ingest.length === 0
      ? [['sources', 'none (serve --ingest-ami, --ingest-csv, --ingest-sql, or POST /api/cdr)']]
      : d.ingest.map((s) => [
          s.id,
          `${s.state}, ${s.recordsStored} stored${s.lastError ? `; last error: ${s.lastError.message}` : ''}`,
        ]);
  const body = html`<h1>Dashboard</h1>
<div class="tiles">
${tile('Call records', '/pbx/cdr', [
  ['today', d.recordsToday],
  ['this hour', d.recordsThisHour],
  ['stored', d.recordsTotal],
  ['time zone', d.timeZone],
])}
${tile('CDR push', '/pbx/settings', [
  ['enabled', d.push.enabled ? 'yes' : 'no'],
  ['backlog', d.push.backlog],
  ['last success', iso(d.push.lastSuccessMs)],
  ['failing since', failing ? iso(d.push.failingSinceMs) : '-'],
  ['alert', d.push.alert ? 'push:failing (longer than the alert threshold)' : 'none'],
  ...d.push.others.map((o): [string, string] => [
    `destination ${o.id}${o.name ? ` (${o.name})` : ''}`,
    !o.enabled
      ? 'disabled'
      : `backlog ${o.backlog}${o.failingSinceMs === null ? '' : `, failing since ${iso(o.failingSinceMs)}`}${o.alert ? ', push:failing' : ''}`,
  ]),
])}
${tile('CDR ingest', null, ingestRows)}
${tile('SMS', '/lte/sms', [
  ['waiting to send', d.sms.queued],
  ['failed', d.sms.failed],
])}
${tile('Modem', '/lte/sms', modemRows(d.modem))}
${tile('branchgate', '/system/users', [
  ['version', d.version],
  ['up for', uptime(d.uptimeSeconds)],
])}
</div>`;
  return layout({ title: 'Dashboard', username: d.username, body, path: '/' });
}
