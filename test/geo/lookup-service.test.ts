// POST /api/geo/lookup on a real `branchgate serve --geosite --geoip`: answers, access, limits, and
// reloads (a file replaced on disk, SIGHUP, the console's PUT /api/geo/files) that never fail a
// request in flight and never swap in a file that does not load.
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { GeoDat, GeoLookup } from '../../src/geo/index.js';
import { waitFor } from '../cdr/push/support/push-support.js';
import { send } from '../support/https-client.js';
import { createTokenWithCli, type ServeProcess, spawnServe } from '../support/serve-process.js';

const UPSTREAM = resolve(import.meta.dirname, '../../../shared/corpora/geo/upstream');

/** The first address of a country file's first list: a query that file answers with its code. */
function firstAddress(file: string): string {
  const dat = GeoDat.open(resolve(UPSTREAM, file));
  try {
    const list = dat.readIp(dat.entries[0] as (typeof dat.entries)[number]);
    const cidr = list.cidrs.find((c) => c.ip.length === 4);
    if (!cidr) throw new Error(`no IPv4 CIDR in ${file}`);
    return [...cidr.ip].join('.');
  } finally {
    dat.close();
  }
}
const CN_IP = firstAddress('geoip-cn.dat');
const DE_IP = firstAddress('geoip-de.dat');

