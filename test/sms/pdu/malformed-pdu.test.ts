// Malformed PDUs and impossible encoding requests: each is rejected with the exact PduError code,
// the TPDU field it names and the byte offset, never a wrong message or a generic exception.

import { describe, expect, it } from 'vitest';
import {
  decodePdu,
  encodeDeliver,
  encodeStatusReport,
  encodeSubmit,
  PduError,
  reassembleText,
  splitText,
} from '../../../src/sms/pdu/index.js';

function caught(fn: () => unknown): PduError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PduError) return error;
    throw error;
  }
  throw new Error('expected a PduError, nothing was thrown');
}

// A valid SMS-DELIVER to start from (dreamfabric.com "How are you?", as in decode-pdu.test.ts).
const GOOD = '07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07';
// Byte offsets in GOOD: 0 SMSC len, 1 SMSC type, 2-7 SMSC digits, 8 first octet, 9 TP-OA len,
// 10 TP-OA type, 11-16 digits, 17 TP-PID, 18 TP-DCS, 19-25 TP-SCTS, 26 TP-UDL, 27.. TP-UD.
const at = (offset: number, replacement: string) =>
  GOOD.slice(0, 2 * offset) + replacement + GOOD.slice(2 * offset + replacement.length);

describe('decodePdu rejects malformed PDUs', () => {
  it.each([
    ['a non-hex character', `${GOOD.slice(0, 20)}G${GOOD.slice(21)}`, 'bad_hex', 'PDU', 10],
    ['an odd number of digits', GOOD.slice(0, -1), 'bad_hex', 'PDU', 37],
    ['an empty string', '', 'truncated', 'SMSC length', 0],
    ['a PDU cut inside the sender', GOOD.slice(0, 2 * 14), 'truncated', 'TP-OA', 11],
    ['a PDU cut inside TP-SCTS', GOOD.slice(0, 2 * 22), 'truncated', 'TP-SCTS', 19],
    ['a PDU cut before TP-UDL', GOOD.slice(0, 2 * 26), 'truncated', 'TP-UDL', 26],
    ['TP-UDL above 160 septets', at(26, 'A1'), 'udl_overflow', 'TP-UDL', 26],
    ['reserved message type 3', at(8, '07'), 'bad_mti', 'TP-MTI', 8],
    ['a filler semi-octet inside the sender', at(12, 'F4'), 'bad_semi_octet', 'TP-OA', 12],
    ['a non-decimal digit in TP-SCTS', at(21, 'A2'), 'bad_semi_octet', 'TP-SCTS', 21],
    ['month 13 in TP-SCTS', at(20, '31'), 'bad_timestamp', 'TP-SCTS', 20],
    [
      '30 February in TP-SCTS',
      `${at(20, '20').slice(0, 2 * 21)}03${at(20, '20').slice(2 * 22)}`,
      'bad_timestamp',
      'TP-SCTS',
      21,
    ],
    ['a sender longer than 20 digits', at(9, '16'), 'bad_address', 'TP-OA', 9],
    ['an SMSC longer than 11 octets', at(0, '0C'), 'bad_address', 'SMSC', 0],
    ['compressed text in TP-DCS', at(18, '20'), 'bad_dcs', 'TP-DCS', 18],
  ])('%s', (_name, pdu, code, field, offset) => {
    const error = caught(() => decodePdu(pdu));
    expect({ code: error.code, field: error.field, offset: error.offset }).toEqual({ code, field, offset });
    expect(error.message).toContain(field);
  });

  it('rejects a real UCS-2 SMS-SUBMIT whose TP-UDL (160) exceeds its data', () => {
    // python-gsmmodem test/test_pdu.py: "User data length is invalid in this PDU (too long)"; gammu
    // rejects it too ("Corrupted data").
    const error = caught(() => decodePdu('0041010C910661345542F60008A0050003000301306F3044'));
    expect([error.code, error.field, error.offset]).toEqual(['udl_overflow', 'TP-UDL', 13]);
    expect(error.message).toBe(
      'TP-UDL at byte 13: 160 octets announced, 10 octets present; at most 140 allowed',
    );
  });

  it('rejects the reserved message type in a real PDU', () => {
    // python-gsmmodem test/test_pdu.py: first octet 0x43, "PDU type: 0x03 (invalid)".
    const error = caught(() => decodePdu('0043010C910661345542F60008A0050003000301306F3044'));
    expect([error.code, error.field, error.offset]).toEqual(['bad_mti', 'TP-MTI', 1]);
  });

  // SMS-DELIVER with UDHI, no SMSC: offsets 0 SMSC len, 1 first octet, 2-9 TP-OA, 10 PID, 11 DCS,
  // 12-18 SCTS, 19 TP-UDL, 20 TP-UDHL.
  const head = '0044' + '0B915155214365F7' + '00';
  const scts = '62112250000040';
  it.each([
    ['a header longer than the user data', `${head}08${scts}0405000302`, 'bad_udh', 'TP-UDHL', 20],
    ['an element running past TP-UDHL', `${head}04${scts}0403000301`, 'bad_udh', 'TP-UDH', 21],
    [
      'a concatenation element of the wrong size',
      `${head}04${scts}050400020101`,
      'bad_udh',
      'TP-UD concatenation IE',
      21,
    ],
    [
      'a GSM-7 header that needs more septets than TP-UDL',
      `${head}00${scts}06050003010201`,
      'bad_udh',
      'TP-UDHL',
      20,
    ],
    ['UCS-2 text of an odd number of octets', `${head}08${scts}0705000301020141`, 'bad_length', 'TP-UD', 26],
    ['TP-UDHI with empty user data', `${head}04${scts}00`, 'bad_udh', 'TP-UDHL', 20],
  ])('rejects %s', (_name, pdu, code, field, offset) => {
    const error = caught(() => decodePdu(pdu));
    expect({ code: error.code, field: error.field, offset: error.offset }).toEqual({ code, field, offset });
  });

  it('ignores a concatenation element with sequence 0, as 23.040 9.2.3.24.1 says', () => {
    const pdu = decodePdu(`${head}04${scts}080500030102004142`);
    expect(pdu.concat).toBeUndefined();
    expect(pdu.udh).toHaveLength(1);
    expect(Array.from(pdu.data ?? [])).toEqual([0x41, 0x42]);
  });
});

