// PBX > Settings > Extra Configurations: the CDR API section (push settings, secrets shown only as
// set / not set), "send test record", replay, and the delivery status with the recent attempts,
// for destination 1 (the seed's form) or, with ?destination=N, any other push destination; below
// them the list of every destination with "Add destination". The form is filled here from the
// saved settings; extra-configurations.js sends it to the REST API.
import type { CdrPushSettingsView, DeliveryAttempt } from '../cdr/push/index.js';
import { CDR_WIRE_FIELDS } from '../cdr/record.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';
import { settingsTabs } from './settings-tabs.js';

/** The page's path: PBX > Settings opens on this tab. */
export const EXTRA_CONFIGURATIONS_PATH = '/pbx/settings';

/** Where the page was before PBX > Settings had tabs; it redirects here. */
export const OLD_EXTRA_CONFIGURATIONS_PATH = '/pbx/settings/extra-configurations';

/** The breadcrumb the page is titled with. */
export const EXTRA_CONFIGURATIONS_TITLE = 'PBX > Settings > Extra Configurations';

/** The delivery status shown under the form (what GET /api/cdr-push/log answers). */
export interface DeliveryStatus {
  enabled: boolean;
  lastAcknowledgedDbId: number | null;
  backlog: number;
  failingSinceMs: number | null;
  lastSuccessMs: number | null;
  /** Records set aside by the park poison policy. */
  parked: number;
  attempts: readonly DeliveryAttempt[];
}

/** One destination in the list at the bottom of the page. */
export interface DestinationRow {
  id: number;
  name: string;
  url: string;
  enabled: boolean;
  backlog: number;
  failingSinceMs: number | null;
  alert: boolean;
  parked: number;
}

/** What the page shows. */
export interface ExtraConfigurationsData {
  username: string;
  /** The destination the form edits (1: the CDR API section). */
  destination: number;
  settings: CdrPushSettingsView;
  status: DeliveryStatus;
  destinations: readonly DestinationRow[];
}

/** The page's address for a destination. */
export function destinationPath(id: number): string {
  return id === 1 ? EXTRA_CONFIGURATIONS_PATH : `${EXTRA_CONFIGURATIONS_PATH}?destination=${id}`;
}

const SECRETS = [
  { name: 'api_key', label: 'API Key', set: (s: CdrPushSettingsView) => s.api_key_set },
  { name: 'bearer_token', label: 'Bearer Token', set: (s: CdrPushSettingsView) => s.bearer_token_set },
  { name: 'password', label: 'Password', set: (s: CdrPushSettingsView) => s.password_set },
] as const;

const checked = (on: boolean) => (on ? html` checked` : '');
const iso = (ms: number) => new Date(ms).toISOString();
const timeOf = (ms: number | null, none: string): Html | string =>
  ms === null ? none : html`<time datetime="${iso(ms)}">${iso(ms)}</time>`;

function secretRow(name: string, label: string, isSet: boolean): Html {
  const state = isSet ? 'set' : 'not set';
  const placeholder = isSet ? 'set; leave empty to keep it' : 'not set';
  return html`<div class="row secret">
    <label for="${name}">${label}</label>
    <input id="${name}" name="${name}" type="password" autocomplete="new-password" placeholder="${placeholder}" aria-describedby="${name}-state">
    <span class="state" id="${name}-state" data-set="${String(isSet)}">${state}</span>
    <span class="clear"><input type="checkbox" id="${name}-clear"> <label for="${name}-clear">Clear ${label}</label></span>
  </div>`;
}

