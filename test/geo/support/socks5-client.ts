// A SOCKS5 client for one CONNECT (RFC 1928, no authentication), enough to ask a router which
// outbound a connection takes: the outbound's server writes its tag and a newline, which is read back.
import { connect } from 'node:net';

/** Where to connect: a domain name (ATYP 3), or an address's bytes (ATYP 1: 4 bytes, ATYP 4: 16). */
export type SocksTarget = { readonly domain: string } | { readonly address: Uint8Array };

function request(target: SocksTarget, port: number): Buffer {
  let addr: Buffer;
  if ('domain' in target) {
    const name = Buffer.from(target.domain, 'latin1');
    if (name.length === 0 || name.length > 255) throw new Error(`domain of ${name.length} bytes`);
    addr = Buffer.concat([Buffer.from([3, name.length]), name]);
  } else addr = Buffer.concat([Buffer.from([target.address.length === 4 ? 1 : 4]), target.address]);
  return Buffer.concat([Buffer.from([5, 1, 0]), addr, Buffer.from([port >> 8, port & 255])]);
}

/** Length of the CONNECT reply at the start of data, or 0 while it is incomplete. */
function replyLength(data: Buffer): number {
  if (data.length < 5) return 0;
  const atyp = data[3];
  const len = atyp === 1 ? 10 : atyp === 4 ? 22 : atyp === 3 ? 7 + (data[4] as number) : -1;
  if (len < 0) throw new Error(`bad reply address type ${atyp}`);
  return data.length >= len ? len : 0;
}

/**
 * Opens a CONNECT through the SOCKS5 server at 127.0.0.1:socksPort and resolves with the line the
 * far end writes (the outbound's tag), or rejects on refusal, early close or timeout.
 */
export function socksTag(socksPort: number, target: SocksTarget, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: socksPort });
    let state: 'greeting' | 'reply' | 'data' = 'greeting';
    let buf = Buffer.alloc(0);
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(why));
    };
    socket.setTimeout(timeoutMs, () => fail('timed out'));
    socket.on('error', (err) => fail(err.message));
    socket.on('close', () => fail(`closed in state ${state} after ${buf.length} bytes`));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (state === 'greeting') {
        if (buf.length < 2) return;
        if (buf[0] !== 5 || buf[1] !== 0)
          return fail(`greeting refused: ${buf.subarray(0, 2).toString('hex')}`);
        buf = buf.subarray(2);
        state = 'reply';
        socket.write(request(target, 80));
      }
      if (state === 'reply') {
        if (buf.length >= 2 && buf[1] !== 0) return fail(`CONNECT refused with code ${buf[1]}`);
        const n = replyLength(buf);
        if (n === 0) return;
        buf = buf.subarray(n);
        state = 'data';
      }
      const nl = buf.indexOf(10);
      if (nl === -1) return;
      socket.removeAllListeners('close');
      socket.destroy();
      resolve(buf.subarray(0, nl).toString('utf8'));
    });
  });
}
