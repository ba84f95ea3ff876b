// The GSM 7-bit default alphabet and its extension table (3GPP TS 23.038 6.2.1 / 6.2.1.1), as
// decode tables (septet -> char) and one encode table (UTF-16 unit -> septet or ESC + septet).

/** Septet of the escape to the extension table. */
export const ESC = 0x1b;

/** Basic table: index = septet. 0x1B (ESC) maps to a space when it has to be shown on its own. */
export const GSM7_BASIC: readonly string[] = Array.from(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u00a0ÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
    '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
).map((ch, septet) => (septet === ESC ? ' ' : ch));

/** Extension table: septet after ESC -> char (23.038 6.2.1.1). */
export const GSM7_EXTENSION: ReadonlyMap<number, string> = new Map([
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
]);

/** Flag set in GSM7_ENCODE for characters of the extension table (written as ESC + low 7 bits). */
export const EXTENDED = 0x100;

/** UTF-16 code unit -> septet, septet | EXTENDED, or -1 when the character is not in GSM-7. */
export const GSM7_ENCODE: Int16Array = (() => {
  const table = new Int16Array(0x10000).fill(-1);
  GSM7_BASIC.forEach((ch, septet) => {
    if (septet !== ESC) table[ch.charCodeAt(0)] = septet;
  });
  for (const [septet, ch] of GSM7_EXTENSION) table[ch.charCodeAt(0)] = septet | EXTENDED;
  return table;
})();
