// Reads a MaxMind-format country database (GeoLite2-Country, DB-IP Country Lite, ...) into one
// CidrSet per ISO code (country, else registered, else represented country). The search tree is
// walked here; data records are decoded by mmdb-lib. IPv4 comes from the ::/96 subtree of an IPv6
// database; its aliases (::ffff:0:0/96, 2002::/16) are skipped so no network is counted twice.
import { createRequire } from 'node:module';
import type { CountryResponse, Reader } from 'mmdb-lib';
import { GeoError } from '../errors.js';
import { CidrSet } from './cidr-set.js';
import { formatIPv4, formatIPv6 } from './ip-address.js';

/** Reads every network of a country mmdb; codes are upper case. */
/**
 * mmdb-lib, loaded on first use (a CommonJS package): only `geo build-ip --mmdb` needs it, and a
 * program that imports the geo area to match would otherwise carry it in memory.
 */
function loadMmdbLib(): typeof import('mmdb-lib') {
  return createRequire(import.meta.url)('mmdb-lib') as typeof import('mmdb-lib');
}

export function readMmdbCountries(db: Buffer, file: string): Map<string, CidrSet> {
  let reader: Reader<CountryResponse>;
  try {
    reader = new (loadMmdbLib().Reader)<CountryResponse>(db);
  } catch (err) {
    throw new GeoError('mmdb_invalid', `${file}: not a MaxMind DB file: ${(err as Error).message}`);
  }
  const { nodeCount, recordSize, ipVersion, searchTreeSize } = reader.metadata;
  if (![24, 28, 32].includes(recordSize)) {
    throw new GeoError('mmdb_invalid', `${file}: unsupported record size ${recordSize}`);
  }
  if (searchTreeSize > db.length)
    throw new GeoError('mmdb_invalid', `${file}: search tree runs past the end of the file`);
  const nodeBytes = recordSize / 4;
  const record = (node: number, right: 0 | 1): number => {
    const at = node * nodeBytes;
    if (recordSize === 24) {
      const o = at + right * 3;
      return ((db[o] as number) << 16) | ((db[o + 1] as number) << 8) | (db[o + 2] as number);
    }
    if (recordSize === 32) return db.readUInt32BE(at + right * 4);
    const middle = db[at + 3] as number;
    if (right === 0) return ((middle & 0xf0) << 20) | (db.readUInt32BE(at) >>> 8);
    return ((middle & 0x0f) << 24) | (db.readUInt32BE(at + 3) & 0xffffff);
  };

  const out = new Map<string, CidrSet>();
  const codeByPointer = new Map<number, string | null>();
  const codeFor = (pointer: number, sampleIp: string): string | null => {
    let code = codeByPointer.get(pointer);
    if (code === undefined) {
      let data: CountryResponse | null;
      try {
        data = reader.get(sampleIp);
      } catch (err) {
        // mmdb-lib throws what it meets (RangeError, TypeError, ...) on a corrupt data section.
        const at = searchTreeSize + pointer - nodeCount;
        throw new GeoError(
          'mmdb_invalid',
          `${file}: corrupt data record at byte ${at}: ${(err as Error).message}`,
        );
      }
      // As v2fly/geoip: the country, else the registered country, else the represented one.
      const iso = [
        data?.country?.iso_code,
        data?.registered_country?.iso_code,
        data?.represented_country?.iso_code,
      ]
        .map((c) => (c ?? '').trim())
        .find((c) => c !== '');
      code = iso ? iso.toUpperCase() : null;
      codeByPointer.set(pointer, code);
    }
    return code;
  };
  const setFor = (code: string): CidrSet => {
    let set = out.get(code);
    if (!set) {
      set = new CidrSet();
      out.set(code, set);
    }
    return set;
  };

  // Iterative depth-first walk: (node, depth, path bits as bigint).
  const bits = ipVersion === 6 ? 128 : 32;
  let ipv4Root = -1;
  if (ipVersion === 6) {
    let node = 0;
    for (let d = 0; d < 96 && node < nodeCount; d++) node = record(node, 0);
    ipv4Root = node;
  }
  const stack: { node: number; depth: number; path: bigint }[] = [{ node: 0, depth: 0, path: 0n }];
  let steps = 0;
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop() as { node: number; depth: number; path: bigint };
    if (++steps > nodeCount * 2 + 2) throw new GeoError('mmdb_invalid', `${file}: search tree has a loop`);
    for (const side of [1, 0] as const) {
      const value = record(node, side);
      const childDepth = depth + 1;
      const childPath = path | (BigInt(side) << BigInt(bits - childDepth));
      if (value === nodeCount) continue;
      if (value < nodeCount) {
        if (childDepth >= bits)
          throw new GeoError('mmdb_invalid', `${file}: search tree deeper than ${bits} bits`);
        // In an IPv6 tree the IPv4 subtree is reached at ::/96; other paths to it are aliases.
        if (value === ipv4Root && !(childDepth === 96 && childPath === 0n)) continue;
        stack.push({ node: value, depth: childDepth, path: childPath });
        continue;
      }
      const v4 = ipVersion === 4 || (childDepth >= 96 && childPath >> 32n === 0n);
      let sample: string;
      if (v4) sample = formatIPv4(Number(childPath & 0xffffffffn));
      else sample = formatIPv6(childPath);
      const code = codeFor(value, sample);
      if (code === null) continue;
      if (v4) {
        const prefix = ipVersion === 4 ? childDepth : childDepth - 96;
        setFor(code).addV4(Number(childPath & 0xffffffffn), prefix);
      } else setFor(code).addV6(childPath, childDepth);
    }
  }
  return out;
}
