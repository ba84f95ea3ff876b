// The shared script of console pages that have none of their own: the logout button.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

document.getElementById('logout')?.addEventListener('click', async () => {
  await fetch('/api/logout', { method: 'POST', credentials: 'same-origin' });
  location.assign('/login');
});
