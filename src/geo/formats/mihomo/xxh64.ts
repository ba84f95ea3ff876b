// XXH64 (seed 0), the hash whose low 32 bits a zstd frame's content checksum holds (RFC 8878
// section 3.1.1). BigInt arithmetic: .mrs payloads are small, so clarity wins over speed here.

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const M64 = 0xffffffffffffffffn;

function rotl(v: bigint, r: bigint): bigint {
  return ((v << r) | (v >> (64n - r))) & M64;
}

function round(acc: bigint, lane: bigint): bigint {
  return (rotl((acc + lane * P2) & M64, 31n) * P1) & M64;
}

function mergeRound(acc: bigint, v: bigint): bigint {
  return (((acc ^ round(0n, v)) * P1 + P4) & M64) as bigint;
}

/** XXH64 of bytes with seed 0, as an unsigned 64-bit bigint. */
export function xxh64(bytes: Uint8Array): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  let p = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (P1 + P2) & M64;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (0n - P1) & M64;
    for (; p + 32 <= n; p += 32) {
      v1 = round(v1, view.getBigUint64(p, true));
      v2 = round(v2, view.getBigUint64(p + 8, true));
      v3 = round(v3, view.getBigUint64(p + 16, true));
      v4 = round(v4, view.getBigUint64(p + 24, true));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M64;
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & M64;
  for (; p + 8 <= n; p += 8) {
    h ^= round(0n, view.getBigUint64(p, true));
    h = (rotl(h, 27n) * P1 + P4) & M64;
  }
  if (p + 4 <= n) {
    h ^= (BigInt(view.getUint32(p, true)) * P1) & M64;
    h = (rotl(h, 23n) * P2 + P3) & M64;
    p += 4;
  }
  for (; p < n; p++) {
    h ^= (BigInt(bytes[p] as number) * P5) & M64;
    h = (rotl(h, 11n) * P1) & M64;
  }
  h ^= h >> 33n;
  h = (h * P2) & M64;
  h ^= h >> 29n;
  h = (h * P3) & M64;
  h ^= h >> 32n;
  return h;
}
