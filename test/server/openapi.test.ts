// /openapi.json and /docs on a real `branchgate serve`: valid OpenAPI 3.1 (checked with
// @apidevtools/swagger-parser), the pull and send-one contracts with their schemas and security,
// a browsable reference served from the package only, and the SDK's types agreeing with the spec.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SmsMessage } from '../../src/client/index.js';
import { send } from '../support/https-client.js';
import { REPO_ROOT, type ServeProcess, spawnServe } from '../support/serve-process.js';

describe('the OpenAPI description', () => {
  let dir: string;
  let srv: ServeProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bg-openapi-'));
    srv = await spawnServe(['--data-dir', dir, '--listen', '127.0.0.1:0']);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('GET /openapi.json is valid OpenAPI 3.1 with the contracts, and is what docs/openapi.json holds', async () => {
    const res = await send(`${srv.url}/openapi.json`);
    expect(res.status).toBe(200);
    const spec = res.json();
    expect(spec.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(spec));
    const pull = spec.paths['/pbx/cdr/data'].get;
    expect(pull.security).toEqual([
      { session: [] },
      { token: [] },
      { extensionBasic: [] },
      { extensionKey: [] },
    ]);
    const record = pull.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(record.properties)).toEqual(
      expect.arrayContaining(['db_id', 'call_id', 'source', 'destination', 'disposition', 'start_time']),
    );
    const sendOne = spec.paths['/api/sms/send-one'].post;
    expect(sendOne.description).toMatch(/`auth` is the admin password/);
    expect(sendOne.requestBody.content['application/json'].example).toMatchObject({
      to: '+15551234567',
    });
    expect(Object.keys(spec.components.securitySchemes)).toEqual([
      'session',
      'token',
      'extensionBasic',
      'extensionKey',
    ]);
    // Console pages are not API.
    expect(Object.keys(spec.paths).some((p) => p.startsWith('/pbx/settings') || p === '/login')).toBe(false);
    // The committed copy is the served one but for the version the server reports.
    const committed = JSON.parse(readFileSync(resolve(REPO_ROOT, 'docs/openapi.json'), 'utf8'));
    expect(Object.keys(committed.paths)).toEqual(Object.keys(spec.paths));
  });

  test('/docs is served from the package: no script or style from another origin', async () => {
    const page = await send(`${srv.url}/docs/`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/text\/html/);
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(urls.length).toBeGreaterThan(1);
    for (const u of urls) expect(u, u).not.toMatch(/^(https?:)?\/\//);
    const script = urls.find((u) => u.endsWith('.js')) as string;
    const asset = await send(new URL(script, `${srv.url}/docs/`).href);
    expect(asset.status).toBe(200);
  });

  test("the SDK's SMS message type has exactly the spec's fields", async () => {
    const spec = (await send(`${srv.url}/openapi.json`)).json();
    const message =
      spec.paths['/api/sms/get-one'].post.responses['200'].content['application/json'].schema.properties.data;
    // Required<> makes the compiler demand every field the SDK declares: a field added to either
    // side without the other fails here.
    const sdk: Required<SmsMessage> = {
      id: '',
      type: 'sent',
      number: '',
      message: '',
      date: '',
      timestamp: '',
      status: 'sent',
      parts: 1,
      encoding: '',
      error: '',
      incomplete: true,
      reference: 0,
      number_typed: '',
      data_hex: '',
    };
    expect(Object.keys(message.properties).sort()).toEqual(Object.keys(sdk).sort());
  });
});
