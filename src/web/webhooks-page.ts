// System > Webhooks: the webhooks for SMS and modem events (URL, events, signing, state), add one
// (its secret shown once), rotate a secret, remove. webhooks.js calls /api/webhooks.

import { EVENT_TYPES } from '../webhooks/events.js';
import type { WebhookInfo } from '../webhooks/webhook-store.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';

/** The page's path. */
export const WEBHOOKS_PATH = '/system/webhooks';

const iso = (ms: number | null) =>
  ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function row(w: WebhookInfo): Html {
  const state = w.lastError ? `failing since ${iso(w.failingSinceMs)}: ${w.lastError}` : 'delivering';
  return html`<tr data-id="${String(w.id)}">
  <th scope="row"><code>${w.url}</code></th>
  <td>${w.events.join(', ')}</td>
  <td>${w.signed ? (w.rotating ? 'signed (rotating)' : 'signed') : 'unsigned'}</td>
  <td>${state}</td>
  <td>${String(w.cursor)}</td>
  <td class="actions">
    <button type="button" class="rotate" aria-label="Rotate the secret of webhook ${String(w.id)}">Rotate secret</button>
    ${w.rotating ? html`<button type="button" class="end-rotation" aria-label="End the rotation of webhook ${String(w.id)}">End rotation</button>` : ''}
    <button type="button" class="remove" aria-label="Remove webhook ${String(w.id)}">Remove</button>
  </td>
</tr>`;
}

/** The whole page. */
export function webhooksPage(username: string, webhooks: readonly WebhookInfo[]): string {
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>System</li><li aria-current="page">Webhooks</li></ol></nav>
<h1>Webhooks</h1>
<p class="hint">Events are POSTed as JSON, signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>); see docs/sms.md.</p>
<div id="webhooks-error" class="error" role="alert" hidden></div>
<div id="secret" class="credential" role="status" aria-live="polite"></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Webhooks table">
<table id="webhooks">
  <caption>Webhooks and their delivery state</caption>
  <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Signing</th><th scope="col">State</th><th scope="col">Last event</th><th scope="col">Actions</th></tr></thead>
  <tbody>${webhooks.map(row)}</tbody>
</table>
${webhooks.length === 0 ? html`<p>None yet.</p>` : ''}
</div>
<h2>Add a webhook</h2>
<form id="add-webhook" class="card" novalidate>
  <div class="row"><label for="webhook-url">URL</label><span><input id="webhook-url" class="path" type="url" required autocomplete="off" placeholder="https://crm.example/sms" aria-describedby="webhook-url-error"><span id="webhook-url-error" class="field-error"></span></span></div>
  <fieldset id="webhook-events" class="choices" aria-describedby="webhook-events-error"><legend>Events</legend>
    ${EVENT_TYPES.map((e) => html`<label><input type="checkbox" value="${e}"> ${e}</label> `)}
    <span id="webhook-events-error" class="field-error"></span>
  </fieldset>
  <div class="actions"><button type="submit">Add webhook</button></div>
</form>`;
  return layout({
    title: 'Webhooks',
    username,
    body,
    path: WEBHOOKS_PATH,
    script: 'webhooks.js',
    sharedHelpers: true,
  });
}
