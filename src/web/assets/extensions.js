// PBX > Extensions: adds, changes and deletes extensions through /api/extensions (JSON), and shows
// a new secret's key and pull command once. Text goes into the page through textContent only.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const { $, api } = globalThis.bg;

function showCredential(number, answer) {
  const box = $('credential');
  box.replaceChildren();
  const title = document.createElement('p');
  title.textContent = `Extension ${number}: shown only now, copy it.`;
  box.append(title);
  const list = document.createElement('dl');
  for (const [label, value] of [
    ['Secret', answer.secret],
    ['Key (SHA-256 of the secret)', answer.key],
    ['Pull with curl', answer.curl],
  ]) {
    if (!value) continue;
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    const code = document.createElement('code');
    code.textContent = value;
    code.dataset.field = label.split(' ')[0].toLowerCase();
    dd.append(code);
    list.append(dt, dd);
  }
  box.append(list);
  box.tabIndex = -1;
  box.focus();
}

function addRow(ext) {
  const tr = document.createElement('tr');
  tr.dataset.number = ext.number;
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = ext.number;
  const name = document.createElement('td');
  name.textContent = ext.name;
  const access = document.createElement('td');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.className = 'cdr-access';
  box.id = `cdr-access-${ext.number}`;
  box.checked = ext.cdr_access;
  box.setAttribute('aria-label', `CDR Access for ${ext.number}`);
  access.append(box);
  const actions = document.createElement('td');
  actions.className = 'actions';
  for (const [cls, label] of [
    ['regenerate', 'New secret'],
    ['delete', 'Delete'],
  ]) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.textContent = label;
    actions.append(b, ' ');
  }
  tr.append(th, name, access, actions);
  document.querySelector('#extensions tbody').append(tr);
  $('no-extensions')?.remove();
}

function listError(message) {
  const box = $('list-error');
  box.textContent = message;
  box.hidden = !message;
}

function fieldOf(message) {
  if (/^secret/.test(message)) return 'secret';
  return 'number';
}

$('add-extension').addEventListener('submit', async (event) => {
  event.preventDefault();
  for (const f of ['number', 'secret']) {
    $(`${f}-error`).textContent = '';
    $(f).removeAttribute('aria-invalid');
  }
  const body = { number: $('number').value.trim(), cdr_access: $('cdr_access').checked };
  if ($('name').value) body.name = $('name').value;
  if ($('secret').value) body.secret = $('secret').value;
  try {
    const answer = await api('POST', '/api/extensions', body);
    addRow(answer.extension);
    event.target.reset();
    showCredential(body.number, answer);
  } catch (err) {
    const f = fieldOf(err.message);
    $(`${f}-error`).textContent = err.message;
    $(f).setAttribute('aria-invalid', 'true');
    $(f).focus();
  }
});

$('extensions').addEventListener('change', async (event) => {
  const box = event.target;
  if (!box.classList.contains('cdr-access')) return;
  const number = box.closest('tr').dataset.number;
  try {
    await api('PATCH', `/api/extensions/${encodeURIComponent(number)}`, { cdr_access: box.checked });
    listError('');
  } catch (err) {
    box.checked = !box.checked;
    listError(err.message);
  }
});

$('extensions').addEventListener('click', async (event) => {
  const button = event.target;
  const tr = button.closest?.('tr');
  if (!tr || button.tagName !== 'BUTTON') return;
  const number = tr.dataset.number;
  try {
    if (button.classList.contains('regenerate')) {
      if (!confirm(`Give extension ${number} a new secret? Its current key stops working.`)) return;
      showCredential(
        number,
        await api('PATCH', `/api/extensions/${encodeURIComponent(number)}`, { regenerate_secret: true }),
      );
    } else if (button.classList.contains('delete')) {
      if (!confirm(`Delete extension ${number}?`)) return;
      await api('DELETE', `/api/extensions/${encodeURIComponent(number)}`);
      tr.remove();
    }
    listError('');
  } catch (err) {
    listError(err.message);
  }
});
