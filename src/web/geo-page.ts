// Routing > Geo: the geo files the lookup service answers from (set here, kept in the store), each
// file's lists with their counts, the last load and its error, and a lookup box (a domain or an
// address -> the lists it falls in). geo.js calls PUT /api/geo/files, POST /api/geo/reload and
// POST /api/geo/lookup with the console session.
import type { GeoServiceStatus, LoadedGeoFile } from '../geo/index.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';

/** The page's path. */
export const GEO_PAGE_PATH = '/routing/geo';

const iso = (ms: number | null) =>
  ms === null ? 'never' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function listsTable(f: LoadedGeoFile): Html {
  const selected = new Set(f.selected.map((s) => s.split('@')[0]));
  const types = f.kind === 'site' ? ['domain', 'full', 'keyword', 'regexp'] : ['ipv4', 'ipv6'];
  const id = `lists-${f.kind}`;
  return html`<details class="card">
  <summary>${f.kind === 'site' ? 'Site' : 'IP'} file <code>${f.path}</code>: ${String(f.lists.length)} lists, ${String(f.sizeBytes)} bytes, modified ${iso(f.modifiedMs)}</summary>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Lists of the ${f.kind} file">
  <table id="${id}">
    <caption>Lists of ${f.path}</caption>
    <thead><tr><th scope="col">Code</th><th scope="col">Entries</th>${types.map((t) => html`<th scope="col">${t}</th>`)}<th scope="col">Compiled</th></tr></thead>
    <tbody>${f.lists.map(
      (l) =>
        html`<tr><th scope="row">${l.code}</th><td>${String(l.count)}</td>${types.map(
          (t) => html`<td>${String(l.byType[t] ?? 0)}</td>`,
        )}<td>${selected.has(l.code) ? 'yes' : 'no'}</td></tr>`,
    )}</tbody>
  </table>
  </div>
</details>`;
}

/** The whole page; `status` is null when the server runs no geo service (outside serve). */
export function geoPage(username: string, status: GeoServiceStatus | null): string {
  const site = status?.site?.path ?? '';
  const ip = status?.ip?.path ?? '';
  const from = (c: GeoServiceStatus['site']) =>
    c ? (c.from === 'console' ? 'set here' : 'from the serve flag') : 'none';
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>Routing</li><li aria-current="page">Geo</li></ol></nav>
<h1>Geo</h1>
${
  status === null
    ? html`<p class="error" role="alert">This server runs no geo service (it was not started by <code>branchgate serve</code>).</p>`
    : html`<h2>Lookup</h2>
<form id="geo-lookup" class="card" novalidate>
  <div class="row"><label for="query">Domain or IP address</label><span><input id="query" required autocomplete="off" placeholder="www.example.com or 192.0.2.1" aria-describedby="query-error"><span id="query-error" class="field-error"></span></span></div>
  <div class="actions"><button type="submit">Look up</button></div>
  <p id="lookup-result" role="status" aria-live="polite"></p>
</form>
<h2>Files</h2>
<form id="geo-files" class="card" novalidate>
  <p class="hint">Paths on the server. Files set here are kept in the store and used instead of <code>--geosite</code>/<code>--geoip</code>; leave a field empty to go back to the flag. Files are reloaded when they change on disk.</p>
  <div class="row"><label for="site-path">Site file (geosite.dat)</label><span><input id="site-path" class="path" value="${site}" autocomplete="off" aria-describedby="site-from site-path-error"><span id="site-from" class="hint">${from(status.site)}</span><span id="site-path-error" class="field-error"></span></span></div>
  <div class="row"><label for="ip-path">IP file (geoip.dat)</label><span><input id="ip-path" class="path" value="${ip}" autocomplete="off" aria-describedby="ip-from ip-path-error"><span id="ip-from" class="hint">${from(status.ip)}</span><span id="ip-path-error" class="field-error"></span></span></div>
  <div class="actions"><button type="submit">Save</button> <button type="button" id="reload">Reload now</button></div>
  <p id="files-status" role="status"></p>
</form>
<dl class="status" id="geo-state">
  <dt>Loaded</dt><dd id="loaded-at">${iso(status.loadedAtMs)}${status.loadMs === null ? '' : ` (${status.loadMs} ms)`}</dd>
  <dt>Loads</dt><dd>${String(status.reloads)}</dd>
  <dt>Last error</dt><dd id="last-error">${status.lastError ? `${iso(status.lastError.atMs)}: ${status.lastError.message}` : 'none'}</dd>
</dl>
${status.files.length === 0 ? html`<p id="no-files">No file is loaded.</p>` : status.files.map(listsTable)}`
}`;
  return layout({ title: 'Geo', username, body, path: GEO_PAGE_PATH, script: 'geo.js', sharedHelpers: true });
}
