// `branchgate geo ...` end to end: the real CLI in a child process on real files in a temp dir.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './support/corpora.js';
import { ipv4Bits, writeMmdb } from './support/mmdb-writer.js';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/branchgate-dev.js'), 'geo', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('branchgate geo', () => {
  let dir: string;
  const p = (name: string) => join(dir, name);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'branchgate-geo-cli-'));
    mkdirSync(p('data'));
    writeFileSync(p('data/google'), 'google.com\nwww.google.com\ndoubleclick.net @ads\n');
    writeFileSync(p('data/alphabet'), 'include:google\nabc.xyz\n');
    mkdirSync(p('lists'));
    writeFileSync(p('lists/private.txt'), '10.0.0.0/9\n10.128.0.0/9\n# comment\nfc00::/7\n');
    writeFileSync(p('lists/cn.txt'), '1.0.1.0/24\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('build-site, info, dump and diff', () => {
    const build = cli('build-site', p('data'), '-o', p('site.dat'));
    expect(build.status).toBe(0);
    expect(build.stderr).toContain('2 lists, 5 rules');

    const info = JSON.parse(cli('info', p('site.dat'), '--json').stdout);
    expect(info.kind).toBe('site');
    expect(info.entries.map((e: { code: string; count: number }) => [e.code, e.count])).toEqual([
      ['ALPHABET', 3],
      ['GOOGLE', 2],
    ]);

    expect(cli('dump', p('site.dat'), 'alphabet').stdout).toBe(
      'domain:abc.xyz\ndomain:doubleclick.net @ads\ndomain:google.com\n',
    );
    const json = JSON.parse(cli('dump', p('site.dat'), 'google@ads', '--format', 'json').stdout);
    expect(json).toEqual({
      code: 'GOOGLE',
      kind: 'site',
      rules: [{ type: 'domain', value: 'doubleclick.net', attributes: { ads: true } }],
    });

    expect(cli('build-site', p('data'), '-o', p('google.dat'), '--codes', 'google').status).toBe(0);
    expect(cli('diff', p('google.dat'), p('site.dat')).stdout).toBe(
      '+ ALPHABET (+3 -0)\n  + domain:abc.xyz\n  + domain:doubleclick.net @ads\n  + domain:google.com\n',
    );
    expect(cli('diff', p('site.dat'), p('site.dat')).stdout).toBe('no differences\n');
  });

  test('build-ip from text lists and an mmdb, then export as nftables', () => {
    writeFileSync(
      p('country.mmdb'),
      writeMmdb({
        ipVersion: 4,
        networks: [
          { bits: ipv4Bits('1.0.2.0/23'), iso: 'CN' },
          { bits: ipv4Bits('5.1.0.0/16'), iso: 'DE' },
        ],
      }),
    );
    const build = cli(
      'build-ip',
      p('lists'),
      '--mmdb',
      p('country.mmdb'),
      '--codes',
      'cn,private',
      '-o',
      p('ip.dat'),
    );
    expect(build.status).toBe(0);
    expect(cli('dump', p('ip.dat'), 'cn').stdout).toBe('1.0.1.0/24\n1.0.2.0/23\n');
    expect(cli('dump', p('ip.dat'), 'private').stdout).toBe('10.0.0.0/8\nfc00::/7\n');
    expect(cli('info', p('ip.dat')).stdout.split('\n')[0]).toMatch(
      /: ip lists, 2 entries, 4 CIDRs \(ipv4 3, ipv6 1\)/,
    );

    const exp = cli(
      'export',
      p('ip.dat'),
      '--code',
      'private',
      '--to',
      'nftables',
      '--set',
      'lan',
      '-o',
      p('lan.nft'),
    );
    expect(exp.status).toBe(0);
    expect(readFileSync(p('lan.nft'), 'utf8')).toContain(
      '\tset lan4 {\n\t\ttype ipv4_addr\n\t\tflags interval\n\t\telements = {\n\t\t\t10.0.0.0/8\n',
    );
  });

  test('export a site list for dnsmasq, reporting skipped rules', () => {
    mkdirSync(p('data2'));
    writeFileSync(
      p('data2/ads'),
      'keyword:adserver\nads.example\nregexp:^ad[0-9]+\\.example$\nfull:x.example.org\n',
    );
    expect(cli('build-site', p('data2'), '-o', p('site2.dat')).status).toBe(0);
    const run = cli('export', p('site2.dat'), '--code', 'ads', '--to', 'dnsmasq', '--ipset', 'gfw');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('ipset=/ads.example/gfw\nipset=/x.example.org/gfw\n');
    expect(run.stderr).toBe('skipped 2 keyword/regexp rules that dnsmasq cannot express\n');
  });

  test('a bad source line fails with file:line and leaves the existing output untouched', () => {
    writeFileSync(p('keep.dat'), 'previous');
    mkdirSync(p('bad'));
    writeFileSync(p('bad/x'), 'ok.example\nbad_domain.example\n');
    const run = cli('build-site', p('bad'), '-o', p('keep.dat'));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `branchgate: ${p('bad/x')}:2: invalid domain "bad_domain.example" (allowed: a-z, 0-9, "." and "-")\n`,
    );
    expect(readFileSync(p('keep.dat'), 'utf8')).toBe('previous');
  });

  test('a truncated file is reported with its byte offset', () => {
    expect(cli('build-site', p('data'), '-o', p('full.dat')).status).toBe(0);
    const bytes = readFileSync(p('full.dat'));
    writeFileSync(p('cut.dat'), bytes.subarray(0, bytes.length - 5));
    const run = cli('dump', p('cut.dat'), 'google');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^branchgate: .*cut\.dat: corrupt data at byte \d+: entry 2 of \d+ bytes runs past the end of the file/,
    );
  });
});
