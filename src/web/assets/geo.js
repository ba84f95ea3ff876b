// Routing > Geo: the lookup box and the files form, over /api/geo/* with the console session
// (helpers from console.js).
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, api, fieldError } = globalThis.bg;

$('geo-lookup')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const query = $('query').value.trim();
  fieldError('query', '');
  $('lookup-result').textContent = '';
  if (query === '') {
    fieldError('query', 'Give a domain or an IP address.');
    return;
  }
  try {
    const { results } = await api('POST', '/api/geo/lookup', { queries: [query] });
    const codes = results[0].codes;
    $('lookup-result').textContent =
      codes.length === 0 ? `${query}: in no list` : `${query}: ${codes.join(', ')}`;
  } catch (err) {
    fieldError('query', err.message);
  }
});

$('geo-files')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  fieldError('site-path', '');
  fieldError('ip-path', '');
  const site = $('site-path').value.trim();
  const ip = $('ip-path').value.trim();
  $('files-status').textContent = 'Loading...';
  try {
    await api('PUT', '/api/geo/files', { site: site === '' ? null : site, ip: ip === '' ? null : ip });
    location.reload();
  } catch (err) {
    $('files-status').textContent = '';
    // The message names the file that did not load; show it next to that field.
    const names = (path) => path !== '' && err.message.includes(path);
    fieldError(names(ip) && !names(site) ? 'ip-path' : 'site-path', err.message);
  }
});

$('reload')?.addEventListener('click', async () => {
  $('files-status').textContent = 'Reloading...';
  try {
    await api('POST', '/api/geo/reload');
    location.reload();
  } catch (err) {
    $('files-status').textContent = err.message;
  }
});
