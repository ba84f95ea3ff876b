// The console's shared script, on every logged-in page: the logout button, and for page scripts
// that use it (loaded after this one; both are deferred, so they run in order) `bg`, the helpers
// they share: $ (by id), api (JSON over fetch, errors thrown with the API's message) and
// fieldError (an error shown by its field, marked for assistive technology).
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const bg = {
  $: (id) => document.getElementById(id),

  async api(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    const data = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) throw new Error(data?.error?.message ?? `HTTP ${res.status}`);
    return data;
  },

  fieldError(id, message) {
    bg.$(`${id}-error`).textContent = message;
    if (message) {
      bg.$(id).setAttribute('aria-invalid', 'true');
      bg.$(id).focus();
    } else {
      bg.$(id).removeAttribute('aria-invalid');
    }
  },
};
globalThis.bg = bg;

document.getElementById('logout')?.addEventListener('click', async () => {
  await fetch('/api/logout', { method: 'POST', credentials: 'same-origin' });
  location.assign('/login');
});
