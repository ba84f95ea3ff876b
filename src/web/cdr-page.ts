// PBX > Call records: the records as the pull API sends them, newest first, a page at a time, with
// the filters of GET /pbx/cdr/data in a plain GET form (no script) and links exporting the
// filtered set as CSV or JSON (GET /pbx/cdr/export).
import type { CdrWireRecord } from '../cdr/record.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';

/** The page's path. */
export const CDR_PAGE_PATH = '/pbx/cdr';

/** The filter fields, as the form and the query name them. */
export const CDR_PAGE_FILTERS = [
  { name: 'from', label: 'From (date)', type: 'date' },
  { name: 'to', label: 'To (date)', type: 'date' },
  { name: 'source', label: 'Source', type: 'text' },
  { name: 'destination', label: 'Destination', type: 'text' },
  { name: 'caller_id', label: 'Caller ID contains', type: 'text' },
] as const;

const DISPOSITIONS = ['ANSWERED', 'NO ANSWER', 'BUSY', 'FAILED', 'CONGESTION'];

/** What the page shows. */
export interface CdrPageData {
  username: string;
  /** The filter values as given (empty when absent). */
  query: Record<string, string>;
  /** A refused filter: the field it names and the message. */
  error: { field: string; message: string } | null;
  records: readonly CdrWireRecord[];
  page: number;
  totalPages: number;
  total: number;
}

function queryString(q: Record<string, string>, extra: Record<string, string>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...q, ...extra })) if (v) p.set(k, v);
  return p.toString();
}

function filterForm(d: CdrPageData): Html {
  const err = (name: string) => (d.error?.field === name ? d.error.message : '');
  const input = (f: (typeof CDR_PAGE_FILTERS)[number]) => html`<span>
    <label for="f-${f.name}">${f.label}</label>
    <input id="f-${f.name}" name="${f.name}" type="${f.type}" value="${d.query[f.name] ?? ''}" aria-describedby="f-${f.name}-error"${err(f.name) ? html` aria-invalid="true"` : ''}>
    <span id="f-${f.name}-error" class="field-error">${err(f.name)}</span>
  </span>`;
  const current = d.query.disposition ?? '';
  return html`<form id="cdr-filters" class="card filters" method="get" action="${CDR_PAGE_PATH}">
  ${CDR_PAGE_FILTERS.map(input)}
  <span>
    <label for="f-disposition">Disposition</label>
    <select id="f-disposition" name="disposition">
      <option value="">any</option>
      ${DISPOSITIONS.map((x) => html`<option value="${x}"${current.toUpperCase() === x ? html` selected` : ''}>${x}</option>`)}
    </select>
  </span>
  <span><button type="submit">Filter</button> <a href="${CDR_PAGE_PATH}">Clear</a></span>
</form>`;
}

function recordRow(r: CdrWireRecord): Html {
  return html`<tr>
  <td>${r.start_time}</td><td>${r.caller_id}</td><td>${r.source}</td><td>${r.destination}</td>
  <td>${r.disposition}</td><td>${r.answer_time}</td><td>${r.end_time}</td><td><code>${r.call_id}</code></td>
</tr>`;
}

/** The whole page. */
export function cdrPage(d: CdrPageData): string {
  const q = d.query;
  const pager = html`<nav class="pager" aria-label="Pages">
    ${d.page > 1 ? html`<a href="${CDR_PAGE_PATH}?${queryString(q, { page: String(d.page - 1) })}" rel="prev">Newer</a>` : ''}
    <span>Page ${d.page} of ${Math.max(1, d.totalPages)} (${d.total} records)</span>
    ${d.page < d.totalPages ? html`<a href="${CDR_PAGE_PATH}?${queryString(q, { page: String(d.page + 1) })}" rel="next">Older</a>` : ''}
  </nav>`;
  const exportQuery = (format: string) => `/pbx/cdr/export?${queryString(q, { format, order: 'desc' })}`;
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>PBX</li><li aria-current="page">Call records</li></ol></nav>
<h1>Call records</h1>
${filterForm(d)}
<p class="actions">Export these records: <a id="export-csv" href="${exportQuery('csv')}">CSV</a> <a id="export-json" href="${exportQuery('json')}">JSON</a></p>
${pager}
<div class="card table-wrap" tabindex="0" role="region" aria-label="Call records table">
<table id="records">
  <caption>Newest first; times in the exchange's time zone</caption>
  <thead><tr><th scope="col">Start</th><th scope="col">Caller ID</th><th scope="col">Source</th><th scope="col">Destination</th><th scope="col">Disposition</th><th scope="col">Answered</th><th scope="col">End</th><th scope="col">Call ID</th></tr></thead>
  <tbody>${d.records.map(recordRow)}</tbody>
</table>
${d.records.length === 0 ? html`<p>No records${d.error ? '' : ' match'}.</p>` : ''}
</div>`;
  return layout({ title: 'Call records', username: d.username, body, path: CDR_PAGE_PATH });
}
