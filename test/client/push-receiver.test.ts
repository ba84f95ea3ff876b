// The SDK's push reader: a pure function of method, headers and body, so every edge case is a
// plain call; plus one real push from the delivery job's own HTTP sender into a server using it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { HttpSender } from '../../src/cdr/push/index.js';
import { pushCredentialProblem, readCdrPush } from '../../src/client/index.js';

const json = { 'content-type': 'application/json' };
const record = { db_id: 42, call_id: '1795322861.13', disposition: 'ANSWERED' };
const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('readCdrPush', () => {
  test('a single record with its Idempotency-Key', () => {
    expect(
      readCdrPush({
        method: 'POST',
        headers: { ...json, 'idempotency-key': 'cdr-42' },
        body: JSON.stringify(record),
      }),
    ).toEqual({ ok: true, batch: false, records: [record], idempotencyKey: 'cdr-42' });
  });

  test('a batch, with PUT, mixed-case header names and a charset', () => {
    const second = { ...record, db_id: 43 };
    expect(
      readCdrPush({
        method: 'PUT',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Idempotency-Key': 'cdr-42' },
        body: JSON.stringify({ data: [record, second] }),
      }),
    ).toEqual({ ok: true, batch: true, records: [record, second], idempotencyKey: 'cdr-42' });
    expect(readCdrPush({ method: 'POST', headers: json, body: '{"data":[]}' })).toEqual({
      ok: true,
      batch: true,
      records: [],
      idempotencyKey: null,
    });
  });

  test('refuses a wrong method, content type, bad JSON or a body of the wrong shape', () => {
    const read = (method: string, headers: Record<string, string>, body: string) => {
      const r = readCdrPush({ method, headers: { 'idempotency-key': 'cdr-1', ...headers }, body });
      return r.ok ? r : [r.status, r.reason, r.idempotencyKey];
    };
    expect(read('GET', json, '{}')).toEqual([405, 'method GET not accepted', 'cdr-1']);
    expect(read('POST', { 'content-type': 'text/plain' }, '{}')).toEqual([
      415,
      'Content-Type must be application/json',
      'cdr-1',
    ]);
    expect(read('POST', {}, '{}')).toEqual([415, 'Content-Type must be application/json', 'cdr-1']);
    const badJson = read('POST', json, '{"db_id":');
    expect(badJson).toEqual([400, expect.stringMatching(/^body is not JSON: /), 'cdr-1']);
    for (const body of ['[1,2]', '"text"', 'null', '{"data":[1]}', '{"data":[[]]}']) {
      expect(read('POST', json, body)).toEqual([
        400,
        'body must be a record object or {"data":[records]}',
        'cdr-1',
      ]);
    }
  });

  test('checks the known fields have the contract types, unless told not to', () => {
    const wrongType = { method: 'POST', headers: json, body: '{"data":[{"db_id":1},{"db_id":"2"}]}' };
    expect(readCdrPush(wrongType)).toMatchObject({
      ok: false,
      status: 400,
      reason: 'data[1]: db_id is not an integer',
    });
    expect(readCdrPush({ ...wrongType, body: '{"db_id":1,"disposition":null}' })).toMatchObject({
      ok: false,
      reason: 'record: disposition is not a string',
    });
    expect(readCdrPush(wrongType, { checkFields: false })).toMatchObject({
      ok: true,
      records: [{ db_id: 1 }, { db_id: '2' }],
    });
    // Fields the sender did not select are simply absent; unknown extra fields pass through.
    expect(readCdrPush({ ...wrongType, body: '{"call_id":"x","extra":true}' })).toMatchObject({ ok: true });
  });

  test('wrong or missing credentials are 401 before the body is looked at', () => {
    const credentials = { apiKey: 'K-1', bearer: 'T-1' };
    const ok = { 'x-api-key': 'K-1', authorization: 'Bearer T-1', ...json };
    expect(readCdrPush({ method: 'POST', headers: ok, body: '{}' }, { credentials })).toMatchObject({
      ok: true,
    });
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...ok, 'x-api-key': 'K-2' }, 'x-api-key missing or wrong'],
      [{ authorization: 'Bearer T-1', ...json }, 'x-api-key missing or wrong'],
      [{ ...ok, authorization: 'Bearer T-12' }, 'Bearer token missing or wrong'],
      [{ ...ok, authorization: 'bearer T-1' }, 'Bearer token missing or wrong'],
    ];
    for (const [headers, reason] of cases) {
      expect(readCdrPush({ method: 'POST', headers, body: 'not json' }, { credentials })).toEqual({
        ok: false,
        status: 401,
        reason,
        idempotencyKey: null,
      });
    }
  });

  test('Basic credentials compare the whole user:pass', () => {
    const expected = { basic: 'crm:pa:ss' };
    expect(pushCredentialProblem({ authorization: basic('crm:pa:ss') }, expected)).toBe('');
    for (const given of [basic('crm:pa:sS'), basic('crm:pa'), 'Bearer crm:pa:ss', undefined]) {
      expect(pushCredentialProblem({ authorization: given }, expected)).toBe(
        'Basic credentials missing or wrong',
      );
    }
    expect(pushCredentialProblem({}, {})).toBe('');
  });
});

describe('readCdrPush in a real receiver', () => {
  test('takes what the delivery job sends, records and Idempotency-Key as sent', async () => {
    const seen: unknown[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = readCdrPush(
          { method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') },
          { credentials: { apiKey: 'crm-key' } },
        );
        seen.push(r);
        res.writeHead(r.ok ? 200 : r.status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const sender = new HttpSender();
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cdr`;
      const body = JSON.stringify({ data: [record, { ...record, db_id: 43 }] });
      const answer = await sender.send({
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'cdr-42', 'x-api-key': 'crm-key' },
        body,
      });
      expect(answer.status).toBe(200);
      expect(seen).toEqual([
        { ok: true, batch: true, records: [record, { ...record, db_id: 43 }], idempotencyKey: 'cdr-42' },
      ]);
    } finally {
      sender.close();
      server.close();
    }
  });
});
