// System > Users: users and API tokens through /api/users and /api/tokens (JSON); a new token is
// shown once. Text goes into the page through textContent only.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, api, fieldError } = globalThis.bg;

function say(message, ok) {
  $('users-error').textContent = ok ? '' : message;
  $('users-error').hidden = ok || !message;
  $('users-ok').textContent = ok ? message : '';
}

$('users').addEventListener('change', async (event) => {
  const box = event.target;
  if (!box.classList.contains('is-admin')) return;
  const name = box.closest('tr').dataset.username;
  try {
    await api('PATCH', `/api/users/${encodeURIComponent(name)}`, { is_admin: box.checked });
    say(`${name} is ${box.checked ? 'now' : 'no longer'} an administrator`, true);
  } catch (err) {
    box.checked = !box.checked;
    say(err.message, false);
  }
});

$('users').addEventListener('click', async (event) => {
  const button = event.target;
  const tr = button.closest?.('tr');
  if (!tr || button.tagName !== 'BUTTON') return;
  const name = tr.dataset.username;
  try {
    if (button.classList.contains('set-password')) {
      const input = tr.querySelector('.new-password');
      await api('PATCH', `/api/users/${encodeURIComponent(name)}`, { password: input.value });
      input.value = '';
      say(`password of ${name} changed; their sessions ended`, true);
    } else if (button.classList.contains('delete')) {
      if (!confirm(`Delete user ${name}?`)) return;
      await api('DELETE', `/api/users/${encodeURIComponent(name)}`);
      tr.remove();
      say(`removed ${name}`, true);
    }
  } catch (err) {
    say(err.message, false);
  }
});

$('add-user').addEventListener('submit', async (event) => {
  event.preventDefault();
  fieldError('new-username', '');
  fieldError('new-password', '');
  try {
    await api('POST', '/api/users', {
      username: $('new-username').value.trim(),
      password: $('new-password').value,
      is_admin: $('new-admin').checked,
    });
    location.reload();
  } catch (err) {
    fieldError(/^password/.test(err.message) ? 'new-password' : 'new-username', err.message);
  }
});

$('add-token').addEventListener('submit', async (event) => {
  event.preventDefault();
  fieldError('token-name', '');
  $('token-scopes-error').textContent = '';
  const scopes = [...document.querySelectorAll('#token-scopes input:checked')].map((b) => b.value);
  try {
    const t = await api('POST', '/api/tokens', { name: $('token-name').value.trim(), scopes });
    const box = $('token');
    box.replaceChildren();
    const p = document.createElement('p');
    p.textContent = `Token "${t.name}" (${t.scopes.join(', ')}), shown only now, copy it:`;
    const code = document.createElement('code');
    code.id = 'new-token';
    code.textContent = t.token;
    box.append(p, code);
    const tr = document.createElement('tr');
    tr.dataset.id = String(t.id);
    for (const text of [
      t.name,
      `${t.prefix}…`,
      t.scopes.join(', '),
      t.created_at.replace('T', ' ').slice(0, 19),
      '-',
    ]) {
      const td = document.createElement(tr.children.length === 0 ? 'th' : 'td');
      td.textContent = text;
      tr.append(td);
    }
    const last = document.createElement('td');
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'revoke';
    revoke.textContent = 'Revoke';
    last.append(revoke);
    tr.append(last);
    document.querySelector('#tokens tbody').prepend(tr);
    event.target.reset();
  } catch (err) {
    if (/^scopes/.test(err.message)) $('token-scopes-error').textContent = err.message;
    else fieldError('token-name', err.message);
  }
});

$('tokens').addEventListener('click', async (event) => {
  const button = event.target;
  if (button.tagName !== 'BUTTON' || !button.classList.contains('revoke')) return;
  const tr = button.closest('tr');
  try {
    const t = await api('DELETE', `/api/tokens/${tr.dataset.id}`);
    button.replaceWith(`revoked ${t.revoked_at.replace('T', ' ').slice(0, 19)}`);
    say(`token "${t.name}" revoked`, true);
  } catch (err) {
    say(err.message, false);
  }
});
