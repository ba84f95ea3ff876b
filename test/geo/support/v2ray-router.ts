// A real v2ray on loopback for routing tests: one TCP server per outbound tag (it writes the tag and
// a newline), v2ray with a SOCKS inbound and one freedom outbound per tag redirected to that
// server, the first outbound standing for "no rule matched".
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** The binary, if installed. */
export const V2RAY_BIN = ['/usr/bin/v2ray', '/usr/local/bin/v2ray'].find((p) => existsSync(p));

/** A running v2ray with its tag servers. */
export interface V2rayRouter {
  readonly socksPort: number;
  /** v2ray's output so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Starts a server per tag and v2ray routing by `routing` (a v2ray "routing" object) with assets
 * from assetDir. `defaultTag` is the first outbound (what v2ray uses when no rule matches).
 */
export async function startV2rayRouter(
  bin: string,
  dir: string,
  assetDir: string,
  routing: object,
  tags: readonly string[],
  defaultTag: string,
): Promise<V2rayRouter> {
  const servers: Server[] = [];
  const outbounds: object[] = [];
  for (const tag of [defaultTag, ...tags.filter((t) => t !== defaultTag)]) {
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.end(`${tag}\n`);
    });
    servers.push(server);
    const port = await listen(server);
    outbounds.push({ tag, protocol: 'freedom', settings: { redirect: `127.0.0.1:${port}` } });
  }
  const socksPort = await freePort();
  const config = {
    log: { loglevel: 'none', access: 'none' },
    inbounds: [
      { listen: '127.0.0.1', port: socksPort, protocol: 'socks', settings: { auth: 'noauth', udp: false } },
    ],
    outbounds,
    routing,
  };
  const file = join(dir, 'v2ray-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  let output = '';
  const child: ChildProcess = spawn(bin, ['-config', file], {
    env: { ...process.env, V2RAY_LOCATION_ASSET: assetDir, 'v2ray.location.asset': assetDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  };
  for (let waited = 0; !(await canConnect(socksPort)); waited += 100) {
    if (exited || waited > 20_000) {
      await stop();
      throw new Error(`v2ray did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { socksPort, output: () => output, stop };
}
