// The console's login form: posts the username and password as JSON to POST /api/login (which sets
// the session cookie), then goes to the page the user asked for; shows the API's error otherwise.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const form = document.getElementById('login-form');
const error = document.getElementById('login-error');

function showError(message) {
  error.textContent = message;
  error.hidden = false;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.hidden = true;
  const username = document.getElementById('username').value;
  const password = document.getElementById('password').value;
  if (username === '' || password === '') {
    showError('Enter a username and a password.');
    document.getElementById(username === '' ? 'username' : 'password').focus();
    return;
  }
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const res = await fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (res.ok) {
      location.assign(form.dataset.next);
      return;
    }
    let message = `Login failed: HTTP ${res.status}`;
    try {
      const body = await res.json();
      if (body?.error?.message) message = body.error.message;
    } catch {
      // not JSON: keep the status line
    }
    if (res.status === 401) message = `Login failed: ${message}.`;
    if (res.status === 429) message = `Login blocked: ${message}.`;
    showError(message);
    document.getElementById('password').select();
  } catch (err) {
    showError(`Could not reach the server: ${err.message}`);
  } finally {
    button.disabled = false;
  }
});
