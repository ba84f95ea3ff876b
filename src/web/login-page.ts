// The console's login page: a form that login.js posts as JSON to POST /api/login, then goes on to
// the page the user first asked for (`next`, one of the console's own pages).
import { html } from './html.js';
import { layout } from './layout.js';

/** The login page; `next` must already be a checked console path. */
export function loginPage(next: string): string {
  const body = html`<h1>Log in</h1>
<form id="login-form" class="card narrow" data-next="${next}" novalidate>
  <p id="login-error" class="error" role="alert" hidden></p>
  <div class="row">
    <label for="username">Username</label>
    <input id="username" name="username" autocomplete="username" required autofocus>
  </div>
  <div class="row">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
  </div>
  <div class="actions"><button type="submit">Log in</button></div>
</form>`;
  return layout({ title: 'Log in', script: 'login.js', body });
}
