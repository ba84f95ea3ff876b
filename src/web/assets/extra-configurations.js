// PBX > Settings > Extra Configurations: sends the CDR API form as a JSON patch (secrets only when
// typed or cleared) to PUT /api/settings/cdr-push for destination 1, PATCH
// /api/cdr-push/destinations/N for another; runs "send test record", replay and resend for the
// destination shown; adds and removes destinations; and shows each answer or the API's error. All
// text goes into the page through textContent, never as HTML.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic (non-module) script: strict mode is not implied
'use strict';

const $ = (id) => document.getElementById(id);
const SECRETS = ['api_key', 'bearer_token', 'password'];

class ApiError extends Error {}

// Calls the JSON API; a lost session goes back to the login page.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(`could not reach the server: ${err.message}`);
  }
  if (res.status === 401 && path !== '/api/logout') {
    location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
    throw new ApiError('not logged in any more');
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // no JSON body
  }
  if (!res.ok) throw new ApiError(data?.error?.message ?? `HTTP ${res.status}`);
  return data;
}

function show(box, text, kind) {
  box.textContent = text;
  box.className = `result ${kind}`;
}

const logout = $('logout');
if (logout) {
  logout.addEventListener('click', async () => {
    try {
      await api('POST', '/api/logout', {});
    } finally {
      location.assign('/login');
    }
  });
}

