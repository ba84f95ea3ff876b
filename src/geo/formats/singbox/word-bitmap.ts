// Bit addressing of the bitmaps in sing-box's succinct set: uint64 words written big-endian, bit i
// being bit (i mod 64) of word i/64, so it sits in byte 8*(i/64) + 7 - (i mod 64)/8 under mask
// 1 << (i mod 8). The encoder and decoder work on the file bytes directly.

/** The index of the byte that holds bit i (its mask is `1 << (i & 7)`). */
export function bitByte(i: number): number {
  return (i >>> 6) * 8 + 7 - ((i & 63) >>> 3);
}
