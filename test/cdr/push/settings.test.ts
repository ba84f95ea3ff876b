import { describe, expect, test } from 'vitest';
import {
  applyPatch,
  CdrPushError,
  DEFAULT_CDR_PUSH_SETTINGS,
  settingsView,
} from '../../../src/cdr/push/index.js';

const base = () => ({ ...DEFAULT_CDR_PUSH_SETTINGS, fields: [...DEFAULT_CDR_PUSH_SETTINGS.fields] });

function errorOf(patch: unknown, current = base()): string {
  try {
    applyPatch(current, patch);
  } catch (err) {
    expect(err).toBeInstanceOf(CdrPushError);
    expect((err as CdrPushError).code).toBe('bad_setting');
    return (err as Error).message;
  }
  throw new Error('expected a bad_setting error');
}

describe('CDR push settings validation', () => {
  test('defaults: disabled, POST, every field, 60 s, one record per request', () => {
    expect(settingsView(base())).toEqual({
      name: '',
      enabled: false,
      url: '',
      method: 'POST',
      api_key_set: false,
      bearer_token_set: false,
      username: '',
      password_set: false,
      fields: [
        'db_id',
        'call_id',
        'caller_id',
        'source',
        'destination_context',
        'destination',
        'initial_destination',
        'computed_destination',
        'disposition',
        'timestamp',
        'date',
        'start_time',
        'answer_time',
        'end_time',
        'recording_url',
      ],
      interval_seconds: 60,
      batch_size: 1,
      send_history: false,
      alert_after_seconds: 600,
      signing_secret_set: false,
      signing_rotating: false,
      poison_policy: 'hold',
      poison_after: 3,
    });
  });

  test('rejects an ftp:// URL naming the url field', () => {
    expect(errorOf({ url: 'ftp://crm.example/cdr' })).toBe(
      'url: must be an http:// or https:// URL, not ftp://',
    );
  });

  test('rejects Bearer and Basic together naming bearer_token, whichever is set first', () => {
    expect(errorOf({ bearer_token: 't', username: 'u', password: 'p' })).toMatch(
      /^bearer_token: .*cannot both/,
    );
    const withBasic = applyPatch(base(), { username: 'u', password: 'p' });
    expect(errorOf({ bearer_token: 't' }, withBasic)).toMatch(/^bearer_token: .*cannot both/);
  });

  test('rejects an unknown field name naming fields', () => {
    expect(errorOf({ fields: ['db_id', 'callerid'] })).toMatch(
      /^fields: unknown field "callerid"; known: db_id, /,
    );
  });

  test('rejects interval 0 and a fractional interval naming interval_seconds', () => {
    expect(errorOf({ interval_seconds: 0 })).toBe('interval_seconds: must be between 1 and 86400, not 0');
    expect(errorOf({ interval_seconds: 1.5 })).toBe('interval_seconds: must be a whole number, not 1.5');
  });

  test('rejects an unknown setting, a half Basic pair, a header-breaking secret and enable without URL', () => {
    expect(errorOf({ intervall: 5 })).toMatch(/^intervall: unknown setting/);
    expect(errorOf({ username: 'u' })).toBe('password: Basic authentication needs a password too');
    expect(errorOf({ api_key: 'a\r\nX-Evil: 1' })).toMatch(/^api_key: may hold only printable ASCII/);
    expect(errorOf({ enabled: true })).toBe('url: is required to enable delivery');
    expect(errorOf({ method: 'GET' })).toBe('method: must be POST or PUT, not "GET"');
    expect(errorOf({ batch_size: 1001 })).toBe('batch_size: must be between 1 and 1000, not 1001');
    expect(errorOf({ url: 'https://u:p@crm.example/' })).toMatch(
      /^url: put credentials in username\/password/,
    );
  });

  test('keeps absent keys, clears a secret with "" or null, and sends fields in record order', () => {
    const a = applyPatch(base(), {
      url: 'https://crm.example/cdr',
      api_key: 'k1',
      fields: ['disposition', 'db_id'],
    });
    const b = applyPatch(a, { method: 'put', enabled: true });
    expect(b).toMatchObject({ url: 'https://crm.example/cdr', api_key: 'k1', method: 'PUT', enabled: true });
    expect(b.fields).toEqual(['db_id', 'disposition']);
    expect(applyPatch(b, { api_key: null }).api_key).toBe('');
    expect(applyPatch(b, { api_key: '' }).api_key).toBe('');
  });

  test('the view never carries a secret value', () => {
    const s = applyPatch(base(), { api_key: 'KEY-123', username: 'crm', password: 'PW-456' });
    const text = JSON.stringify(settingsView(s));
    expect(text).not.toContain('KEY-123');
    expect(text).not.toContain('PW-456');
    expect(settingsView(s)).toMatchObject({ api_key_set: true, password_set: true, bearer_token_set: false });
  });
});
