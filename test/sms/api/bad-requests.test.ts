// Every bad SMS request over real HTTPS gets its status and a JSON error body in the SMS envelope
// ({"status":"error","error":{"code","message"}}), naming the field at fault; fuzzed bodies never
// get a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { storeKinds } from '../../support/databases.js';
import { send } from '../../support/https-client.js';
import { smsPost } from './support/sms-client.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from './support/sms-server.js';

const auth = ADMIN_PASSWORD;

function expectError(
  res: { status: number; json(): unknown },
  status: number,
  code: string,
  mentions: RegExp,
) {
  expect(res.status).toBe(status);
  const body = res.json() as { status: string; error: { code: string; message: string } };
  expect(body.status).toBe('error');
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(mentions);
}

describe.each(storeKinds())('bad SMS requests on %s', (kind) => {
  let srv: SmsTestServer;
  beforeAll(async () => {
    srv = await startSmsServer(kind, {
      sms: { maxParts: 3, sendWaitMs: 5000 },
      failureLimits: { maxFailures: 1_000_000, windowSeconds: 60, blockSeconds: 60 },
    });
  });
  afterAll(() => srv?.close());

  test('a missing, empty, non-string or wrong auth is 401', async () => {
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', { type: 'sent' }),
      401,
      'unauthorized',
      /^auth: missing/,
    );
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', { auth: '', type: 'sent' }),
      401,
      'unauthorized',
      /^auth:/,
    );
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', { auth: 42, type: 'sent' }),
      401,
      'unauthorized',
      /^auth:/,
    );
    expectError(
      await smsPost(srv.url, '/api/sms/send-one', {
        auth: 'wrong-password',
        to: '+15551234567',
        message: 'x',
      }),
      401,
      'unauthorized',
      /^auth: wrong password/,
    );
    expect((await smsPost(srv.url, '/api/sms/get-all', { auth, type: 'sent' })).json()).toEqual({
      status: 'success',
      data: [],
    });
  });

  test('a type that is not sent or received is 400 naming type', async () => {
    for (const path of ['/api/sms/get-all', '/api/sms/get-one', '/api/sms/delete-one']) {
      expectError(await smsPost(srv.url, path, { auth, id: '1' }), 400, 'bad_request', /^type: missing/);
      expectError(
        await smsPost(srv.url, path, { auth, type: 'inbox', id: '1' }),
        400,
        'bad_request',
        /^type: "inbox"/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: ['sent'], id: '1' }),
        400,
        'bad_request',
        /^type: an array/,
      );
    }
  });

  test('a missing or malformed id is 400 and an unknown id 404', async () => {
    for (const path of ['/api/sms/get-one', '/api/sms/delete-one']) {
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received' }),
        400,
        'bad_request',
        /^id: missing/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: '' }),
        400,
        'bad_request',
        /^id: empty/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: 1.5 }),
        400,
        'bad_request',
        /^id: 1.5/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: -3 }),
        400,
        'bad_request',
        /^id: -3/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: { x: 1 } }),
        400,
        'bad_request',
        /^id: an object/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: '987654' }),
        404,
        'not_found',
        /^id: no received message "987654"/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'received', id: 'abc' }),
        404,
        'not_found',
        /"abc"/,
      );
      expectError(
        await smsPost(srv.url, path, { auth, type: 'sent', id: 987654 }),
        404,
        'not_found',
        /"987654"/,
      );
    }
  });

  test('send-one: an empty or missing message, a bad `to` and too many parts are 400 naming the field', async () => {
    const path = '/api/sms/send-one';
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567', message: '' }),
      400,
      'bad_request',
      /^message: empty/,
    );
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567' }),
      400,
      'bad_request',
      /^message: missing/,
    );
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567', message: 7 }),
      400,
      'bad_request',
      /^message: 7 is not a string/,
    );
    expectError(await smsPost(srv.url, path, { auth, message: 'hi' }), 400, 'bad_request', /^to: missing/);
    expectError(
      await smsPost(srv.url, path, { auth, to: 'call me', message: 'hi' }),
      400,
      'bad_request',
      /^to: "call me" is not a phone number/,
    );
    expectError(await smsPost(srv.url, path, { auth, to: '+1', message: 'hi' }), 400, 'bad_request', /^to:/);
    expectError(
      await smsPost(srv.url, path, { auth, to: 15551234567, message: 'hi' }),
      400,
      'bad_request',
      /^to: 15551234567/,
    );
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567', message: 'ab\ud83d' }),
      400,
      'bad_request',
      /^message: unpaired UTF-16 surrogate at index 2/,
    );
    // maxParts is 3 here: 3 x 153 GSM-7 characters fit, one more does not; 3 x 67 UCS-2 units likewise.
    expect(
      (await smsPost(srv.url, path, { auth, to: '+15551234567', message: 'a'.repeat(459) })).status,
    ).toBe(200);
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567', message: 'a'.repeat(460) }),
      400,
      'bad_request',
      /^message: needs 4 parts \(gsm7\), more than the maximum of 3/,
    );
    expectError(
      await smsPost(srv.url, path, { auth, to: '+15551234567', message: 'ж'.repeat(202) }),
      400,
      'bad_request',
      /^message: needs 4 parts \(ucs2\)/,
    );
    const sent = (await smsPost(srv.url, '/api/sms/get-all', { auth, type: 'sent' })).json().data;
    expect(sent.map((m: { message: string }) => m.message.length)).toEqual([459]);
  });

  test('a body that is not a JSON object is 400, not JSON 415, too large 413', async () => {
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', [auth, 'sent']),
      400,
      'bad_request',
      /^body: expected a JSON object/,
    );
    expectError(await smsPost(srv.url, '/api/sms/get-all', '"text"'), 400, 'bad_request', /^body:/);
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', '{"auth":'),
      400,
      'bad_request',
      /^body: not valid JSON/,
    );
    expectError(await smsPost(srv.url, '/api/sms/get-all', ''), 400, 'bad_request', /^body:/);
    expectError(
      await smsPost(
        srv.url,
        '/api/sms/get-all',
        `auth=${auth}&type=sent`,
        'application/x-www-form-urlencoded',
      ),
      415,
      'unsupported_media_type',
      /Content-Type/,
    );
    expectError(
      await smsPost(srv.url, '/api/sms/get-all', JSON.stringify({ auth, type: 'sent' }), 'text/plain'),
      415,
      'unsupported_media_type',
      /Content-Type/,
    );
    const noType = await send(`${srv.url}/api/sms/get-all`, {
      method: 'POST',
      body: JSON.stringify({ auth, type: 'sent' }),
    });
    expectError(noType, 415, 'unsupported_media_type', /Content-Type/);
    const huge = await smsPost(srv.url, '/api/sms/send-one', {
      auth,
      to: '+15551234567',
      message: 'x'.repeat(70_000),
    });
    expectError(huge, 413, 'body_too_large', /^body:/);
  });

  test('a GET on an endpoint is 405 and an unknown SMS path 404, in the SMS envelope', async () => {
    expectError(await send(`${srv.url}/api/sms/get-all`), 405, 'method_not_allowed', /use POST/);
    expectError(
      await smsPost(srv.url, '/api/sms/get-many', { auth }),
      404,
      'not_found',
      /no route POST \/api\/sms\/get-many/,
    );
  });

  test('fuzzed bodies on every endpoint never get a 5xx, and every answer is an SMS envelope', async () => {
    const endpoints = [
      '/api/sms/get-all',
      '/api/sms/get-one',
      '/api/sms/delete-one',
      '/api/sms/send-one',
      '/api/modem-sim/incoming',
    ];
    const value = fc.oneof(
      fc.constantFrom('sent', 'received', '+15551234567', '1', '', 'ok'),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
    );
    const body = fc.record(
      {
        auth: fc.oneof({ weight: 8, arbitrary: fc.constant(auth) }, { weight: 1, arbitrary: value }),
        type: value,
        id: value,
        to: value,
        from: value,
        message: value,
        extra: value,
      },
      { requiredKeys: [] },
    );
    const raw = fc.oneof(
      body.map((b) => JSON.stringify(b)),
      fc.string({ maxLength: 60 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), raw, async (path, text) => {
        const res = await smsPost(srv.url, path, text);
        expect(res.status).toBeLessThan(500);
        const parsed = res.json() as { status: string };
        expect(parsed.status).toBe(res.status === 200 ? 'success' : 'error');
      }),
      { numRuns: 300, seed: 20261122 },
    );
  }, 120_000);
});

