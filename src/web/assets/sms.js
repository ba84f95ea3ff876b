// LTE > SMS: the send form with its live counter (/api/sms/split), sending (/api/sms/send-one),
// following the sent message's status until it is delivered or failed (/api/sms/get-one), and
// deleting (/api/sms/delete-one). The console session stands in for `auth`. textContent only.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const $ = (id) => document.getElementById(id);

async function sms(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => null);
  if (!res.ok || data?.status !== 'success') throw new Error(data?.error?.message ?? `HTTP ${res.status}`);
  return data.data;
}

let counting = 0;
async function count() {
  const mine = ++counting;
  const text = $('message').value;
  try {
    const s = await sms('/api/sms/split', { message: text });
    if (mine !== counting) return;
    const parts =
      s.parts < 0
        ? `more than ${s.max_parts} parts (too long)`
        : `${s.parts} part${s.parts === 1 ? '' : 's'}`;
    const enc = s.encoding === 'ucs2' ? `UCS-2 because of ${s.ucs2_characters.join(' ')}` : 'GSM 7-bit';
    $('counter').textContent = `${s.characters} characters, ${parts}, ${enc}`;
  } catch {
    // The counter is a help; sending still says what is wrong.
  }
}
$('message').addEventListener('input', count);

function say(message) {
  $('sms-error').textContent = message;
  $('sms-error').hidden = !message;
}

function field(name, message) {
  $(`${name}-error`).textContent = message;
  if (message) $(name).setAttribute('aria-invalid', 'true');
  else $(name).removeAttribute('aria-invalid');
}

async function follow(id) {
  for (let i = 0; i < 120; i++) {
    const m = await sms('/api/sms/get-one', { type: 'sent', id });
    $('send-status').textContent = `Message ${id}: ${m.status}${m.error ? ` (${m.error})` : ''}`;
    const cell = document.querySelector(`#sent tr[data-id="${id}"] .status`);
    if (cell) cell.textContent = m.status;
    if (m.status === 'delivered' || m.status === 'failed') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

$('send-sms').addEventListener('submit', async (event) => {
  event.preventDefault();
  field('to', '');
  field('message', '');
  try {
    const m = await sms('/api/sms/send-one', { to: $('to').value.trim(), message: $('message').value });
    const tr = document.createElement('tr');
    tr.dataset.id = m.id;
    tr.dataset.type = 'sent';
    for (const [cls, text] of [
      ['', m.date],
      ['', m.number],
      ['text', m.message],
      ['status', m.status],
      ['', String(m.parts)],
      ['', m.encoding],
    ]) {
      const td = document.createElement('td');
      if (cls) td.className = cls;
      td.textContent = text;
      tr.append(td);
    }
    document.querySelector('#sent tbody').prepend(tr);
    event.target.reset();
    await count();
    await follow(m.id);
  } catch (err) {
    if (/^to/.test(err.message)) field('to', err.message);
    else if (/^message/.test(err.message)) field('message', err.message);
    else say(err.message);
  }
});

document.querySelector('main').addEventListener('click', async (event) => {
  const button = event.target;
  if (button.tagName !== 'BUTTON' || !button.classList.contains('delete')) return;
  const tr = button.closest('tr');
  try {
    await sms('/api/sms/delete-one', { type: tr.dataset.type, id: tr.dataset.id });
    tr.remove();
    say('');
  } catch (err) {
    say(err.message);
  }
});

$('logout')?.addEventListener('click', async () => {
  await fetch('/api/logout', { method: 'POST', credentials: 'same-origin' });
  location.assign('/login');
});
