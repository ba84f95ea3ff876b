// `branchgate geo match` end to end: the real CLI in a child process on files it built itself.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './support/corpora.js';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/branchgate-dev.js'), 'geo', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('branchgate geo match', () => {
  let dir: string;
  const p = (name: string) => join(dir, name);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'branchgate-geo-match-'));
    mkdirSync(p('data'));
    writeFileSync(
      p('data/google'),
      'google.com\nfull:www.google.cn\ndoubleclick.net @ads\nregexp:^ads\\d+\\. @ads\n',
    );
    writeFileSync(p('data/cn'), 'cn\nkeyword:baidu\n');
    mkdirSync(p('lists'));
    writeFileSync(p('lists/private.txt'), '10.0.0.0/8\nfc00::/7\n');
    writeFileSync(p('lists/cn.txt'), '1.0.1.0/24\n240e::/20\n');
    expect(cli('build-site', p('data'), '-o', p('site.dat')).status).toBe(0);
    expect(cli('build-ip', p('lists'), '-o', p('ip.dat')).status).toBe(0);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('prints the matching site lists per domain, "-" for none', () => {
    const run = cli(
      'match',
      p('site.dat'),
      'www.google.cn',
      'ads7.doubleclick.net',
      'baidu.com',
      'example.org',
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      'www.google.cn\tCN GOOGLE\nads7.doubleclick.net\tGOOGLE\nbaidu.com\tCN\nexample.org\t-\n',
    );
  });

  test('--codes with code@attr selects and orders the lists; --json', () => {
    const run = cli(
      'match',
      p('site.dat'),
      'ads7.doubleclick.net',
      'google.com',
      '--codes',
      'google@ads,cn',
      '--json',
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { query: 'ads7.doubleclick.net', codes: ['GOOGLE@ads'] },
      { query: 'google.com', codes: [] },
    ]);
  });

  test('an ip file is recognised by its content and matches IPv4, IPv6 and mapped addresses', () => {
    const run = cli('match', p('ip.dat'), '10.1.2.3', '1.0.1.9', '240e::1', '::ffff:10.0.0.1', '8.8.8.8');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      '10.1.2.3\tPRIVATE\n1.0.1.9\tCN\n240e::1\tCN\n::ffff:10.0.0.1\tPRIVATE\n8.8.8.8\t-\n',
    );
  });

  test('a bad address, a missing file, an unknown code and attributes on IP lists fail clearly', () => {
    const bad = cli('match', p('ip.dat'), '10.0.0.1', '10.0.0.300');
    expect(bad).toMatchObject({
      status: 1,
      stdout: '',
      stderr: 'branchgate: invalid IP address "10.0.0.300"\n',
    });
    const missing = cli('match', p('none.dat'), 'a.com');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^branchgate: cannot open .*none\.dat: ENOENT/);
    const unknown = cli('match', p('site.dat'), 'a.com', '--codes', 'nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no list "nope"');
    const attrs = cli('match', p('ip.dat'), '10.0.0.1', '--codes', 'cn@ads');
    expect(attrs).toMatchObject({
      status: 1,
      stderr: 'branchgate: IP lists have no attributes ("cn@ads")\n',
    });
  });
});
