// `branchgate geo route` end to end: the real CLI in a child process over the real dlc.dat and a
// geoip.dat it built from the real CIDR lists; queries as arguments and from stdin, text and JSON,
// warnings on stderr, and refusals that name the file, the rule and the entry.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { geoCorpora, hasGeoCorpora, repoRoot } from './support/corpora.js';

function cli(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/branchgate-dev.js'), 'geo', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const RULES = {
  routing: {
    domainStrategy: 'AsIs',
    rules: [
      { type: 'field', domain: ['geosite:cn', 'domain:example.org'], outboundTag: 'direct' },
      { type: 'field', ip: ['geoip:private', 'ext:more.dat:cn'], outboundTag: 'direct' },
      { type: 'field', domain: ['geosite:google'], ip: ['8.8.8.8'], outboundTag: 'never', ruleTag: 'x' },
      { type: 'field', ip: ['10.0.0.0/8', '10.1.0.0/16'], outboundTag: 'unreached' },
    ],
  },
};

describe.skipIf(!hasGeoCorpora)('branchgate geo route', () => {
  let dir: string;
  const p = (name: string) => join(dir, name);
  const base = () => [
    'route',
    '--rules',
    p('rules.json'),
    '--site',
    p('geosite.dat'),
    '--ip',
    p('geoip.dat'),
  ];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bg-geo-route-cli-'));
    copyFileSync(resolve(geoCorpora, 'upstream/dlc.dat'), p('geosite.dat'));
    const text = resolve(geoCorpora, 'cidr/v2fly-geoip/text');
    expect(cli(['build-ip', join(text, 'private.txt'), '-o', p('geoip.dat')]).status).toBe(0);
    expect(cli(['build-ip', join(text, 'cn.txt'), '-o', p('more.dat')]).status).toBe(0);
    writeFileSync(p('rules.json'), JSON.stringify(RULES));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('prints the outbound and rule per query, or that no rule matched; warnings go to stderr', () => {
    const run = cli([
      ...base(),
      'www.baidu.com',
      'WWW.BAIDU.COM',
      'a.example.org',
      '10.2.0.1',
      '1.0.1.1',
      'google.com',
    ]);
    expect(run.stderr).toBe(
      `warning: ${p('rules.json')}: routing.rules[2]: "ruleTag" is not a v2ray 4.34 rule field; ignored, as v2ray ignores it\n` +
        `warning: ${p('rules.json')}: routing.rules[2]: has both domain and ip conditions, so it never matches under AsIs\n`,
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        'www.baidu.com\tdirect\trule 0',
        // v2ray compares names byte for byte: capitals match no list value.
        'WWW.BAIDU.COM\t-\tno rule matched: v2ray uses its first outbound',
        'a.example.org\tdirect\trule 0',
        '10.2.0.1\tdirect\trule 1',
        '1.0.1.1\tdirect\trule 1',
        'google.com\t-\tno rule matched: v2ray uses its first outbound',
        '',
      ].join('\n'),
    );
  });

  test('reads queries from stdin, one a line, and prints JSON with --json', () => {
    const run = cli([...base(), '--json'], 'baidu.com\r\n\n  ::1 \nexample.net\n');
    expect(run.status).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { query: 'baidu.com', kind: 'domain', outboundTag: 'direct', rule: 0 },
      { query: '::1', kind: 'ip', outboundTag: 'direct', rule: 1 },
      { query: 'example.net', kind: 'domain', outboundTag: null, rule: null },
    ]);
  });

  test('with a whole config, names its first outbound and warns of tags that name no outbound', () => {
    const config = {
      outbounds: [
        { tag: 'proxy', protocol: 'freedom' },
        { tag: 'direct', protocol: 'freedom' },
      ],
      routing: { rules: [{ type: 'field', domain: ['geosite:cn'], outboundTag: 'drect' }] },
    };
    writeFileSync(p('config.json'), JSON.stringify(config));
    const run = cli([
      'route',
      '--rules',
      p('config.json'),
      '--site',
      p('geosite.dat'),
      'baidu.com',
      'example.org',
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      'baidu.com\tdrect\trule 0\nexample.org\t-\tno rule matched: v2ray uses its first outbound ("proxy")\n',
    );
    expect(run.stderr).toBe(
      `warning: ${p('config.json')}: routing.rules[0]: outboundTag "drect" names no outbound: v2ray sends what it matches to its first outbound ("proxy")\n`,
    );
  });

  test('refuses rules it cannot evaluate, naming the file, the rule and the entry', () => {
    const refuse = (rules: unknown, message: string | RegExp) => {
      writeFileSync(p('bad.json'), typeof rules === 'string' ? rules : JSON.stringify(rules));
      const run = cli([
        'route',
        '--rules',
        p('bad.json'),
        '--site',
        p('geosite.dat'),
        '--ip',
        p('geoip.dat'),
        'a.com',
      ]);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    };
    refuse('{"rules": [\n  {"type": "field",}\n]}', `${p('bad.json')}:2:20: not valid JSON`);
    refuse(
      { rules: [{ type: 'field', ip: ['10.0.0.0/33'], outboundTag: 'x' }] },
      'rules[0].ip[0]: network mask /33 is too long',
    );
    refuse({ rules: [{ type: 'field', port: 443, outboundTag: 'x' }] }, 'rules[0].port: not supported');
    refuse(
      { rules: [{ type: 'field', domain: ['geosite:no-such'], outboundTag: 'x' }] },
      /rules\[0\]\.domain "geosite:no-such": no list "no-such"/,
    );
    refuse(
      { rules: [{ type: 'field', domain: ['geosite:cn@no-such-attr'], outboundTag: 'x' }] },
      'no condition is left',
    );
    refuse(
      { rules: [{ type: 'field', domain: ['regexp:a('], outboundTag: 'x' }] },
      /rules\[0\]\.domain "regexp:a\(": invalid regexp/,
    );
    refuse({ rules: [{ type: 'field', domain: ['x'], balancerTag: 'b' }] }, 'balancers are not supported');
    refuse(
      { routing: { domainStrategy: 'IPIfNonMatch', rules: [] } },
      'IPIfNonMatch makes v2ray resolve names',
    );
    refuse({ rules: [{ type: 'chinaip', outboundTag: 'x' }] }, 'v2ray knows only "field"');
  });
});
