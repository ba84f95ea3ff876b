// Cuts an address range [from, to] (the form sing-box's binary IP set stores) into the largest
// aligned networks, as netipx's IPRange.Prefixes does, adding them to a CidrSet.

import type { CidrSet } from '../../ip/cidr-set.js';
import { bigintToBytes, bytesToBigint } from '../../ip/ip-address.js';

/** Adds the networks covering exactly [from, to] (both 4 or both 16 bytes, from <= to). */
export function addRangeCidrs(from: Uint8Array, to: Uint8Array, into: CidrSet): void {
  const bits = from.length * 8;
  let start = bytesToBigint(from);
  const end = bytesToBigint(to);
  while (start <= end) {
    // The largest block aligned at start that stays within the range.
    let size = 0;
    while (
      size < bits &&
      ((start >> BigInt(size)) & 1n) === 0n &&
      start + (1n << BigInt(size + 1)) - 1n <= end
    ) {
      size++;
    }
    into.addCidr({ ip: bigintToBytes(start, from.length), prefix: bits - size });
    start += 1n << BigInt(size);
  }
}
