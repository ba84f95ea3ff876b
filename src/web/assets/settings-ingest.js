// PBX > Settings > Ingest sources: adds and removes run-time sources through /api/ingest/sources.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, api } = globalThis.bg;

$('add-source').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('source-error').textContent = '';
  $('source').removeAttribute('aria-invalid');
  try {
    await api('POST', '/api/ingest/sources', { kind: $('kind').value, source: $('source').value.trim() });
    location.reload();
  } catch (err) {
    $('source-error').textContent = err.message;
    $('source').setAttribute('aria-invalid', 'true');
    $('source').focus();
  }
});

$('sources').addEventListener('click', async (event) => {
  const button = event.target;
  if (button.tagName !== 'BUTTON' || !button.classList.contains('remove')) return;
  const tr = button.closest('tr');
  try {
    await api('DELETE', `/api/ingest/sources/${encodeURIComponent(tr.dataset.id)}`);
    tr.remove();
  } catch (err) {
    $('ingest-error').textContent = err.message;
    $('ingest-error').hidden = false;
  }
});
