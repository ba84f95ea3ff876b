// PDUs as real networks and phones send them, decoded as gammu decodes them rather than refused:
// octets after the user data, a TP-UDL announcing more than follows, and alphanumeric senders
// whose length counts fill bits ("O2" arriving as "O2@" or "O2_" from a strict reading). Each is
// checked against Debian's python3-gammu through ../shared/tools/pdu-oracle.py.
import { describe, expect, it } from 'vitest';
import { decodePdu } from '../../../src/sms/pdu/index.js';
import { decodedPduJson } from '../../../src/sms/pdu/pdu-json.js';
import { runOracle } from './pdu-oracle.js';

// dreamfabric.com's "How are you?" SMS-DELIVER (also in decode-pdu.test.ts). Byte 26 is TP-UDL.
const GOOD = '07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07';
const at = (offset: number, replacement: string) =>
  GOOD.slice(0, 2 * offset) + replacement + GOOD.slice(2 * offset + replacement.length);

/** An SMS-DELIVER without SMSC from an alphanumeric sender: its length (semi-octets) and octets. */
const fromAlpha = (length: string, octets: string) => `0004${length}D0${octets}0000${'62112241000000'}02C834`;

describe('lenient decoding, as gammu decodes', () => {
  it('octets after the user data are ignored with a warning, as gammu ignores them', () => {
    const pdus = [`${GOOD}00`, `${GOOD}DEADBEEF`];
    const oracle = runOracle(pdus);
    for (const [i, pdu] of pdus.entries()) {
      const d = decodePdu(pdu);
      expect(oracle[i]?.error).toBeUndefined();
      expect(d.text).toBe(oracle[i]?.text);
      expect(d.text).toBe('How are you?');
      expect(d.warnings).toEqual([
        `TP-UD at byte 38: ${(pdu.length - GOOD.length) / 2} octets after the user data ignored`,
      ]);
    }
    expect(decodePdu(GOOD).warnings).toEqual([]);
  });

  it('alphanumeric senders read every septet their octets hold, less fill: "O2" whatever the length says', () => {
    const cases: Array<[string, string, string]> = [
      // [length in semi-octets, octets, what gammu shows]
      ['04', '4F19', 'O2'], // by the book: 2 septets in 14 bits
      ['03', '4F19', 'O2'], // a length that counts only 12 bits
      ['06', '4F1900', 'O2'], // a length that counts the fill octet (strictly: "O2@")
      ['05', '4F1900', 'O2'],
      ['07', '4F191100', 'O2D'], // three characters and a fill septet
    ];
    const pdus = cases.map(([length, octets]) => fromAlpha(length, octets));
    const oracle = runOracle(pdus);
    for (const [i, [length, , expected]] of cases.entries()) {
      expect(oracle[i]?.number, `gammu, length ${length}`).toBe(expected);
      const d = decodePdu(pdus[i] as string);
      if (d.kind !== 'deliver') throw new Error('not a deliver');
      expect(d.sender, `length ${length}`).toEqual({ number: expected, type: 'alphanumeric' });
      expect(d.text).toBe('Hi');
    }
    expect(decodePdu(pdus[0] as string).warnings).toEqual([]);
    expect(decodePdu(pdus[2] as string).warnings).toEqual([
      'TP-OA at byte 2: alphanumeric length 6 semi-octets means 3 characters; decoded the 2 its octets hold',
    ]);
  });

  it('a TP-UDL announcing more than follows decodes what is there, with a warning (gammu 1.42 refuses these)', () => {
    const pdus = [
      at(26, '0D'), // 13 septets announced, 12 present
      '0041010C910661345542F6000814050003000301306F3044', // UCS-2 submit: 20 octets announced, 10 present
    ];
    const oracle = runOracle(pdus);
    // The independent decoder calls both corrupted; we keep the message and say what was odd.
    expect(oracle.map((o) => o.error)).toEqual([
      'Corrupted data returned by phone.',
      'Corrupted data returned by phone.',
    ]);
    const gsm = decodePdu(pdus[0] as string);
    expect(gsm.text).toBe('How are you?');
    expect(gsm.warnings).toEqual([
      'TP-UDL at byte 26: 13 septets (12 octets) announced, 11 octets present; decoded what is there',
    ]);
    const ucs2 = decodePdu(pdus[1] as string);
    expect(ucs2.text).toBe('はい');
    expect(ucs2.concat).toEqual({ reference: 0, total: 3, sequence: 1, referenceBits: 8 });
    expect(ucs2.warnings).toHaveLength(1);
    // The JSON form (decode-pdu, logs) carries them.
    expect(decodedPduJson(ucs2).warnings).toEqual(ucs2.warnings);
  });
});
