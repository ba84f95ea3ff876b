// Compatibility with a real router: Debian's v2ray (4.34) loads our compiled geosite.dat and
// geoip.dat through V2RAY_LOCATION_ASSET and checks routing rules naming their lists with -test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIpDat, buildSiteDat } from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora } from './support/corpora.js';

const V2RAY = ['/usr/bin/v2ray', '/usr/local/bin/v2ray'].find((p) => existsSync(p));
if (!V2RAY) console.warn('v2ray compatibility test skipped: no v2ray binary (apt-get install v2ray)');

// CI installs v2ray (.ci/run); there a missing binary is a failure, not a skip.
test.runIf(!V2RAY && process.env.CI === 'true')('v2ray is installed under CI', () => {
  expect(V2RAY, 'v2ray not found at /usr/bin/v2ray or /usr/local/bin/v2ray').toBeDefined();
});

function runV2ray(
  assetDir: string,
  rule: { domain?: string[]; ip?: string[] },
): { status: number | null; output: string } {
  const config = {
    log: { loglevel: 'warning' },
    outbounds: [{ protocol: 'freedom', tag: 'direct' }],
    routing: { rules: [{ type: 'field', outboundTag: 'direct', ...rule }] },
  };
  const file = join(assetDir, 'cfg.json');
  writeFileSync(file, JSON.stringify(config));
  const run = spawnSync(V2RAY as string, ['-test', '-config', file], {
    env: { ...process.env, V2RAY_LOCATION_ASSET: assetDir, 'v2ray.location.asset': assetDir },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe.skipIf(!V2RAY)('v2ray -test accepts our compiled files', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'branchgate-v2ray-'));
    if (hasGeoCorpora) {
      writeFileSync(
        join(dir, 'geosite.dat'),
        buildSiteDat(resolve(geoCorpora, 'domain-list-community/data')).bytes,
      );
      writeFileSync(
        join(dir, 'geoip.dat'),
        buildIpDat([resolve(geoCorpora, 'cidr/v2fly-geoip/text')], { codes: ['cn', 'private'] }).bytes,
      );
    } else {
      // Small sources of the same shape when the shared corpora are not beside the repository.
      const data = join(dir, 'src-site');
      mkdirSync(data);
      writeFileSync(join(data, 'cn'), 'baidu.com\nfull:www.qq.com\n');
      writeFileSync(
        join(data, 'google'),
        'google.com\ndoubleclick.net @ads\nregexp:^ads\\d+\\.google\\.com$ @ads\n',
      );
      writeFileSync(join(dir, 'private.txt'), '10.0.0.0/8\n192.168.0.0/16\nfc00::/7\n');
      writeFileSync(join(dir, 'geosite.dat'), buildSiteDat(data).bytes);
      writeFileSync(join(dir, 'geoip.dat'), buildIpDat([join(dir, 'private.txt')]).bytes);
    }
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('routing rules naming geosite:cn, geosite:google@ads and geoip:private are accepted', () => {
    const run = runV2ray(dir, { domain: ['geosite:cn', 'geosite:google@ads'], ip: ['geoip:private'] });
    expect(run.output).toContain('Configuration OK');
    expect(run.status).toBe(0);
  });

  test('control: a geosite code that is not in the file is rejected', () => {
    const run = runV2ray(dir, { domain: ['geosite:no-such-list'] });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('list not found in geosite.dat: no-such-list');
  });

  test('control: a geoip code that is not in the file is rejected', () => {
    const run = runV2ray(dir, { ip: ['geoip:zz'] });
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/country code.*zz.*not found|not found.*zz/i);
  });
});
