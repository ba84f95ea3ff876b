// `branchgate geo convert` and `geo export FILE CODE --format F` end to end: the real CLI in a child
// process, on the real dlc.dat and geoip files and on small lists written in a temp dir.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GeoDat } from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora, repoRoot } from './support/corpora.js';

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function cli(...args: string[]): Run {
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/branchgate-dev.js'), 'geo', ...args], {
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
}

const dlc = resolve(geoCorpora, 'upstream/dlc.dat');
const geoipCn = resolve(geoCorpora, 'upstream/geoip-only-cn-private.dat');

describe('branchgate geo convert', () => {
  let dir: string;
  const p = (name: string) => join(dir, name);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'branchgate-convert-cli-'));
    mkdirSync(p('data'));
    writeFileSync(
      p('data/ads'),
      'ads.example @ads\nfull:www.tracker.example\nkeyword:tracker\nregexp:^ad\\d+\\.example$\n',
    );
    writeFileSync(p('data/cdn'), 'cdn.example\nfull:static.cdn.net\n');
    expect(cli('build-site', p('data'), '-o', p('site.dat')).status).toBe(0);
    writeFileSync(p('lan.txt'), '10.0.0.0/9\n10.128.0.0/9\nfc00::/7\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('several codes go into a directory, one file each, with what each format dropped on stderr', () => {
    const run = cli('convert', p('site.dat'), '--codes', 'ads,CDN,ads@ads', '--to', 'yaml', '-o', p('yaml'));
    expect(run.status).toBe(0);
    expect(readdirSync(p('yaml')).sort()).toEqual(['ads.yaml', 'ads@ads.yaml', 'cdn.yaml']);
    expect(readFileSync(p('yaml/ads.yaml'), 'utf8')).toBe(
      "payload:\n  - '+.ads.example'\n  - 'www.tracker.example'\n",
    );
    expect(run.stderr).toBe(
      [
        'ADS -> mihomo YAML: 1 keyword rule dropped; 1 regexp rule dropped; attributes dropped from 1 rule',
        'ADS -> mihomo YAML: attributes dropped from 1 rule',
        `wrote 3 files in ${p('yaml')}: 3 lists, 5 rules (mihomo YAML)`,
        '',
      ].join('\n'),
    );
    expect(run.stdout.length).toBe(0);
  });

  test('one code goes to a file, the format told from its extension; the code comes from a file name', () => {
    expect(cli('convert', p('site.dat'), '--codes', 'cdn', '-o', p('geosite-cdn.srs')).status).toBe(0);
    expect(readFileSync(p('geosite-cdn.srs')).subarray(0, 4)).toEqual(Buffer.from('SRS\x02', 'latin1'));
    const back = cli('convert', p('geosite-cdn.srs'), '-o', p('cdn.dat'));
    expect(back.status).toBe(0);
    expect(cli('dump', p('cdn.dat'), 'cdn').stdout.toString()).toBe(
      'full:static.cdn.net\ndomain:cdn.example\n',
    );
    // --code names the list instead.
    expect(cli('convert', p('geosite-cdn.srs'), '--code', 'content', '-o', p('content.dat')).status).toBe(0);
    expect(cli('info', p('content.dat'), '--json').stdout.toString()).toContain('"code": "CONTENT"');
    // Several one-list inputs make one .dat.
    expect(cli('convert', p('lan.txt'), '-o', p('lan.mrs')).status).toBe(0);
    expect(cli('convert', p('lan.txt'), '--to', 'srs', '-o', p('geoip-office.srs')).status).toBe(0);
    const both = cli('convert', p('lan.mrs'), p('geoip-office.srs'), '-o', p('ip.dat'));
    expect(both.status).toBe(0);
    expect(cli('dump', p('ip.dat'), 'office').stdout.toString()).toBe('10.0.0.0/8\nfc00::/7\n');
    expect(cli('dump', p('ip.dat'), 'lan').stdout.toString()).toBe('10.0.0.0/8\nfc00::/7\n');
    expect(both.stderr).toBe(`wrote ${p('ip.dat')}: 2 lists, 4 networks (v2ray .dat)\n`);
  });

  test('-o - writes a text format to stdout; export FILE CODE --format F is the one-list shortcut', () => {
    const run = cli('convert', p('site.dat'), '--codes', 'ads', '--to', 'text', '-o', '-');
    expect(run.status).toBe(0);
    expect(run.stdout.toString()).toBe(
      'domain:ads.example @ads\nfull:www.tracker.example\nkeyword:tracker\nregexp:^ad\\d+\\.example$\n',
    );
    expect(run.stderr).toBe('');
    const exp = cli('export', p('site.dat'), 'ads', '--format', 'adguard');
    expect(exp.stdout.toString()).toBe(
      '! ADS: written by branchgate geo export --format adguard\n||ads.example^\n|www.tracker.example^\n*tracker*\n/^ad\\d+\\.example$/\n',
    );
    expect(exp.stderr).toBe('ADS -> AdGuard Home: attributes dropped from 1 rule\n');
    // A binary format goes to stdout only because it is a pipe here; -o writes a file.
    expect(cli('export', p('site.dat'), 'cdn', '--format', 'srs').stdout.subarray(0, 3).toString()).toBe(
      'SRS',
    );
    expect(cli('export', p('site.dat'), 'cdn', '--format', 'mrs', '-o', p('cdn.mrs')).status).toBe(0);
    expect(cli('export', p('cdn.mrs'), 'cdn', '--format', 'list').stdout.toString()).toBe(
      '+.cdn.example\nstatic.cdn.net\n',
    );
    // --version picks the rule-set version.
    expect(
      cli('export', p('site.dat'), 'cdn', '--format', 'json', '--version', '3').stdout.toString(),
    ).toContain('"version": 3');
  });

  test('a list of the wrong kind for the format is refused, and existing outputs stay as they were', () => {
    writeFileSync(p('keep.conf'), 'previous');
    const run = cli('convert', p('lan.txt'), '--to', 'dnsmasq', '-o', p('keep.conf'));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `branchgate: ${p('lan.txt')}: list LAN is an IP list; dnsmasq holds site lists only\n`,
    );
    expect(readFileSync(p('keep.conf'), 'utf8')).toBe('previous');
    // Several lists: the second one fails, so not even the first is written.
    mkdirSync(p('out'));
    writeFileSync(p('out/ads.conf'), 'old ads');
    const two = cli('convert', p('site.dat'), p('lan.txt'), '--to', 'dnsmasq', '-o', p('out'));
    expect(two.status).toBe(1);
    expect(two.stderr).toContain('list LAN is an IP list');
    expect(readdirSync(p('out'))).toEqual(['ads.conf']);
    expect(readFileSync(p('out/ads.conf'), 'utf8')).toBe('old ads');
    // An unknown code, too.
    const none = cli('convert', p('site.dat'), '--codes', 'ads,nope', '--to', 'dnsmasq', '-o', p('out'));
    expect(none.status).toBe(1);
    expect(none.stderr).toBe(
      `branchgate: no list "nope" in ${p('site.dat')} (run \`branchgate geo info\` on a .dat to list its codes)\n`,
    );
    expect(readFileSync(p('out/ads.conf'), 'utf8')).toBe('old ads');
  });

  test('unknown input, no format to tell, several lists to stdout: refused with what to do', () => {
    writeFileSync(p('junk.bin'), Buffer.from([0xff, 0, 1, 2]));
    expect(cli('convert', p('junk.bin'), '-o', p('x.dat')).stderr).toBe(
      `branchgate: ${p('junk.bin')}: unknown format at byte 0 (0xff): not a geosite/geoip .dat, .srs, .mrs, sing-box JSON, mihomo YAML or a text list\n`,
    );
    expect(cli('convert', p('site.dat'), '-o', p('rules')).stderr).toMatch(
      /^branchgate: no format for ".*rules": give --to/,
    );
    expect(cli('convert', p('site.dat'), '--to', 'list', '-o', '-').stderr).toBe(
      'branchgate: 2 lists, one mihomo text file each: give a directory as -o, not "-"\n',
    );
    expect(cli('export', p('site.dat'), '--format', 'list').stderr).toBe(
      'branchgate: geo export needs a list CODE\n',
    );
  });

  test('bare names: source syntax in a file without extension, mihomo text otherwise, --from decides', () => {
    writeFileSync(p('names'), 'example.com\n');
    copyFileSync(p('names'), p('names.list'));
    expect(cli('convert', p('names'), '--to', 'text', '-o', '-').stdout.toString()).toBe(
      'domain:example.com\n',
    );
    expect(cli('convert', p('names.list'), '--to', 'text', '-o', '-').stdout.toString()).toBe(
      'full:example.com\n',
    );
    expect(
      cli('convert', p('names.list'), '--from', 'text', '--to', 'text', '-o', '-').stdout.toString(),
    ).toBe('domain:example.com\n');
  });
});

