// serve's config file: a real `serve --config FILE` takes its settings; flag > environment > file >
// default, as `config print` shows with each value's source; a bad key or type is refused naming
// the key and the file, before anything starts.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { send } from '../support/https-client.js';
import { BIN, spawnServe } from '../support/serve-process.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'bg-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('serve --config listens where the file says, in the data directory it names', async () => {
  const port = await freePort();
  const file = join(dir, 'serve.yaml');
  writeFileSync(file, `listen: 127.0.0.1:${port}\ndata-dir: ${join(dir, 'data')}\nlog-level: warn\n`);
  const server = await spawnServe(['--config', file], {
    env: { BRANCHGATE_ADMIN_PASSWORD: 'config test admin' },
  });
  try {
    expect(server.url).toBe(`https://127.0.0.1:${port}`);
    expect(server.output()).toContain(`data in ${join(dir, 'data')}`);
    expect((await send(`${server.url}/healthz`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});

test('a flag beats the environment, which beats the file, which beats the default', async () => {
  const file = join(dir, 'precedence.yaml');
  writeFileSync(
    file,
    'listen: 127.0.0.1:7001\ntime-zone: Europe/Berlin\nmodem: sim-pty\nlog-level: debug\ningest-ami:\n  - ami://u:s3cret@pbx:5038\n',
  );
  const { stdout } = await run(process.execPath, [BIN, 'config', 'print', '--config', file], {
    env: { ...process.env, BRANCHGATE_TIME_ZONE: 'Asia/Tokyo', BRANCHGATE_LOG_LEVEL: 'error' },
  });
  const line = (key: string) => stdout.split('\n').find((l) => l.startsWith(`${key}:`));
  expect(line('listen')).toBe('listen: "127.0.0.1:7001"  # config');
  expect(line('time-zone')).toBe('time-zone: "Asia/Tokyo"  # env');
  expect(line('log-level')).toBe('log-level: "error"  # env');
  expect(line('modem')).toBe('modem: "sim-pty"  # config');
  expect(line('http-listen')).toBe('http-listen: (default)  # default');
  expect(line('ingest-ami')).toBe('ingest-ami: ["ami://u:***@pbx:5038"]  # config');
  expect(stdout).not.toContain('s3cret');
  // And a flag beats the file in a real serve.
  const plain = join(dir, 'plain.yaml');
  writeFileSync(plain, 'listen: 127.0.0.1:7001\nmodem: sim-pty\n');
  const server = await spawnServe(['--config', plain, '--listen', '127.0.0.1:0', '--modem', 'sim'], {
    env: { BRANCHGATE_ADMIN_PASSWORD: 'config test admin', BRANCHGATE_DATA_DIR: join(dir, 'data2') },
  });
  try {
    expect(server.url).not.toBe('https://127.0.0.1:7001');
  } finally {
    await server.stop();
  }
});

test('a bad key or value is refused with its name and the file, and nothing starts', () => {
  const bad = join(dir, 'bad.yaml');
  for (const [text, message] of [
    ['listen: 127.0.0.1:7002\nlisten-port: 7002\n', `${bad}: unknown key "listen-port"`],
    ['time-zone:\n  - UTC\n  - Europe/Berlin\n', `${bad}: key "time-zone": takes one value, not a list`],
    ['ingest-csv:\n  path: /var/log\n', `${bad}: key "ingest-csv": expected a text or a list of texts`],
    ['listen: [unclosed\n', `${bad}: not YAML`],
  ] as const) {
    writeFileSync(bad, text);
    const r = spawnSync(process.execPath, [BIN, 'serve', '--config', bad, '--data-dir', join(dir, 'never')], {
      encoding: 'utf8',
    });
    expect(r.status, text).toBe(1);
    expect(r.stderr).toContain(message);
    const check = spawnSync(process.execPath, [BIN, 'config', 'check', bad], { encoding: 'utf8' });
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(message);
  }
  expect(spawnSync('ls', [join(dir, 'never')]).status).not.toBe(0);
});
