// LTE > SMS: received and sent messages (status, parts, encoding), delete, and a send form whose
// counter shows characters and parts as the codec will split the text, marking the characters
// that force UCS-2. sms.js calls the four SMS endpoints (with the console session instead of
// `auth`) and /api/sms/split, and follows a sent message's status until it settles.
import type { ModemStatusView, SmsMessage } from '../sms/index.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';
import { modemRows } from './modem-rows.js';

/** The page's path. */
export const SMS_PAGE_PATH = '/lte/sms';

/** What the page shows. */
export interface SmsPageData {
  username: string;
  /** The modem as the SMS service reports it. */
  modem: 'ready' | 'not ready' | 'none';
  /** Signal, network, SIM and storage as last polled. */
  modemStatus: ModemStatusView | null;
  received: readonly SmsMessage[];
  sent: readonly SmsMessage[];
}

function rows(list: readonly SmsMessage[], type: 'received' | 'sent'): Html {
  return html`${list.map(
    (m) => html`<tr data-id="${m.id}" data-type="${type}">
  <td>${m.date}</td><td>${m.number}</td><td class="text">${m.message}</td>
  <td class="status">${m.status}${m.error ? `: ${m.error}` : ''}</td><td>${String(m.parts)}</td><td>${m.encoding}</td>
  <td><button type="button" class="delete" aria-label="Delete ${type} message ${m.id}">Delete</button></td>
</tr>`,
  )}`;
}

function table(id: string, caption: string, list: readonly SmsMessage[], type: 'received' | 'sent'): Html {
  return html`<div class="card table-wrap" tabindex="0" role="region" aria-label="${caption}">
<table id="${id}">
  <caption>${caption}</caption>
  <thead><tr><th scope="col">Date</th><th scope="col">Number</th><th scope="col">Message</th><th scope="col">Status</th><th scope="col">Parts</th><th scope="col">Encoding</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows(list, type)}</tbody>
</table>
${list.length === 0 ? html`<p>None.</p>` : ''}
</div>`;
}

/** The whole page. */
export function smsPage(d: SmsPageData): string {
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>LTE</li><li aria-current="page">SMS</li></ol></nav>
<h1>SMS</h1>
<p id="modem-state">Modem: <strong>${d.modem}</strong></p>
<dl class="status" id="modem-status">${modemRows(d.modemStatus).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<h2>Send a message</h2>
<form id="send-sms" class="card" novalidate>
  <div class="row"><label for="to">To</label><span><input id="to" type="tel" required autocomplete="off" placeholder="+15551234567" aria-describedby="to-error"><span id="to-error" class="field-error"></span></span></div>
  <div class="row"><label for="message">Message</label><span><textarea id="message" rows="4" required aria-describedby="counter message-error"></textarea>
    <span id="counter" class="hint" aria-live="polite">0 characters, 1 part, GSM 7-bit</span>
    <span id="message-error" class="field-error"></span></span></div>
  <div class="actions"><button type="submit">Send</button></div>
  <p id="send-status" role="status"></p>
</form>
<div id="sms-error" class="error" role="alert" hidden></div>
<h2>Received</h2>
${table('received', 'Received messages, newest first', d.received, 'received')}
<h2>Sent</h2>
${table('sent', 'Sent messages, newest first', d.sent, 'sent')}`;
  return layout({ title: 'SMS', script: 'sms.js', username: d.username, body, path: SMS_PAGE_PATH });
}
