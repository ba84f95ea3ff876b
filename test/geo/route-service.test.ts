// POST /api/geo/route on a real `branchgate serve --geosite --geoip` (the real dlc.dat and v2fly's
// geoip with CN and PRIVATE): the same decisions as RouteTable over the same files, the geo:lookup
// scope, refusals naming the rule and entry, no ext: files, and 503 without loaded files.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseRouteRules, RouteFiles, RouteTable } from '../../src/geo/route/index.js';
import { send } from '../support/https-client.js';
import { createTokenWithCli, type ServeProcess, spawnServe } from '../support/serve-process.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';

const RULES = [
  { type: 'field', domain: ['geosite:category-ads-all'], outboundTag: 'block' },
  { type: 'field', domain: ['geosite:cn', 'full:intranet.example'], outboundTag: 'direct' },
  { type: 'field', ip: ['geoip:private', 'geoip:cn'], outboundTag: 'direct' },
  { type: 'field', ip: ['geoip:!cn'], outboundTag: 'proxy' },
];
const QUERIES = [
  'doubleclick.net',
  'www.baidu.com',
  'intranet.example',
  'example.org',
  '10.0.0.1',
  '1.0.1.1',
  '8.8.8.8',
  '2001:4860::8888',
];

describe.skipIf(!hasGeoCorpora)('POST /api/geo/route', () => {
  let dir: string;
  let srv: ServeProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bg-geo-route-svc-'));
    copyFileSync(resolve(geoCorpora, 'upstream/dlc.dat'), join(dir, 'site.dat'));
    copyFileSync(resolve(geoCorpora, 'upstream/geoip-only-cn-private.dat'), join(dir, 'ip.dat'));
  });
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    srv = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = async (args: string[]) => {
    srv = await spawnServe(['--data-dir', join(dir, 'data'), '--listen', '127.0.0.1:0', ...args], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'geo-admin-pw-1', BRANCHGATE_GEO_WATCH_MS: '0' },
    });
    return srv;
  };
  const token = (scope: string) => createTokenWithCli(`t-${scope}`, scope, ['--data-dir', join(dir, 'data')]);
  const route = (bearer: string | undefined, body: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    return send(`${srv?.url}/api/geo/route`, { method: 'POST', headers, body: JSON.stringify(body) });
  };

  test('decides as RouteTable does over the loaded files; needs geo:lookup; refuses what it cannot evaluate', async () => {
    await serve(['--geosite', join(dir, 'site.dat'), '--geoip', join(dir, 'ip.dat')]);
    const geo = await token('geo:lookup');
    const res = await route(geo, { rules: RULES, queries: QUERIES });
    expect(res.status).toBe(200);
    const files = new RouteFiles({ site: join(dir, 'site.dat'), ip: join(dir, 'ip.dat') });
    const table = RouteTable.compile(parseRouteRules(JSON.stringify(RULES), 'local'), files);
    files.close();
    expect(res.json().results).toEqual(QUERIES.map((q) => table.decide(q)));
    expect(res.json().results.map((r: { outboundTag: string | null }) => r.outboundTag)).toEqual([
      'block',
      'direct',
      'direct',
      null,
      'direct',
      'direct',
      'proxy',
      'proxy',
    ]);
    expect(res.json().warnings).toEqual([
      'request: rules[3]: "geoip:!CODE" is read as Xray reads it (every address outside CODE); v2ray 4.34 refuses it',
    ]);
    // A whole config is taken too, and asking again answers the same.
    const again = await route(geo, {
      rules: { routing: { rules: RULES } },
      queries: ['example.org', '8.8.8.8'],
    });
    expect(again.json().results.map((r: { rule: number | null }) => r.rule)).toEqual([null, 3]);

    expect((await route(undefined, { rules: RULES, queries: QUERIES })).status).toBe(401);
    expect((await route(await token('sms'), { rules: RULES, queries: QUERIES })).status).toBe(403);
    const refused = async (rules: unknown, code: string, message: string) => {
      const r = await route(geo, { rules, queries: ['a.com'] });
      expect(r.status).toBe(400);
      expect(r.json().error).toEqual({ code, message });
    };
    await refused(
      [RULES[0], { type: 'field', ip: ['geoip:zz'], outboundTag: 'x' }],
      'code_not_found',
      `request: rules[1].ip "geoip:zz": no list "zz" in ${join(dir, 'ip.dat')}`,
    );
    await refused(
      [{ type: 'field', domain: ['ext:/etc/passwd:x'], outboundTag: 'x' }],
      'route_rule',
      'request: rules[0].domain "ext:/etc/passwd:x": ext: files are not read here (/etc/passwd); use geosite: and geoip: lists',
    );
    await refused(
      { rules: [{ type: 'field', inboundTag: ['socks'], outboundTag: 'x' }] },
      'route_rule',
      'request: rules[0].inboundTag: not supported: a geo route query carries only a domain or an address (remove the field or the rule)',
    );
    await refused(
      { routing: { rules: Array(1001).fill(RULES[2]) } },
      'route_rule',
      'request: 1001 rules; at most 1000 a request',
    );
    const noQueries = await route(geo, { rules: RULES, queries: [] });
    expect(noQueries.status).toBe(400);
    expect(noQueries.json().error.message).toMatch(/queries/);
  }, 60_000);

  test('answers 503 while no geo file is loaded', async () => {
    await serve([]);
    const res = await route(await token('geo:lookup'), { rules: RULES, queries: ['a.com'] });
    expect(res.status).toBe(503);
    expect(res.json().error.message).toMatch(/no geo files are loaded/);
  }, 60_000);
});