function settingsForm(s: CdrPushSettingsView, destination: number): Html {
  const method = (m: string) =>
    html`<option value="${m}"${s.method === m ? html` selected` : ''}>${m}</option>`;
  const field = (f: string) =>
    html`<span class="field"><input type="checkbox" id="field-${f}" name="fields" value="${f}"${checked(
      s.fields.includes(f as (typeof s.fields)[number]),
    )}> <label for="field-${f}">${f}</label></span>`;
  const [apiKey, bearer, password] = SECRETS;
  const nameRow =
    destination === 1
      ? ''
      : html`<div class="row">
    <label for="name">Name</label>
    <input id="name" name="name" value="${s.name}" maxlength="100" autocomplete="off" placeholder="CRM, billing, ...">
  </div>`;
  return html`<form id="cdr-push-form" class="card" novalidate data-destination="${String(destination)}">
  <div id="settings-error" class="error" role="alert" hidden></div>
  <p id="settings-saved" class="ok" role="status"></p>
  ${nameRow}
  <div class="row">
    <span class="label-cell"></span>
    <span><input type="checkbox" id="enabled" name="enabled"${checked(s.enabled)}> <label for="enabled">Enable CDR Log To API</label></span>
  </div>
  <div class="row">
    <label for="url">API URL</label>
    <input id="url" name="url" type="url" value="${s.url}" placeholder="https://crm.example/cdr" autocomplete="off">
  </div>
  <div class="row">
    <label for="method">Method</label>
    <select id="method" name="method">${method('POST')}${method('PUT')}</select>
  </div>
  ${secretRow(apiKey.name, apiKey.label, apiKey.set(s))}
  ${secretRow(bearer.name, bearer.label, bearer.set(s))}
  <div class="row">
    <label for="username">Username</label>
    <input id="username" name="username" value="${s.username}" autocomplete="off">
  </div>
  ${secretRow(password.name, password.label, password.set(s))}
  <fieldset id="fields" tabindex="-1">
    <legend>Parameters (record fields to send)</legend>
    ${CDR_WIRE_FIELDS.map(field)}
  </fieldset>
  <div class="row">
    <label for="interval_seconds">Interval (seconds)</label>
    <input id="interval_seconds" name="interval_seconds" type="number" min="1" max="86400" step="1" value="${s.interval_seconds}">
  </div>
  <div class="row">
    <label for="batch_size">Batch size</label>
    <input id="batch_size" name="batch_size" type="number" min="1" max="1000" step="1" value="${s.batch_size}">
  </div>
  <div class="row">
    <label for="poison_policy">Record refused again and again</label>
    <select id="poison_policy" name="poison_policy" aria-describedby="poison-hint">
      <option value="hold"${s.poison_policy === 'hold' ? html` selected` : ''}>Hold: keep retrying it (the records behind it wait)</option>
      <option value="park"${s.poison_policy === 'park' ? html` selected` : ''}>Park: set it aside and go on</option>
    </select>
  </div>
  <div class="row">
    <label for="poison_after">Refusals before it counts</label>
    <input id="poison_after" name="poison_after" type="number" min="1" max="100" step="1" value="${s.poison_after}" aria-describedby="poison-hint">
  </div>
  <p class="hint" id="poison-hint">A record refused with the same 4xx answer this many times in a row. Parked records are listed under Delivery status and can be resent.</p>
  <div class="row">
    <label for="alert_after_seconds">Alert after (seconds failing)</label>
    <input id="alert_after_seconds" name="alert_after_seconds" type="number" min="0" max="604800" step="1" value="${s.alert_after_seconds}" aria-describedby="alert-hint">
  </div>
  <p class="hint" id="alert-hint">Raise push:failing (log, dashboard, webhook event) when deliveries fail this long without a success; 0 never.</p>
  <div class="row">
    <label for="signing">Signatures</label>
    <select id="signing" name="signing" aria-describedby="signing-state">
      <option value="keep" selected>Keep as they are</option>
      <option value="generate">Sign with a new secret</option>
      <option value="rotate"${s.signing_secret_set ? '' : html` disabled`}>Rotate the secret (the old one signs too until the rotation ends)</option>
      <option value="end"${s.signing_rotating ? '' : html` disabled`}>End the rotation (only the new secret signs)</option>
      <option value="stop"${s.signing_secret_set ? '' : html` disabled`}>Stop signing</option>
    </select>
    <span class="state" id="signing-state">${s.signing_secret_set ? (s.signing_rotating ? 'signed (rotating)' : 'signed') : 'not signed'}</span>
  </div>
  <p class="hint">Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature). A new secret is shown once, here, after Save.</p>
  <div id="signing-secret" class="credential" role="status"></div>
  <div class="row">
    <span class="label-cell"></span>
    <span><input type="checkbox" id="send_history" name="send_history"${checked(s.send_history)}> <label for="send_history">Send history (stored records too, on the first enable)</label></span>
  </div>
  <div class="actions"><button type="submit" id="save">Save</button></div>
</form>`;
}

