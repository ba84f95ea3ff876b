// System > Webhooks: add, rotate, end a rotation and remove through /api/webhooks (JSON); a secret
// is shown once. Text goes into the page through textContent only.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, api } = globalThis.bg;

function showSecret(text, secret) {
  const box = $('secret');
  box.textContent = `${text} `;
  const code = document.createElement('code');
  code.id = 'new-secret';
  code.textContent = secret;
  box.append(code);
  // Kept across the reload that shows the new row: the secret is shown only this once.
  sessionStorage.setItem('webhook-secret', JSON.stringify([text, secret]));
}

const kept = sessionStorage.getItem('webhook-secret');
if (kept) {
  sessionStorage.removeItem('webhook-secret');
  const [text, secret] = JSON.parse(kept);
  showSecret(text, secret);
  sessionStorage.removeItem('webhook-secret');
}

function failed(message) {
  $('webhooks-error').textContent = message;
  $('webhooks-error').hidden = !message;
}

$('add-webhook').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('webhook-url-error').textContent = '';
  $('webhook-url').removeAttribute('aria-invalid');
  $('webhook-events-error').textContent = '';
  const events = [...document.querySelectorAll('#webhook-events input:checked')].map((b) => b.value);
  try {
    const r = await api('POST', '/api/webhooks', { url: $('webhook-url').value.trim(), events });
    showSecret(`Webhook ${r.webhook.id} added. Its signing secret, shown only now:`, r.secret);
    location.reload();
  } catch (err) {
    if (/^events/.test(err.message)) $('webhook-events-error').textContent = err.message;
    else {
      $('webhook-url-error').textContent = err.message;
      $('webhook-url').setAttribute('aria-invalid', 'true');
      $('webhook-url').focus();
    }
  }
});

$('webhooks').addEventListener('click', async (event) => {
  const button = event.target;
  if (button.tagName !== 'BUTTON') return;
  const id = button.closest('tr').dataset.id;
  try {
    if (button.classList.contains('remove')) await api('DELETE', `/api/webhooks/${id}`);
    else if (button.classList.contains('end-rotation'))
      await api('PATCH', `/api/webhooks/${id}`, { end_rotation: true });
    else if (button.classList.contains('rotate')) {
      const r = await api('PATCH', `/api/webhooks/${id}`, { secret: 'rotate' });
      showSecret(
        `Webhook ${id}: the new secret (the old one signs too until you end the rotation):`,
        r.secret,
      );
    } else return;
    location.reload();
  } catch (err) {
    failed(err.message);
  }
});
