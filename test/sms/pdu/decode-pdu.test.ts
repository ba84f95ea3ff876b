// Table tests of decodePdu against published PDUs (each cites its source) and against PDUs built
// by hand from the field layouts of 3GPP TS 23.040 / 23.038, checked by the gammu oracle too.

import { describe, expect, it } from 'vitest';
import { decodePdu } from '../../../src/sms/pdu/index.js';
import { runOracle } from './pdu-oracle.js';

const hex = (bytes: Uint8Array | undefined) =>
  bytes ? Buffer.from(bytes).toString('hex').toUpperCase() : undefined;

describe('decodePdu on published SMS-DELIVER PDUs', () => {
  it('decodes the classic "How are you?" example', () => {
    // dreamfabric.com "SMS messages and the PDU format" (L. Pettersson), also the example in
    // ../shared/tools/pdu-oracle.py; SMSC +31624000000, sender +31641600986, 2002-08-26 19:37:41 +00.
    const pdu = decodePdu('07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07');
    expect(pdu).toMatchObject({
      kind: 'deliver',
      smsc: { number: '+31624000000', type: 'international' },
      sender: { number: '+31641600986', type: 'international' },
      encoding: 'gsm7',
      text: 'How are you?',
      concat: undefined,
      moreMessagesToSend: false,
      serviceCentreTime: { date: new Date('2002-08-26T19:37:41Z'), tzOffsetMinutes: 0 },
    });
  });

  it('decodes a real network message with an 8-bit concatenation header and a national sender', () => {
    // python-gsmmodem test/test_pdu.py (faucamp/python-gsmmodem), a South African airtime notice.
    const pdu = decodePdu(
      '0591721891F1400781721881F800003160526104848059050003C30101916536FB1DCABEEB2074D85E064941B19CAB060319A5C522289C96D3D3ED32286C0FA7D96131BBEC024941B19CAB0603DDD36C36A88C87A7E565D0DB0D82C55EB0DB4B068BCD5C20',
    );
    expect(pdu).toMatchObject({
      kind: 'deliver',
      smsc: { number: '+2781191', type: 'international' },
      sender: { number: '2781188', type: 'unknown' },
      text: 'Hello!You have R 19.50 FREE airtime available. R 19.50 will expire on 01/07/2013. ',
      concat: { reference: 0xc3, total: 1, sequence: 1, referenceBits: 8 },
      serviceCentreTime: { date: new Date('2013-06-25T16:40:48+02:00'), tzOffsetMinutes: 120 },
    });
    expect(pdu.udh.map((ie) => [ie.iei, hex(ie.data)])).toEqual([[0, 'C30101']]);
  });

  it('decodes GSM-7 extension characters and accented letters', () => {
    // python-gsmmodem test/test_pdu.py: '@{tést}!' from +27821234567.
    const pdu = decodePdu('06917228195339040B917228214365F70000313062315352800A800D8A5E98D337A910');
    expect(pdu).toMatchObject({ kind: 'deliver', sender: { number: '+27821234567' }, text: '@{tést}!' });
  });
});

describe('decodePdu on published SMS-SUBMIT PDUs', () => {
  it('decodes a relative validity period of four days', () => {
    // dreamfabric.com "SMS messages and the PDU format": "hellohello" to +46708251358, TP-VP 0xAA.
    const pdu = decodePdu('0011000B916407281553F80000AA0AE8329BFD4697D9EC37');
    expect(pdu).toMatchObject({
      kind: 'submit',
      smsc: undefined,
      messageReference: 0,
      destination: { number: '+46708251358', type: 'international' },
      validityPeriod: { kind: 'relative', minutes: 4 * 1440, raw: 0xaa },
      text: 'hellohello',
    });
  });

  it('decodes a status report request, reference 13 and national numbers', () => {
    // python-gsmmodem test/test_pdu.py: 'Test message: local numbers', SMSC 12345 (national), 3 days.
    const pdu = decodePdu(
      '04A12143F5310D0AA110624521430000A91BD4F29C0E6A97E7F3F0B9AC03B1DFE3301BE4AEB7C565F91C',
    );
    expect(pdu).toMatchObject({
      kind: 'submit',
      smsc: { number: '12345', type: 'national' },
      messageReference: 13,
      destination: { number: '0126541234', type: 'national' },
      statusReportRequest: true,
      validityPeriod: { kind: 'relative', minutes: 3 * 1440, raw: 169 },
      text: 'Test message: local numbers',
    });
  });

  it('decodes an absolute validity period with its time zone', () => {
    // python-gsmmodem test/test_pdu.py: validity 2013-07-10 13:39 +02:00.
    const pdu = decodePdu(
      '0019000B917228001011F100003170013193008017D474BB3CA787DB70903DCC4E93D3F43C885E9ED301',
    );
    expect(pdu).toMatchObject({
      kind: 'submit',
      text: 'Timestamp validity test',
      validityPeriod: {
        kind: 'absolute',
        timestamp: { date: new Date('2013-07-10T13:39:00+02:00'), tzOffsetMinutes: 120 },
      },
    });
  });

  it('decodes UCS-2 text', () => {
    // python-gsmmodem test/test_pdu.py: 'あ叶葉' to +34616585119.
    const pdu = decodePdu('07914346466554F601000B914316565811F9000806304253F68449');
    expect(pdu).toMatchObject({ kind: 'submit', encoding: 'ucs2', dcs: 8, text: 'あ叶葉' });
  });

  it('keeps 8-bit user data as bytes', () => {
    // python-gsmmodem test/test_pdu.py: 8-bit "Hello world!" to +27821234567.
    const pdu = decodePdu('0591721891F101000B917228214365F700040C48656C6C6F20776F726C6421');
    expect(pdu).toMatchObject({ kind: 'submit', encoding: '8bit', text: '' });
    expect(Buffer.from(pdu.data ?? []).toString('latin1')).toBe('Hello world!');
  });
});