describe('encoders reject impossible requests', () => {
  const when = new Date('2026-11-22T05:00:00Z');
  it.each([
    [
      'a destination that is not a number',
      () => encodeSubmit({ to: 'Bank', text: 'x' }),
      'bad_address',
      'TP-DA',
    ],
    [
      'a destination of 21 digits',
      () => encodeSubmit({ to: `+${'1'.repeat(21)}`, text: 'x' }),
      'bad_address',
      'TP-DA',
    ],
    [
      'an alphanumeric sender of 12 characters',
      () => encodeDeliver({ from: 'ABCDEFGHIJKL', text: 'x', serviceCentreTime: when }),
      'bad_address',
      'TP-OA',
    ],
    [
      'an alphanumeric sender outside GSM-7',
      () => encodeDeliver({ from: 'Банк', text: 'x', serviceCentreTime: when }),
      'bad_address',
      'TP-OA',
    ],
    ['an 8-bit reference of 256', () => splitText('x', { reference: 256 }), 'bad_option', 'reference'],
    [
      'a 16-bit reference of 65536',
      () => splitText('x', { reference: 65536, referenceBits: 16 }),
      'bad_option',
      'reference',
    ],
    [
      'a relative validity of 0 minutes',
      () => encodeSubmit({ to: '123', text: 'x', validityPeriod: { relativeMinutes: 0 } }),
      'bad_validity',
      'TP-VP',
    ],
    [
      'a relative validity beyond 63 weeks',
      () => encodeSubmit({ to: '123', text: 'x', validityPeriod: { relativeMinutes: 63 * 10080 + 1 } }),
      'bad_validity',
      'TP-VP',
    ],
    [
      'a time zone that is not whole quarters',
      () => encodeDeliver({ from: '123', text: 'x', serviceCentreTime: { date: when, tzOffsetMinutes: 50 } }),
      'bad_timestamp',
      'TP-SCTS',
    ],
    [
      'a year before 2000',
      () => encodeDeliver({ from: '123', text: 'x', serviceCentreTime: new Date('1999-12-31T23:59:59Z') }),
      'bad_timestamp',
      'TP-SCTS',
    ],
    [
      'an invalid Date',
      () =>
        encodeStatusReport({
          messageReference: 1,
          recipient: '123',
          serviceCentreTime: when,
          dischargeTime: new Date(Number.NaN),
          status: 0,
        }),
      'bad_timestamp',
      'TP-DT',
    ],
    [
      'a message reference of 256',
      () => encodeSubmit({ to: '123', text: 'x', messageReference: 256 }),
      'bad_option',
      'messageReference',
    ],
    ['a text needing 256 parts', () => splitText('x'.repeat(153 * 255 + 1)), 'text_too_long', 'text'],
    [
      'data needing 256 parts',
      () => encodeSubmit({ to: '123', data: new Uint8Array(134 * 255 + 1) }),
      'text_too_long',
      'data',
    ],
  ])('%s', (_name, fn, code, field) => {
    const error = caught(fn);
    expect({ code: error.code, field: error.field, offset: error.offset }).toEqual({
      code,
      field,
      offset: undefined,
    });
  });

  it('refuses to reassemble a message with a part missing', () => {
    const parts = encodeSubmit({ to: '123', text: 'y'.repeat(400), reference: 9 }).map((p) =>
      decodePdu(p.pdu),
    );
    const error = caught(() => reassembleText([parts[0], parts[2]].filter((p) => p !== undefined)));
    expect([error.code, error.message]).toEqual(['incomplete', 'parts: part 2 of 3 is missing']);
  });
});
