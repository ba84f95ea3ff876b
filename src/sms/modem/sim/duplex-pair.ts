// Two cross-connected in-memory duplex streams: what one side writes, the other reads. Destroying
// either end closes both, like a USB modem pulled out.
import { Duplex } from 'node:stream';

/** Creates a connected pair: [modemSide, hostSide]. */
export function createDuplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (peerIndex: number): Duplex =>
    new Duplex({
      read() {
        // data is pushed by the other end, never pulled
      },
      write(chunk: Buffer, _encoding, callback) {
        const peer = ends[peerIndex];
        if (peer !== undefined && !peer.destroyed) peer.push(chunk);
        callback();
      },
      final(callback) {
        ends[peerIndex]?.push(null);
        callback();
      },
      destroy(error, callback) {
        const peer = ends[peerIndex];
        if (peer !== undefined && !peer.destroyed) peer.destroy();
        callback(error);
      },
    });
  ends.push(make(1), make(0));
  const [a, b] = ends;
  if (a === undefined || b === undefined) throw new Error('unreachable');
  return [a, b];
}