describe('decodePdu on SMS-STATUS-REPORT PDUs', () => {
  it('decodes a delivered report with both timestamps', () => {
    // python-gsmmodem test/test_pdu.py (diafaan example): MR 214 for +31628870634.
    const pdu = decodePdu('0006D60B911326880736F4111011719551401110117195714000');
    expect(pdu).toMatchObject({
      kind: 'status-report',
      smsc: undefined,
      messageReference: 214,
      recipient: { number: '+31628870634', type: 'international' },
      serviceCentreTime: { date: new Date('2011-01-11T17:59:15+01:00'), tzOffsetMinutes: 60 },
      dischargeTime: { date: new Date('2011-01-11T17:59:17+01:00'), tzOffsetMinutes: 60 },
      status: 0,
      statusCategory: 'delivered',
    });
  });

  it('decodes a ZTE report whose recipient holds a # semi-octet (23.040 9.1.2.3: 1011 is #)', () => {
    // python-gsmmodem test/test_pdu.py, "semi-invalid status report PDU captured from a ZTE modem".
    const pdu = decodePdu('0297F1061C0F910B487228297020F5317062419272803170624192138000');
    expect(pdu).toMatchObject({
      kind: 'status-report',
      messageReference: 28,
      recipient: { number: '+#08427829207025' },
      serviceCentreTime: { date: new Date('2013-07-26T14:29:27+02:00'), tzOffsetMinutes: 120 },
      dischargeTime: { date: new Date('2013-07-26T14:29:31+02:00'), tzOffsetMinutes: 120 },
    });
  });

  it.each([
    [0x00, 'delivered'],
    [0x1f, 'delivered'],
    [0x20, 'pending'],
    [0x3f, 'pending'],
    [0x40, 'failed'],
    [0x65, 'failed'],
  ] as const)('maps TP-ST 0x%s to %s (23.040 9.2.3.15)', (status, category) => {
    const st = status.toString(16).padStart(2, '0').toUpperCase();
    const pdu = decodePdu(`0006D60B911326880736F41110117195514011101171957140${st}`);
    expect(pdu).toMatchObject({ kind: 'status-report', status, statusCategory: category });
  });

  it('decodes the optional TP-PI tail with user data (23.040 9.2.2.3)', () => {
    // TP-PI 0x06: TP-DCS (UCS-2) and TP-UDL present; user data "OK".
    const pdu = decodePdu('0006D60B911326880736F41110117195514011101171957140000608' + '04004F004B');
    expect(pdu).toMatchObject({ kind: 'status-report', encoding: 'ucs2', text: 'OK', protocolId: 0 });
  });
});

