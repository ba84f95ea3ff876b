// The package as a user gets it: `npm pack`, then npm's own global install into an empty prefix
// (dependencies from the registry, nothing from this checkout), then the installed `branchgate`
// command, `serve` on the embedded defaults to a healthy /healthz, a plain .mjs importing
// branchgate/client and branchgate/geo with no loader, and a TypeScript file type-checked against
// the packed .d.ts of every public entry point.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { VERSION } from '../../src/shared/version.js';
import { send } from '../support/https-client.js';
import { REPO_ROOT } from '../support/serve-process.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'bg-pack-'));
const prefix = join(work, 'prefix');
const lib = join(prefix, 'lib');
const bin = join(prefix, 'bin', 'branchgate');
// npm and the environment it runs in, minus anything pointing back at this checkout.
const npmEnv = { ...process.env, npm_config_prefix: prefix, NODE_OPTIONS: '' };
const npm = (args: string[], cwd = work) =>
  run(
    process.env.npm_execpath ? process.execPath : 'npm',
    [...(process.env.npm_execpath ? [process.env.npm_execpath] : []), ...args],
    {
      cwd,
      env: npmEnv,
      maxBuffer: 64 * 1024 * 1024,
    },
  );

beforeAll(async () => {
  await run(process.execPath, [join(REPO_ROOT, 'scripts/build.js')], { cwd: REPO_ROOT });
  await npm(['pack', REPO_ROOT, '--pack-destination', work, '--ignore-scripts']);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  await npm([
    'install',
    '--global',
    '--prefix',
    prefix,
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    join(work, tarball),
  ]);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the installed command prints the version', async () => {
  const { stdout } = await run(bin, ['--version']);
  expect(stdout.trim()).toBe(VERSION);
});

test('the installed package ships no sources, tests or TypeScript loader', () => {
  const pkg = join(lib, 'node_modules', 'branchgate');
  expect(readdirSync(pkg).sort()).toEqual([
    'LICENSE',
    'README.md',
    'bin',
    'dist',
    'node_modules',
    'package.json',
  ]);
  expect(readdirSync(join(pkg, 'node_modules'))).not.toContain('tsx');
  expect(readdirSync(join(pkg, 'dist', 'web', 'assets'))).toContain('console.css');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('serve starts on the embedded defaults in the current directory and answers /healthz', async () => {
  const cwd = join(work, 'site');
  mkdirSync(cwd);
  const port = await freePort();
  const proc = spawn(bin, ['serve', '--listen', `127.0.0.1:${port}`], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  try {
    for (let i = 0; i < 300 && !out.includes('listening on'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain(`listening on https://127.0.0.1:${port}`);
    expect(out).toContain(`data in ${join(cwd, 'data')}`);
    const health = await send(`https://127.0.0.1:${port}/healthz`);
    expect([health.status, health.json()]).toEqual([200, { status: 'ok' }]);
    expect(readdirSync(join(cwd, 'data')).sort()).toEqual(
      expect.arrayContaining(['branchgate.db', 'tls-cert.pem']),
    );
  } finally {
    proc.kill('SIGTERM');
  }
});

test('a plain .mjs imports branchgate/client and branchgate/geo with no loader', async () => {
  writeFileSync(
    join(lib, 'use.mjs'),
    `import { ClientError } from 'branchgate/client';
import { parseCidr, formatCidr } from 'branchgate/geo';
import { VERSION } from 'branchgate';
const err = new ClientError('timeout', 'no answer', { request: 'GET /x' });
const parsed = parseCidr('10.1.2.3/16');
console.log(JSON.stringify({ code: err.code, cidr: formatCidr(new Uint8Array([10, 1, 0, 0]), parsed.prefix), start: parsed.start, version: VERSION }));
`,
  );
  const { stdout } = await run(process.execPath, [join(lib, 'use.mjs')], { cwd: lib });
  expect(JSON.parse(stdout)).toEqual({
    code: 'timeout',
    cidr: '10.1.0.0/16',
    start: 0x0a010000,
    version: VERSION,
  });
});

test('a TypeScript consumer type-checks against the packed declarations', async () => {
  writeFileSync(
    join(lib, 'use.ts'),
    `import { CdrPullClient, type CdrWireRecord } from 'branchgate/client';
import { IpMatcher, parseCidr, type ParsedCidr } from 'branchgate/geo';
import { buildApp, startServer, type ServeConfig, VERSION } from 'branchgate';
const cidr: ParsedCidr | undefined = parseCidr('10.0.0.0/8');
const v: string = VERSION;
type Start = typeof startServer;
type Build = typeof buildApp;
export type Uses = [CdrWireRecord, ServeConfig, Start, Build, typeof CdrPullClient, typeof IpMatcher, typeof cidr, typeof v];
// @ts-expect-error: a record's db_id is a number
export const wrong: CdrWireRecord['db_id'] = 'one';
`,
  );
  writeFileSync(
    join(lib, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(REPO_ROOT, 'node_modules/@types')],
      },
      files: ['use.ts'],
    }),
  );
  const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', join(lib, 'tsconfig.json')], { cwd: lib }).catch(
    (e: { stdout: string; code: number }) => e,
  );
  expect((result as { stdout: string }).stdout).toBe('');
}, 120_000);
