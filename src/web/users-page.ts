// System > Users: console users (administrator flag, password, delete) and API tokens (create with
// a name and scopes, shown once; revoke). users.js sends every change to /api/users and /api/tokens.
import { TOKEN_SCOPES, type TokenInfo, type UserInfo } from '../auth/index.js';
import { type Html, html } from './html.js';
import { layout } from './layout.js';

/** The page's path. */
export const USERS_PATH = '/system/users';

const iso = (ms: number | null) =>
  ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function userRow(u: UserInfo, me: string): Html {
  return html`<tr data-username="${u.username}">
  <th scope="row">${u.username}${u.username === me ? ' (you)' : ''}</th>
  <td><input type="checkbox" class="is-admin" aria-label="Administrator: ${u.username}"${u.isAdmin ? html` checked` : ''}></td>
  <td>${iso(u.createdAtMs)}</td>
  <td class="actions">
    <label class="visually-hidden" for="pw-${u.username}">New password for ${u.username}</label>
    <input type="password" id="pw-${u.username}" class="new-password" autocomplete="new-password" placeholder="new password">
    <button type="button" class="set-password">Set password</button>
    <button type="button" class="delete">Delete</button>
  </td>
</tr>`;
}

function tokenRow(t: TokenInfo): Html {
  return html`<tr data-id="${String(t.id)}">
  <th scope="row">${t.name}</th>
  <td><code>${t.prefix}…</code></td>
  <td>${t.scopes.join(', ')}</td>
  <td>${iso(t.createdAtMs)}</td>
  <td>${iso(t.lastUsedMs)}</td>
  <td>${t.revokedAtMs === null ? html`<button type="button" class="revoke">Revoke</button>` : `revoked ${iso(t.revokedAtMs)}`}</td>
</tr>`;
}

/** The whole page. */
export function usersPage(
  username: string,
  users: readonly UserInfo[],
  tokens: readonly TokenInfo[],
): string {
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li>System</li><li aria-current="page">Users</li></ol></nav>
<h1>Users and API tokens</h1>
<div id="users-error" class="error" role="alert" hidden></div>
<p id="users-ok" class="ok" role="status"></p>
<div class="card table-wrap" tabindex="0" role="region" aria-label="Users table">
<table id="users">
  <caption>Console users; a new password ends that user's sessions</caption>
  <thead><tr><th scope="col">User</th><th scope="col">Administrator</th><th scope="col">Created (UTC)</th><th scope="col">Actions</th></tr></thead>
  <tbody>${users.map((u) => userRow(u, username))}</tbody>
</table>
</div>
<h2>Add a user</h2>
<form id="add-user" class="card" novalidate>
  <div class="row"><label for="new-username">Username</label><span><input id="new-username" required maxlength="64" autocomplete="off" aria-describedby="new-username-error"><span id="new-username-error" class="field-error"></span></span></div>
  <div class="row"><label for="new-password">Password</label><span><input id="new-password" type="password" required autocomplete="new-password" aria-describedby="new-password-error"><span id="new-password-error" class="field-error"></span></span></div>
  <div class="row"><span class="label-cell"></span><span><input type="checkbox" id="new-admin"> <label for="new-admin">Administrator</label></span></div>
  <div class="actions"><button type="submit">Add user</button></div>
</form>
<h2>API tokens</h2>
<div id="token" class="credential" role="status" aria-live="polite"></div>
<div class="card table-wrap" tabindex="0" role="region" aria-label="API tokens table">
<table id="tokens">
  <caption>Tokens for scripts and exchanges: <code>Authorization: Bearer bgt_…</code></caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Scopes</th><th scope="col">Created (UTC)</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
  <tbody>${tokens.map(tokenRow)}</tbody>
</table>
</div>
<form id="add-token" class="card" novalidate>
  <div class="row"><label for="token-name">Name</label><span><input id="token-name" required maxlength="64" autocomplete="off" aria-describedby="token-name-error"><span id="token-name-error" class="field-error"></span></span></div>
  <fieldset id="token-scopes" aria-describedby="token-scopes-error"><legend>Scopes</legend>
    ${TOKEN_SCOPES.map((s) => html`<span class="field"><input type="checkbox" id="scope-${s}" value="${s}"> <label for="scope-${s}">${s}</label></span>`)}
    <span id="token-scopes-error" class="field-error"></span>
  </fieldset>
  <div class="actions"><button type="submit">Create token</button></div>
</form>`;
  return layout({
    title: 'Users',
    script: 'users.js',
    sharedHelpers: true,
    username,
    body,
    path: USERS_PATH,
  });
}
