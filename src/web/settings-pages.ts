// PBX > Settings, the tabs after Extra Configurations: Ingest sources (the live CDR sources with
// their state; add and remove those kept in the store, through /api/ingest/sources) and System
// (the time zone records are shown in, and the TLS certificate served: subject, issuer, expiry).
import type { IngestSourceStatus } from '../cdr/ingest/live/ingest-source.js';
import type { SourceEntry } from '../cdr/ingest/live/stored-sources.js';
import type { CertificateView } from '../server/tls-certificate.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';
import { settingsTabs } from './settings-tabs.js';

/** The TLS certificate as the System tab shows it. */
export type { CertificateView };

const crumbs = (tab: string) =>
  html`<nav aria-label="Breadcrumb" class="breadcrumb"><ol><li>PBX</li><li>Settings</li><li aria-current="page">${tab}</li></ol></nav>
<h1>PBX &gt; Settings &gt; ${tab}</h1>`;

function sourceRow(e: SourceEntry, s: IngestSourceStatus | undefined): Html {
  return html`<tr data-id="${e.id}">
  <th scope="row"><code>${e.id}</code></th><td>${e.kind}</td><td>${e.target}</td>
  <td>${s?.state ?? '-'}</td><td>${String(s?.recordsStored ?? 0)}</td><td>${s?.lastError?.message ?? ''}</td>
  <td>${e.origin === 'stored' ? html`<button type="button" class="remove" aria-label="Remove ${e.id}">Remove</button>` : 'serve flag'}</td>
</tr>`;
}

/** The Ingest sources tab; `sources` is null when the server runs none (not under serve). */
export function ingestSettingsPage(
  username: string,
  sources: readonly SourceEntry[] | null,
  statuses: readonly IngestSourceStatus[],
): string {
  const byId = new Map(statuses.map((s) => [s.id, s]));
  const body = html`${crumbs('Ingest sources')}
${settingsTabs('/pbx/settings/ingest')}
<p class="hint">Live CDR sources (docs/cdr-ingest.md). Those given by serve flags are changed on the command line; those added here are kept in the store and run at every start.</p>
<div id="ingest-error" class="error" role="alert" hidden></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Ingest sources table">
<table id="sources">
  <caption>Sources and their state</caption>
  <thead><tr><th scope="col">Id</th><th scope="col">Kind</th><th scope="col">Reads from</th><th scope="col">State</th><th scope="col">Stored</th><th scope="col">Last error</th><th scope="col">Actions</th></tr></thead>
  <tbody>${(sources ?? []).map((e) => sourceRow(e, byId.get(e.id)))}</tbody>
</table>
${sources === null ? html`<p>This server runs no ingest sources (it was not started with serve).</p>` : sources.length === 0 ? html`<p>No sources yet.</p>` : ''}
</div>
<h2>Add a source</h2>
<form id="add-source" class="card" novalidate>
  <div class="row"><label for="kind">Kind</label><select id="kind"><option value="ami">AMI (ami://user:secret@host:5038?tz=Zone)</option><option value="csv">Master.csv (path?columns=...&amp;tz=...)</option><option value="sql">CDR table (mysql:// or postgres:// URL, ?table=cdr)</option></select></div>
  <div class="row"><label for="source">Source</label><span><input id="source" type="password" autocomplete="off" required aria-describedby="source-hint source-error"><span id="source-hint" class="hint">As its serve flag takes it; a secret in it is kept in the store and never shown again.</span><span id="source-error" class="field-error"></span></span></div>
  <div class="actions"><button type="submit">Add source</button></div>
</form>`;
  return layout({
    title: 'Ingest sources',
    script: 'settings-ingest.js',
    sharedHelpers: true,
    username,
    body,
    path: '/pbx/settings',
  });
}

/** The System tab. */
export function systemSettingsPage(
  username: string,
  timeZone: string,
  cert: CertificateView | null,
  replaceable: boolean,
): string {
  const body = html`${crumbs('System')}
${settingsTabs('/pbx/settings/system')}
<section class="card" aria-labelledby="tz-heading">
  <h2 id="tz-heading">Time zone</h2>
  <dl class="status"><dt>Call record times are shown in</dt><dd id="time-zone">${timeZone}</dd></dl>
  <p class="hint">Set with <code>serve --time-zone</code> (or <code>BRANCHGATE_TIME_ZONE</code>); unix timestamps never change with it.</p>
</section>
<section class="card" aria-labelledby="tls-heading">
  <h2 id="tls-heading">TLS certificate</h2>
  ${
    cert
      ? html`<dl class="status" id="certificate">
    <dt>Subject</dt><dd>${cert.subject}</dd>
    <dt>Issuer</dt><dd>${cert.issuer}${cert.selfSigned ? ' (self-signed)' : ''}</dd>
    <dt>Valid from</dt><dd>${cert.validFrom}</dd>
    <dt>Valid until</dt><dd>${cert.validTo}</dd>
    <dt>SHA-256</dt><dd class="fingerprint">${cert.fingerprint256}</dd>
  </dl>`
      : html`<p>This server is not serving HTTPS.</p>`
  }
  ${
    replaceable
      ? html`<form id="tls-upload" novalidate>
    <h3>Replace it</h3>
    <p class="hint">A PEM certificate (with its chain, if any) and its private key. They are checked, written over the data directory's <code>tls-cert.pem</code> and <code>tls-key.pem</code>, and served to new connections at once; no restart.</p>
    <div class="row"><label for="tls-cert">Certificate (PEM)</label><span><input id="tls-cert" type="file" accept=".pem,.crt,.cer" aria-describedby="tls-cert-error"><span id="tls-cert-error" class="field-error"></span></span></div>
    <div class="row"><label for="tls-key">Private key (PEM)</label><span><input id="tls-key" type="file" accept=".pem,.key" aria-describedby="tls-key-error"><span id="tls-key-error" class="field-error"></span></span></div>
    <div class="actions"><button type="submit">Upload and serve</button></div>
    <p id="tls-status" role="status"></p>
  </form>`
      : html`<p class="hint">This certificate comes from <code>serve --tls-cert FILE --tls-key FILE</code>: replace those files and restart.</p>`
  }
</section>`;
  return layout({
    title: 'System settings',
    username,
    body,
    path: '/pbx/settings',
    script: 'settings-system.js',
    sharedHelpers: true,
  });
}