function attemptRow(a: DeliveryAttempt): Html {
  const ids =
    a.firstDbId === null
      ? '-'
      : a.firstDbId === a.lastDbId
        ? String(a.firstDbId)
        : `${a.firstDbId}-${a.lastDbId}`;
  return html`<tr>
    <td>${timeOf(a.atMs, '')}</td>
    <td>${a.kind}</td>
    <td>${ids}</td>
    <td class="num">${a.records}</td>
    <td class="num">${a.status ?? '-'}</td>
    <td class="num">${Math.round(a.latencyMs)} ms</td>
    <td>${a.error}</td>
  </tr>`;
}

function statusSection(st: DeliveryStatus, destination: number): Html {
  const rows =
    st.attempts.length === 0
      ? html`<tr><td colspan="7">No attempts yet.</td></tr>`
      : st.attempts.map(attemptRow);
  return html`<section aria-labelledby="status-heading">
  <h2 id="status-heading">Delivery status</h2>
  <dl class="status card">
    <dt>Delivery</dt><dd id="status-enabled">${st.enabled ? 'enabled' : 'disabled'}</dd>
    <dt>Backlog</dt><dd id="status-backlog">${st.backlog}</dd>
    <dt>Last acknowledged db_id</dt><dd id="status-acked">${st.lastAcknowledgedDbId ?? 'none (never enabled)'}</dd>
    <dt>Failing since</dt><dd id="status-failing">${timeOf(st.failingSinceMs, 'not failing')}</dd>
    <dt>Last success</dt><dd id="status-success">${timeOf(st.lastSuccessMs, 'none')}</dd>
    <dt>Parked records</dt><dd id="status-parked">${st.parked}</dd>
  </dl>
  <div class="row">
    <span class="label-cell"></span>
    <span><button type="button" id="resend-parked"${st.parked === 0 ? html` disabled` : ''}>Resend parked records</button></span>
  </div>
  <div id="resend-result" class="result" role="status"></div>
  <p><a href="${destinationPath(destination)}" id="refresh">Refresh</a></p>
  <table id="attempts">
    <caption>Recent attempts, newest first</caption>
    <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Kind</th><th scope="col">db_ids</th><th scope="col">Records</th><th scope="col">HTTP status</th><th scope="col">Latency</th><th scope="col">Error</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>
</section>`;
}

function destinationRow(r: DestinationRow, current: number): Html {
  const label = r.name === '' ? `Destination ${r.id}` : `${r.name} (destination ${r.id})`;
  const link =
    r.id === current
      ? html`<a href="${destinationPath(r.id)}" aria-current="page">${label}</a>`
      : html`<a href="${destinationPath(r.id)}">${label}</a>`;
  return html`<tr data-destination="${String(r.id)}">
    <td>${link}</td>
    <td>${r.url === '' ? 'not set' : r.url}</td>
    <td>${r.enabled ? 'enabled' : 'disabled'}</td>
    <td class="num">${r.backlog}</td>
    <td>${r.alert ? html`<strong class="error">push:failing</strong> since ` : ''}${timeOf(r.failingSinceMs, 'not failing')}</td>
    <td class="num">${r.parked}</td>
  </tr>`;
}