describe('decodePdu on PDUs built from the 3GPP field layouts', () => {
  // Alphanumeric TP-OA (23.040 9.1.2.5, TON 101): "Bank" = 4 septets = 28 bits = 7 semi-octets.
  const alnum = '00' + '04' + '07D0C2B07B0D' + '00' + '00' + '62112250000040' + '02' + 'C834';
  // 16-bit concatenation IE 0x08 (23.040 9.2.3.24.8): reference 0x1234, part 2 of 3; the 7 header
  // octets are exactly 8 septets, so "Hi" follows with no fill bits.
  const ref16 =
    '00' + '44' + '0B915155214365F7' + '00' + '00' + '62112250000029' + '0A' + '06080412340302C834';
  // 8-bit concatenation IE 0x00 (23.040 9.2.3.24.1): 6 header octets = 48 bits, so one fill bit
  // aligns "Hi" on the 8th septet: 0x48 << 1 = 0x90, then 0x69.
  const ref8 = '00' + '44' + '0B915155214365F7' + '00' + '00' + '62112250000040' + '09' + '050003A703029069';
  // Data coding group 1111 (23.038 4): 8-bit, class 1; TP-SCTS zone -03:00 = 12 quarters, sign bit.
  const class1 = '00' + '04' + '0B915155214365F7' + '00' + 'F5' + '6211225000002A' + '02' + 'ABCD';

  it('decodes an alphanumeric sender', () => {
    expect(decodePdu(alnum)).toMatchObject({ sender: { number: 'Bank', type: 'alphanumeric' }, text: 'Hi' });
  });

  it('decodes an 8-bit concatenation reference and skips the fill bit', () => {
    expect(decodePdu(ref8)).toMatchObject({
      text: 'Hi',
      concat: { reference: 0xa7, total: 3, sequence: 2, referenceBits: 8 },
    });
  });

  it('decodes a 16-bit concatenation reference and a negative time zone', () => {
    expect(decodePdu(ref16)).toMatchObject({
      text: 'Hi',
      concat: { reference: 0x1234, total: 3, sequence: 2, referenceBits: 16 },
      serviceCentreTime: { date: new Date('2026-11-22T05:00:00-03:00'), tzOffsetMinutes: -180 },
    });
  });

  it('decodes data coding group 1111 with its class', () => {
    const pdu = decodePdu(class1);
    expect(pdu).toMatchObject({ encoding: '8bit', messageClass: 1, dcs: 0xf5 });
    expect(hex(pdu.data)).toBe('ABCD');
  });

  it('decodes a PDU without SMSC prefix when told so', () => {
    expect(decodePdu(alnum.slice(2), { smscPrefix: false })).toMatchObject({ sender: { number: 'Bank' } });
  });

  it('agrees with the gammu oracle on these hand-built PDUs', () => {
    const [a, b, c, d] = runOracle([alnum, ref16, class1, ref8]);
    expect(a).toMatchObject({ number: 'Bank', text: 'Hi' });
    expect(d).toMatchObject({ text: 'Hi', udh: { ref8: 0xa7, part: 2, total: 3 } });
    expect(b).toMatchObject({ text: 'Hi', udh: { ref16: 0x1234, part: 2, total: 3 } });
    expect(b?.raw?.scts).toMatchObject({ local: '2026-11-22T05:00:00', tz_offset_minutes: -180 });
    expect(c).toMatchObject({ type: 'Deliver', udh: { part: -1 } });
  });
});

describe('decodePdu reads TP-DCS by coding group (3GPP TS 23.038 4)', () => {
  // SMS-DELIVER without SMSC from +15551234567 whose two user data octets 00 41 read as "@$" in
  // GSM-7 (UDL 2 septets), "A" in UCS-2 and [0x00, 0x41] as 8-bit data.
  const withDcs = (dcs: number) =>
    `0004${'0B915155214365F7'}00${dcs.toString(16).padStart(2, '0')}${'62112250000040'}020041`;
  it.each([
    [0x00, 'gsm7', undefined, '@$'],
    [0x04, '8bit', undefined, ''],
    [0x08, 'ucs2', undefined, 'A'],
    [0x0c, 'gsm7', undefined, '@$'],
    [0x10, 'gsm7', 0, '@$'],
    [0x19, 'ucs2', 1, 'A'],
    [0x16, '8bit', 2, ''],
    [0x48, 'ucs2', undefined, 'A'],
    [0x80, 'gsm7', undefined, '@$'],
    [0xc8, 'gsm7', undefined, '@$'],
    [0xd0, 'gsm7', undefined, '@$'],
    [0xe0, 'ucs2', undefined, 'A'],
    [0xf0, 'gsm7', 0, '@$'],
    [0xf7, '8bit', 3, ''],
  ] as const)('TP-DCS %i is %s, class %s', (dcs, encoding, messageClass, text) => {
    expect(decodePdu(withDcs(dcs))).toMatchObject({ dcs, encoding, messageClass, text });
  });

  it('accepts lowercase hex and surrounding whitespace as a modem line may carry', () => {
    expect(decodePdu(`  ${withDcs(0x08).toLowerCase()}\r\n`)).toMatchObject({ text: 'A' });
  });
});