describe('without a modem that ever answered', () => {
  let srv: SmsTestServer;
  beforeAll(async () => {
    srv = await startSmsServer('sqlite', { modem: '/dev/branchgate-no-such-modem' });
  });
  afterAll(() => srv?.close());

  test('send-one is 503 and stores nothing; reading the store still works', async () => {
    const res = await smsPost(srv.url, '/api/sms/send-one', { auth, to: '+15551234567', message: 'hello' });
    expectError(res, 503, 'unavailable', /no modem is ready/);
    expect((await smsPost(srv.url, '/api/sms/get-all', { auth, type: 'sent' })).json()).toEqual({
      status: 'success',
      data: [],
    });
    expectError(
      await smsPost(srv.url, '/api/modem-sim/incoming', { auth, from: '+15551234567', message: 'x' }),
      404,
      'not_found',
      /no simulated modem/,
    );
  });
});

describe('repeated authentication failures', () => {
  let srv: SmsTestServer;
  beforeAll(async () => {
    srv = await startSmsServer('sqlite', {
      failureLimits: { maxFailures: 3, windowSeconds: 60, blockSeconds: 60 },
    });
  });
  afterAll(() => srv?.close());

  test('are blocked with 429 and Retry-After, even with the right password afterwards', async () => {
    for (let i = 0; i < 3; i++) {
      expectError(
        await smsPost(srv.url, '/api/sms/get-all', { auth: `wrong-${i}`, type: 'sent' }),
        401,
        'unauthorized',
        /wrong password/,
      );
    }
    const blocked = await smsPost(srv.url, '/api/sms/get-all', { auth, type: 'sent' });
    expectError(blocked, 429, 'too_many_attempts', /too many failed authentications/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