function destinationsSection(d: ExtraConfigurationsData): Html {
  return html`<section aria-labelledby="destinations-heading">
  <h2 id="destinations-heading">Push destinations</h2>
  <p class="hint">Each destination has its own settings, cursor, log and parked records; one that fails
  never holds another back. Destination 1 is the CDR API section itself.</p>
  <table id="destinations">
    <caption>Every destination</caption>
    <thead><tr><th scope="col">Destination</th><th scope="col">API URL</th><th scope="col">Delivery</th><th scope="col">Backlog</th><th scope="col">Failing since</th><th scope="col">Parked</th></tr></thead>
    <tbody>${d.destinations.map((r) => destinationRow(r, d.destination))}</tbody>
  </table>
  <form id="add-destination-form" class="card" novalidate>
    <div class="row">
      <label for="new_name">New destination's name</label>
      <input id="new_name" name="new_name" maxlength="100" autocomplete="off" placeholder="billing" aria-describedby="new_name-error">
      <button type="submit" id="add-destination">Add destination</button>
    </div>
    <div id="new_name-error" class="field-error" role="alert"></div>
  </form>
  ${
    d.destination === 1
      ? ''
      : html`<div class="row">
    <span class="label-cell"></span>
    <span><button type="button" id="remove-destination">Remove destination ${d.destination}</button></span>
  </div>
  <div id="remove-result" class="result" role="status"></div>`
  }
</section>`;
}

/** The whole page. */
export function extraConfigurationsPage(d: ExtraConfigurationsData): string {
  const heading =
    d.destination === 1
      ? 'CDR API'
      : `CDR API: destination ${d.destination}${d.settings.name === '' ? '' : ` (${d.settings.name})`}`;
  const body = html`<nav aria-label="Breadcrumb" class="breadcrumb"><ol><li>PBX</li><li>Settings</li><li aria-current="page">Extra Configurations</li></ol></nav>
<h1>${EXTRA_CONFIGURATIONS_TITLE}</h1>
${settingsTabs(EXTRA_CONFIGURATIONS_PATH)}
<section aria-labelledby="cdr-api-heading">
  <h2 id="cdr-api-heading">${heading}</h2>
  <p class="hint">Sends new call records to your API, one interval after the end of each run. Secrets are
  never shown: leave a secret empty to keep it, or tick its "Clear" box to remove it.</p>
  ${settingsForm(d.settings, d.destination)}
</section>
<section aria-labelledby="tools-heading">
  <h2 id="tools-heading">Test and replay</h2>
  <div class="card">
    <p class="hint">Both use the saved settings.</p>
    <div class="row">
      <span class="label-cell"></span>
      <span><button type="button" id="send-test">Send test record</button></span>
    </div>
    <div id="test-result" class="result" role="status"></div>
    <form id="replay-form" novalidate>
      <div class="row">
        <label for="from_db_id">Replay from db_id</label>
        <input id="from_db_id" name="from_db_id" type="number" min="1" step="1">
        <button type="submit" id="replay">Replay</button>
      </div>
    </form>
    <div id="replay-result" class="result" role="status"></div>
  </div>
</section>
${statusSection(d.status, d.destination)}
${destinationsSection(d)}`;
  return layout({
    title: EXTRA_CONFIGURATIONS_TITLE,
    script: 'extra-configurations.js',
    username: d.username,
    body,
    path: EXTRA_CONFIGURATIONS_PATH,
  });
}

/** The page a logged-in user who is not an administrator gets (403). */
export function notAdminPage(username: string): string {
  const body = html`<h1>Not allowed</h1>
<p class="error" role="alert">User ${username} is not an administrator; the console is for administrators only.</p>`;
  return layout({ title: 'Not allowed', script: 'extra-configurations.js', username, body });
}