describe('the geo lookup service', () => {
  let dir: string;
  let srv: ServeProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bg-geo-svc-'));
    copyFileSync(resolve(UPSTREAM, 'dlc.dat'), join(dir, 'site.dat'));
    copyFileSync(resolve(UPSTREAM, 'geoip-cn.dat'), join(dir, 'ip.dat'));
  });
  afterEach(async () => {
    await srv?.stop('SIGKILL');
    srv = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = async (args: string[], watchMs: string) => {
    srv = await spawnServe(['--data-dir', join(dir, 'data'), '--listen', '127.0.0.1:0', ...args], {
      env: { BRANCHGATE_ADMIN_PASSWORD: 'geo-admin-pw-1', BRANCHGATE_GEO_WATCH_MS: watchMs },
    });
    return srv;
  };
  const token = (scope: string) => createTokenWithCli(`t-${scope}`, scope, ['--data-dir', join(dir, 'data')]);
  const call = (method: string, path: string, bearer: string | undefined, body?: unknown) => {
    const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
    if (body === undefined) return send(`${srv?.url}${path}`, { method, headers });
    headers['content-type'] = 'application/json';
    return send(`${srv?.url}${path}`, { method, headers, body: JSON.stringify(body) });
  };
  const replaceAtomically = (target: string, source: string) => {
    writeFileSync(`${target}.tmp`, readFileSync(source));
    renameSync(`${target}.tmp`, target);
  };

  test('answers domains and addresses, needs geo:lookup, bounds requests, follows a replaced file without failing a request', async () => {
    await serve(['--geosite', join(dir, 'site.dat'), '--geoip', join(dir, 'ip.dat')], '100');
    const geo = await token('geo:lookup');
    const admin = await token('admin');
    const queries = ['www.google.com', CN_IP, DE_IP, 'nothing.zz'];
    const res = await call('POST', '/api/geo/lookup', geo, { queries });
    expect(res.status).toBe(200);
    const local = GeoLookup.load({ site: join(dir, 'site.dat'), ip: join(dir, 'ip.dat') });
    expect(res.json()).toEqual({ results: queries.map((query) => ({ query, codes: local.lookup(query) })) });
    expect(res.json().results[1].codes).toEqual(['CN']);

    expect((await call('POST', '/api/geo/lookup', undefined, { queries })).status).toBe(401);
    expect((await call('POST', '/api/geo/lookup', await token('sms'), { queries })).status).toBe(403);
    const notArray = await call('POST', '/api/geo/lookup', geo, { queries: { q: 'www.google.com' } });
    expect(notArray.status).toBe(400);
    expect(notArray.json().error.message).toMatch(/queries/);
    const empty = await call('POST', '/api/geo/lookup', geo, { queries: [] });
    expect(empty.status).toBe(400);
    expect(empty.json().error.message).toMatch(/queries/);
    const tooMany = await call('POST', '/api/geo/lookup', geo, { queries: Array(10_001).fill('a.com') });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json().error.message).toMatch(/10000/);

    // Requests keep coming while the IP file is replaced by rename, then by a broken file.
    const statuses: number[] = [];
    let last: string[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const r = await call('POST', '/api/geo/lookup', geo, { queries: [DE_IP] });
        statuses.push(r.status);
        if (r.status === 200) last = r.json().results[0].codes;
      }
    })();
    replaceAtomically(join(dir, 'ip.dat'), resolve(UPSTREAM, 'geoip-de.dat'));
    await waitFor(() => last.length === 1 && last[0] === 'DE', 'the new IP file answering');
    const status = (await call('GET', '/api/geo/status', admin)).json();
    expect(status.ip).toEqual({ path: join(dir, 'ip.dat'), from: 'flag' });
    expect(status.files.map((f: { kind: string }) => f.kind)).toEqual(['site', 'ip']);
    expect(status.files[1].lists.map((l: { code: string }) => l.code)).toEqual(['DE']);
    expect(status.files[1].lists[0].count).toBeGreaterThan(1000);
    expect(status.lastError).toBeNull();
    const reloadsBefore = status.reloads;

    // A truncated file (as a copy in progress leaves it) does not load: the old lists keep answering.
    writeFileSync(join(dir, 'ip.dat'), readFileSync(resolve(UPSTREAM, 'geoip-cn.dat')).subarray(0, 5000));
    await waitFor(
      async () => (await call('GET', '/api/geo/status', admin)).json().lastError !== null,
      'the failed reload in the status',
    );
    const failed = (await call('GET', '/api/geo/status', admin)).json();
    expect(failed.lastError.message).toContain(join(dir, 'ip.dat'));
    expect(failed.reloads).toBe(reloadsBefore);
    expect(failed.files[1].lists.map((l: { code: string }) => l.code)).toEqual(['DE']);
    const during = await call('POST', '/api/geo/lookup', geo, { queries: [DE_IP] });
    expect(during.json().results[0].codes).toEqual(['DE']);
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 60_000);

  test('with watching off, SIGHUP reloads; without files the lookup answers 503', async () => {
    const s = await serve(['--geosite', join(dir, 'site.dat'), '--geoip', join(dir, 'ip.dat')], '0');
    const geo = await token('geo:lookup');
    const admin = await token('admin');
    const ask = async () =>
      (await call('POST', '/api/geo/lookup', geo, { queries: [CN_IP] })).json().results[0].codes;
    expect(await ask()).toEqual(['CN']);
    replaceAtomically(join(dir, 'ip.dat'), resolve(UPSTREAM, 'geoip-de.dat'));
    // Nothing watches: the status still shows the first load only.
    expect((await call('GET', '/api/geo/status', admin)).json().reloads).toBe(1);
    s.proc.kill('SIGHUP');
    await waitFor(async () => (await ask()).length === 0, 'the reload after SIGHUP');
    expect(s.output()).toMatch(/SIGHUP, reloading the geo files/);
    expect((await call('GET', '/api/geo/status', admin)).json().reloads).toBe(2);
    await s.stop('SIGKILL');

    const bare = await serve([], '0');
    const geo2 = await token('geo:lookup');
    const none = await send(`${bare.url}/api/geo/lookup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${geo2}` },
      body: JSON.stringify({ queries: ['a.com'] }),
    });
    expect(none.status).toBe(503);
    expect(none.json().error.message).toMatch(/no geo files are loaded/);
  }, 60_000);

  test('PUT /api/geo/files sets the files (kept over restarts), and a file that does not load changes nothing', async () => {
    await serve(['--geoip', join(dir, 'ip.dat')], '0');
    const admin = await token('admin');
    const bad = await call('PUT', '/api/geo/files', admin, { site: join(dir, 'missing.dat') });
    expect(bad.status).toBe(400);
    expect(bad.json().error.message).toMatch(/^Not saved: .*missing\.dat/);
    const wrongKind = await call('PUT', '/api/geo/files', admin, { site: join(dir, 'ip.dat') });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json().error.message).toMatch(/given as --site but holds ip lists/);
    let status = (await call('GET', '/api/geo/status', admin)).json();
    expect(status.site).toBeNull();
    expect(status.files.map((f: { kind: string }) => f.kind)).toEqual(['ip']);

    const ok = await call('PUT', '/api/geo/files', admin, { site: join(dir, 'site.dat') });
    expect(ok.status).toBe(200);
    expect(ok.json().site).toEqual({ path: join(dir, 'site.dat'), from: 'console' });
    const lookup = await call('POST', '/api/geo/lookup', admin, { queries: ['www.baidu.com'] });
    expect(lookup.json().results[0].codes).toContain('CN');

    await srv?.stop('SIGTERM');
    await serve(['--geoip', join(dir, 'ip.dat')], '0');
    status = (await call('GET', '/api/geo/status', admin)).json();
    expect(status.site).toEqual({ path: join(dir, 'site.dat'), from: 'console' });
    expect(status.ip).toEqual({ path: join(dir, 'ip.dat'), from: 'flag' });
    // null goes back to the flag (none for the site file here).
    const cleared = await call('PUT', '/api/geo/files', admin, { site: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json().site).toBeNull();
  }, 60_000);
});