describe.skipIf(!hasGeoCorpora)('branchgate geo convert on the real files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'branchgate-convert-real-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('all 1536 dlc.dat lists to .mrs files and back into a .dat', () => {
    const out = join(dir, 'mrs');
    const run = cli('convert', dlc, '--to', 'mrs', '-o', out);
    expect(run.status).toBe(0);
    expect(readdirSync(out).length).toBe(1536);
    expect(run.stderr).toContain(
      'GOOGLE -> mihomo .mrs: 2 regexp rules dropped; attributes dropped from 185 rules',
    );
    const files = readdirSync(out).map((f) => join(out, f));
    const back = cli('convert', ...files, '-o', join(dir, 'back.dat'));
    expect(back.status).toBe(0);
    const dat = GeoDat.open(join(dir, 'back.dat'));
    expect(dat.lists().size).toBe(1536);
    expect(dat.find('GEOLOCATION-!CN')).toBeDefined();
    dat.close();
  }, 120_000);

  test('dlc.dat to a text tree that build-site compiles back to the same bytes', () => {
    const data = join(dir, 'data');
    expect(cli('convert', dlc, '--to', 'text', '-o', data).status).toBe(0);
    expect(readdirSync(data)).toContain('geolocation-!cn');
    expect(cli('build-site', data, '-o', join(dir, 'again.dat')).status).toBe(0);
    expect(Buffer.compare(readFileSync(join(dir, 'again.dat')), readFileSync(dlc))).toBe(0);
  }, 120_000);

  test('an IP .dat to sing-box JSON files; a site list to an IP-only format is refused naming file and list', () => {
    const run = cli('convert', geoipCn, '--to', 'json', '-o', join(dir, 'json'));
    expect(run.status).toBe(0);
    expect(readdirSync(join(dir, 'json')).sort()).toEqual(['cn.json', 'private.json']);
    const refused = cli('convert', dlc, '--codes', 'cn', '--to', 'nftables', '-o', join(dir, 'cn.nft'));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`branchgate: ${dlc}: list CN is a site list; nftables holds IP lists only\n`);
  });
});