const form = $('cdr-push-form');
if (form) {
  // Destination 1 keeps the seed's addresses; the others live under /api/cdr-push/destinations/N.
  const destination = Number(form.dataset.destination ?? '1');
  const under = destination === 1 ? '/api/cdr-push' : `/api/cdr-push/destinations/${destination}`;
  const saveSettings = (patch) =>
    destination === 1
      ? api('PUT', '/api/settings/cdr-push', patch)
      : api('PATCH', `/api/cdr-push/destinations/${destination}`, patch);
  const errorBox = $('settings-error');
  const saved = $('settings-saved');
  const num = (id) => {
    const v = $(id).value.trim();
    return v === '' ? null : Number(v);
  };

  const clearMarks = () => {
    errorBox.hidden = true;
    errorBox.textContent = '';
    saved.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) {
      el.removeAttribute('aria-invalid');
      const rest = (el.getAttribute('aria-describedby') ?? '').replace(/\s*settings-error/, '');
      if (rest === '') el.removeAttribute('aria-describedby');
      else el.setAttribute('aria-describedby', rest);
    }
  };

  // The API's messages start with the setting's name ("interval_seconds: ..."): mark that input.
  const markField = (message) => {
    const name = /^([a-z_]+):/.exec(message)?.[1];
    const el = name ? $(name) : null;
    if (!el || !form.contains(el)) return;
    el.setAttribute('aria-invalid', 'true');
    const described = el.getAttribute('aria-describedby');
    el.setAttribute('aria-describedby', described ? `${described} settings-error` : 'settings-error');
    el.focus();
  };

  const showSettings = (view) => {
    if ($('name')) $('name').value = view.name;
    $('enabled').checked = view.enabled;
    $('url').value = view.url;
    $('method').value = view.method;
    $('username').value = view.username;
    $('interval_seconds').value = String(view.interval_seconds);
    $('batch_size').value = String(view.batch_size);
    $('send_history').checked = view.send_history;
    $('poison_policy').value = view.poison_policy;
    $('poison_after').value = String(view.poison_after);
    $('alert_after_seconds').value = String(view.alert_after_seconds);
    $('signing-state').textContent = view.signing_secret_set
      ? view.signing_rotating
        ? 'signed (rotating)'
        : 'signed'
      : 'not signed';
    const signing = $('signing');
    signing.value = 'keep';
    signing.querySelector('option[value=rotate]').disabled = !view.signing_secret_set;
    signing.querySelector('option[value=stop]').disabled = !view.signing_secret_set;
    signing.querySelector('option[value=end]').disabled = !view.signing_rotating;
    $('signing-secret').textContent = view.signing_secret
      ? `New signing secret (shown this once; give it to the receiver): ${view.signing_secret}`
      : '';
    for (const box of form.querySelectorAll('input[name=fields]'))
      box.checked = view.fields.includes(box.value);
    for (const name of SECRETS) {
      const isSet = view[`${name}_set`];
      const state = $(`${name}-state`);
      state.textContent = isSet ? 'set' : 'not set';
      state.dataset.set = String(isSet);
      $(name).value = '';
      $(name).placeholder = isSet ? 'set; leave empty to keep it' : 'not set';
      $(`${name}-clear`).checked = false;
    }
    $('status-enabled').textContent = view.enabled ? 'enabled' : 'disabled';
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearMarks();
    const patch = {
      enabled: $('enabled').checked,
      url: $('url').value.trim(),
      method: $('method').value,
      username: $('username').value,
      fields: [...form.querySelectorAll('input[name=fields]:checked')].map((b) => b.value),
      interval_seconds: num('interval_seconds'),
      batch_size: num('batch_size'),
      send_history: $('send_history').checked,
      poison_policy: $('poison_policy').value,
      poison_after: num('poison_after'),
    };
    if ($('name')) patch.name = $('name').value;
    patch.alert_after_seconds = num('alert_after_seconds');
    const signing = $('signing').value;
    if (signing === 'generate' || signing === 'rotate') patch.signing_secret = signing;
    else if (signing === 'stop') patch.signing_secret = '';
    else if (signing === 'end') patch.end_signing_rotation = true;
    // A secret is sent only when typed (set it) or when its Clear box is ticked (""); else kept.
    for (const name of SECRETS) {
      if ($(`${name}-clear`).checked) patch[name] = '';
      else if ($(name).value !== '') patch[name] = $(name).value;
    }
    const button = $('save');
    button.disabled = true;
    try {
      showSettings(await saveSettings(patch));
      saved.textContent = 'Saved.';
    } catch (err) {
      errorBox.textContent = `Not saved: ${err.message}`;
      errorBox.hidden = false;
      markField(err.message);
    } finally {
      button.disabled = false;
    }
  });

  $('send-test').addEventListener('click', async () => {
    const box = $('test-result');
    const button = $('send-test');
    button.disabled = true;
    show(box, 'Sending...', 'pending');
    try {
      const a = await api('POST', `${under}/test`, {});
      const head = a.ok ? 'Acknowledged' : 'Failed';
      const status = a.status === null ? 'no answer' : `HTTP ${a.status}`;
      show(
        box,
        `${head}: ${status} in ${a.latency_ms} ms${a.error ? ` (${a.error})` : ''}`,
        a.ok ? 'ok' : 'error',
      );
      if (a.body) {
        const pre = document.createElement('pre');
        pre.textContent = a.body;
        box.append(document.createElement('br'), 'Answer starts: ', pre);
      }
    } catch (err) {
      show(box, `Not sent: ${err.message}`, 'error');
    } finally {
      button.disabled = false;
    }
  });

  $('resend-parked').addEventListener('click', async () => {
    const box = $('resend-result');
    const button = $('resend-parked');
    button.disabled = true;
    show(box, 'Resending...', 'pending');
    try {
      const r = await api('POST', `${under}/parked/resend`, { all: true });
      $('status-parked').textContent = String(r.remaining);
      show(
        box,
        `Resent ${r.resent}; ${r.remaining} still parked${r.error ? ` (stopped at ${r.error})` : ''}.`,
        r.error ? 'error' : 'ok',
      );
    } catch (err) {
      show(box, `Not resent: ${err.message}`, 'error');
    } finally {
      button.disabled = $('status-parked').textContent === '0';
    }
  });

  $('replay-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const box = $('replay-result');
    try {
      const r = await api('POST', `${under}/replay`, { from_db_id: num('from_db_id') });
      show(box, `The next run sends again from db_id ${r.from_db_id}; backlog ${r.backlog} record(s).`, 'ok');
      $('status-backlog').textContent = String(r.backlog);
      $('status-acked').textContent = String(r.last_acknowledged_db_id);
    } catch (err) {
      show(box, `Not replayed: ${err.message}`, 'error');
    }
  });

  const addForm = $('add-destination-form');
  addForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const box = $('new_name-error');
    box.textContent = '';
    $('new_name').removeAttribute('aria-invalid');
    try {
      const made = await api('POST', '/api/cdr-push/destinations', { name: $('new_name').value });
      location.assign(`/pbx/settings?destination=${made.id}`);
    } catch (err) {
      box.textContent = `Not added: ${err.message}`;
      $('new_name').setAttribute('aria-invalid', 'true');
      $('new_name').focus();
    }
  });

  const remove = $('remove-destination');
  if (remove) {
    remove.addEventListener('click', async () => {
      if (!confirm(`Remove destination ${destination} with its log and parked records?`)) return;
      try {
        await api('DELETE', `/api/cdr-push/destinations/${destination}`);
        location.assign('/pbx/settings');
      } catch (err) {
        show($('remove-result'), `Not removed: ${err.message}`, 'error');
      }
    });
  }
}
