// PBX > Extensions: the extensions with their CDR Access, a form to add one, and per row: CDR
// Access on/off, a new secret, delete. extensions.js sends every change to /api/extensions and
// shows a new secret's key and a ready pull command once.
import type { ExtensionInfo } from '../auth/index.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';

/** The page's path. */
export const EXTENSIONS_PATH = '/pbx/extensions';

function row(e: ExtensionInfo): Html {
  return html`<tr data-number="${e.number}">
  <th scope="row">${e.number}</th>
  <td>${e.name}</td>
  <td><input type="checkbox" class="cdr-access" id="cdr-access-${e.number}" aria-label="CDR Access for ${e.number}"${e.cdrAccess ? html` checked` : ''}></td>
  <td class="actions"><button type="button" class="regenerate">New secret</button> <button type="button" class="delete">Delete</button></td>
</tr>`;
}

/** The whole page. */
export function extensionsPage(username: string, extensions: readonly ExtensionInfo[]): string {
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>PBX</li><li aria-current="page">Extensions</li></ol></nav>
<h1>Extensions</h1>
<div id="credential" class="credential" role="status" aria-live="polite"></div>
<div id="list-error" class="error" role="alert" hidden></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Extensions table">
<table id="extensions">
  <caption>Extensions that may pull call records with their key (SHA-256 of the secret)</caption>
  <thead><tr><th scope="col">Number</th><th scope="col">Name</th><th scope="col">CDR Access</th><th scope="col">Actions</th></tr></thead>
  <tbody>${extensions.map(row)}</tbody>
</table>
${extensions.length === 0 ? html`<p id="no-extensions">No extensions yet.</p>` : ''}
</div>
<h2>Add an extension</h2>
<form id="add-extension" class="card" novalidate>
  <div class="row"><label for="number">Number</label><span><input id="number" name="number" required maxlength="32" autocomplete="off" aria-describedby="number-error"><span id="number-error" class="field-error"></span></span></div>
  <div class="row"><label for="name">Name</label><input id="name" name="name" maxlength="128" autocomplete="off"></div>
  <div class="row"><label for="secret">Secret</label><span><input id="secret" name="secret" type="password" autocomplete="new-password" aria-describedby="secret-hint secret-error"><span id="secret-hint" class="hint">Leave empty to generate one.</span><span id="secret-error" class="field-error"></span></span></div>
  <div class="row"><span class="label-cell"></span><span><input type="checkbox" id="cdr_access" name="cdr_access"> <label for="cdr_access">CDR Access</label></span></div>
  <div class="actions"><button type="submit">Add extension</button></div>
</form>`;
  return layout({
    title: 'Extensions',
    script: 'extensions.js',
    sharedHelpers: true,
    username,
    body,
    path: EXTENSIONS_PATH,
  });
}
