// `branchgate geo lookup`: domains and addresses answered from a site and an IP file in one run,
// from arguments or stdin, checked against `geo match` over each file alone (the per-file matchers
// that test/geo/v2ray-compat.test.ts holds to v2ray's answers).
import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { GeoDat, GeoLookup, loadMatcher } from '../../src/geo/index.js';
import { BIN } from '../support/serve-process.js';

const run = promisify(execFile);
const UPSTREAM = resolve(import.meta.dirname, '../../../shared/corpora/geo/upstream');
const SITE = resolve(UPSTREAM, 'dlc.dat');
const IP = resolve(UPSTREAM, 'geoip-only-cn-private.dat');

const QUERIES = [
  'www.google.com',
  'WWW.Baidu.com.',
  'nothing.zz',
  '114.114.114.114',
  '10.1.2.3',
  '::1',
  '2400:da00::6666',
  '8.8.8.8',
  'doubleclick.net',
];

/** What `geo match` says of each query over the one file of its kind. */
function perFileAnswer(query: string): string[] {
  const isIp = /^[\d.]+$/.test(query) || query.includes(':');
  const dat = GeoDat.open(isIp ? IP : SITE);
  try {
    return [...loadMatcher(dat).matcher.matchCodes(query)].sort();
  } finally {
    dat.close();
  }
}

function lookupStdin(
  args: string[],
  input: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, [BIN, 'geo', 'lookup', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  proc.stdin.end(input);
  return new Promise((res) => proc.on('close', (code) => res({ code, out, err })));
}

describe('geo lookup', () => {
  test('answers domains from the site file and addresses from the IP file, codes sorted, as --json lines', async () => {
    const { stdout } = await run(process.execPath, [
      BIN,
      'geo',
      'lookup',
      '--site',
      SITE,
      '--ip',
      IP,
      '--json',
      ...QUERIES,
    ]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(QUERIES.length);
    for (const [i, line] of lines.entries()) {
      const query = QUERIES[i] as string;
      expect(JSON.parse(line)).toEqual({ query, codes: perFileAnswer(query) });
      // One object a line, keys in this order, no spaces: what line-oriented tools expect.
      expect(line).toBe(JSON.stringify({ query, codes: perFileAnswer(query) }));
    }
    expect(JSON.parse(lines[0] as string).codes).toEqual(
      expect.arrayContaining(['GEOLOCATION-!CN', 'GOOGLE']),
    );
    expect(JSON.parse(lines[3] as string).codes).toEqual(['CN']);
    expect(JSON.parse(lines[2] as string).codes).toEqual([]);
  });

  test('reads queries from stdin, one a line (blank lines skipped, CRLF taken), in order, as text', async () => {
    const input = `${QUERIES.join('\r\n')}\n\n   \n${QUERIES[0]}`;
    const r = await lookupStdin(['--site', SITE, '--ip', IP], input);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const expected = [...QUERIES, QUERIES[0] as string].map((q) => {
      const codes = perFileAnswer(q);
      return `${q}\t${codes.length > 0 ? codes.join(' ') : '-'}`;
    });
    expect(r.out.trimEnd().split('\n')).toEqual(expected);
  });

  test('50,000 stdin queries come back in order, one answer each', async () => {
    const queries = Array.from({ length: 50_000 }, (_, i) =>
      i % 2 === 0 ? `h${i}.baidu.com` : `114.114.${i % 256}.1`,
    );
    const r = await lookupStdin(['--site', SITE, '--ip', IP, '--codes', 'cn'], `${queries.join('\n')}\n`);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(queries.length);
    expect(lines.map((l) => l.split('\t')[0])).toEqual(queries);
    expect(lines.every((l) => l.endsWith('\tCN'))).toBe(true);
  });

  test('--codes takes each code from the file that has it, attributes from the site file only', () => {
    const lookup = GeoLookup.load({ site: SITE, ip: IP, codes: ['google@ads', 'private', 'cn'] });
    expect(lookup.files.map((f) => [f.kind, f.selected])).toEqual([
      ['site', ['GOOGLE@ads', 'PRIVATE', 'CN']],
      ['ip', ['PRIVATE', 'CN']],
    ]);
    expect(lookup.lookup('doubleclick.net')).toEqual(['GOOGLE@ads']);
    expect(lookup.lookup('www.google.com')).toEqual([]);
    expect(lookup.lookup('192.168.1.1')).toEqual(['PRIVATE']);
    // Only the IP file holds the lists asked for: the site file is not compiled, domains match nothing.
    const ipOnly = GeoLookup.load({ site: SITE, ip: IP, codes: ['cn'] });
    expect(ipOnly.lookup('1.0.1.1')).toEqual(['CN']);
  });

  test('refuses a file of the wrong kind, an unknown code and no file, naming what is wrong', async () => {
    const fail = async (args: string[]) => {
      const r = await lookupStdin(args, '');
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      return r.err;
    };
    expect(await fail(['--site', IP, 'x.com'])).toMatch(
      /geoip-only-cn-private\.dat: given as --site but holds ip lists/,
    );
    expect(await fail(['--site', SITE, '--ip', IP, '--codes', 'cn,nosuch', 'x.com'])).toMatch(
      /no list "NOSUCH" in .*dlc\.dat or .*geoip-only-cn-private\.dat/i,
    );
    expect(await fail(['x.com'])).toMatch(/give a site file, an IP file, or both/);
    expect(await fail(['--ip', resolve(UPSTREAM, 'SOURCE.txt'), '1.1.1.1'])).toMatch(/SOURCE\.txt/);
  });
});
