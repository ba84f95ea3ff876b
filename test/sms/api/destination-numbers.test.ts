// send-one's `to`: E.164 (+ or 00), short codes, national numbers with the configured default
// country code; each refusal says what was wrong; the stored message keeps what was typed and what
// was sent. Unit rules first, then over HTTPS on both stores with the simulated modem.
import { afterEach, describe, expect, test } from 'vitest';
import { parseDestination } from '../../../src/sms/request-fields.js';
import { storeKinds } from '../../support/databases.js';
import { smsPost } from './support/sms-client.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from './support/sms-server.js';

describe('parseDestination', () => {
  test.each([
    ['+49 170 1234567', undefined, '+491701234567', 'e164'],
    ['0049 (170) 123-4567', undefined, '+491701234567', 'e164'],
    ['+1.555.123.4567', undefined, '+15551234567', 'e164'],
    ['2442', undefined, '2442', 'short_code'],
    ['88888888', '49', '88888888', 'short_code'],
    ['0170 1234567', '49', '+491701234567', 'e164'],
    ['5551234567', '1', '+15551234567', 'e164'],
  ])('%s (default country code %s) is sent as %s', (typed, cc, number, kind) => {
    expect(parseDestination(typed, cc)).toEqual({ number, typed, kind });
  });

  test.each([
    [undefined, undefined, 'to: missing; give a phone number such as "+15551234567"'],
    [42, undefined, 'to: 42 is not a phone number'],
    ['call me', undefined, /^to: "call me" is not a phone number \(digits, optionally after \+ or 00/],
    [
      '+1',
      undefined,
      'to: "+1" has 1 digits after the country prefix; an international (E.164) number has 7 to 15',
    ],
    ['+1234567890123456', undefined, /has 16 digits after the country prefix/],
    ['+0123456789', undefined, 'to: "+0123456789": a country code never starts with 0'],
    ['12', undefined, 'to: "12" is too short (a short code has 3 to 8 digits)'],
    [
      '0170 1234567',
      undefined,
      'to: "0170 1234567" is a national number; give it with its country code (+CC...), or start the server with --sms-default-country-code',
    ],
    ['017', '49', /has 4 digits after the country prefix/],
  ])('%j (default %s) is refused: %s', (value, cc, message) => {
    expect(() => parseDestination(value, cc)).toThrow(message);
  });
});

describe.each(storeKinds())('send-one normalises `to` on %s', (kind) => {
  let server: SmsTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('a national number takes the default country code; both forms are stored', async () => {
    server = await startSmsServer(kind, { sms: { defaultCountryCode: '49' } });
    const s = server;
    const res = await smsPost(s.url, '/api/sms/send-one', {
      auth: ADMIN_PASSWORD,
      to: '0170 1234567',
      message: 'Hallo',
    });
    expect(res.status).toBe(200);
    expect(res.json().data).toMatchObject({ number: '+491701234567', number_typed: '0170 1234567' });
    expect(s.simulator?.sent.at(-1)?.to).toBe('+491701234567');
    const stored = await s.store.db
      .selectFrom('sms_message')
      .selectAll()
      .where('type', '=', 'sent')
      .execute();
    expect(stored.map((r) => [r.number, r.number_typed])).toEqual([['+491701234567', '0170 1234567']]);
    const listed = (await smsPost(s.url, '/api/sms/get-all', { auth: ADMIN_PASSWORD, type: 'sent' })).json();
    expect(listed.data[0]).toMatchObject({ number: '+491701234567', number_typed: '0170 1234567' });

    // An E.164 number typed as sent shows no number_typed.
    const plain = await smsPost(s.url, '/api/sms/send-one', {
      auth: ADMIN_PASSWORD,
      to: '+15551234567',
      message: 'Hi',
    });
    expect(plain.json().data.number).toBe('+15551234567');
    expect(plain.json().data).not.toHaveProperty('number_typed');
  }, 60_000);

  test('without a default country code a national number is refused with the reason, and nothing is stored', async () => {
    server = await startSmsServer(kind);
    const s = server;
    const res = await smsPost(s.url, '/api/sms/send-one', {
      auth: ADMIN_PASSWORD,
      to: '030 1234567',
      message: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      status: 'error',
      error: {
        code: 'bad_request',
        message:
          'to: "030 1234567" is a national number; give it with its country code (+CC...), or start the server with --sms-default-country-code',
      },
    });
    expect(await s.store.db.selectFrom('sms_message').selectAll().execute()).toEqual([]);
    const short = await smsPost(s.url, '/api/sms/send-one', {
      auth: ADMIN_PASSWORD,
      to: '2442',
      message: 'STOP',
    });
    expect(short.json().data).toMatchObject({ number: '2442' });
  }, 60_000);
});
