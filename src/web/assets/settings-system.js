// PBX > Settings > System: uploads a PEM certificate and key through PUT /api/tls/certificate.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, fieldError } = globalThis.bg;

$('tls-upload')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  fieldError('tls-cert', '');
  fieldError('tls-key', '');
  const certFile = $('tls-cert').files[0];
  const keyFile = $('tls-key').files[0];
  if (!certFile) return fieldError('tls-cert', 'Choose the certificate file.');
  if (!keyFile) return fieldError('tls-key', 'Choose the private key file.');
  $('tls-status').textContent = 'Checking...';
  const res = await fetch('/api/tls/certificate', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cert: await certFile.text(), key: await keyFile.text() }),
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => null);
  if (res.ok) {
    location.reload();
    return;
  }
  $('tls-status').textContent = '';
  const message = data?.error?.message ?? `HTTP ${res.status}`;
  // Messages start with the field they are about: "cert: ..." or "key: ...".
  fieldError(message.startsWith('key:') ? 'tls-key' : 'tls-cert', message);
});
