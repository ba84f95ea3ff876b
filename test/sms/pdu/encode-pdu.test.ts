// The encoders byte for byte against published SMS-SUBMIT PDUs, and the fields of SMS-DELIVER and
// SMS-STATUS-REPORT that the simulated modem relies on, checked by decodePdu and the gammu oracle.

import { describe, expect, it } from 'vitest';
import { decodePdu, encodeDeliver, encodeStatusReport, encodeSubmit } from '../../../src/sms/pdu/index.js';
import { runOracle } from './pdu-oracle.js';

const pdus = (parts: { pdu: string }[]) => parts.map((p) => p.pdu);

describe('encodeSubmit matches published PDUs byte for byte', () => {
  // All vectors from python-gsmmodem test/test_pdu.py (faucamp/python-gsmmodem), TestSmsPdu.
  it('encodes a plain GSM-7 message to an international number', () => {
    const [part] = encodeSubmit({ to: '+27820001111', text: 'Hello World!' });
    expect(part).toEqual({
      pdu: '0001000B917228001011F100000CC8329BFD065DDF72363904',
      tpduLength: 24,
      encoding: 'gsm7',
      concat: undefined,
    });
  });

  it('encodes UCS-2 with an SMSC and a 52-week relative validity', () => {
    const parts = encodeSubmit({
      to: '+123456789',
      text: '世界您好！',
      smsc: '+44000000000',
      validityPeriod: { relativeMinutes: 52 * 7 * 1440 },
    });
    expect(pdus(parts)).toEqual(['07914400000000F01100099121436587F90008F40A4E16754C60A8597DFF01']);
    expect(parts[0]?.tpduLength).toBe(23);
  });

  it('encodes national numbers, reference 13, a status report request and 3 days validity', () => {
    const parts = encodeSubmit({
      to: { number: '0126541234', type: 'national' },
      smsc: { number: '12345', type: 'national' },
      text: 'Test message: local numbers',
      messageReference: 13,
      statusReportRequest: true,
      validityPeriod: { relativeMinutes: 3 * 1440 },
    });
    expect(pdus(parts)).toEqual([
      '04A12143F5310D0AA110624521430000A91BD4F29C0E6A97E7F3F0B9AC03B1DFE3301BE4AEB7C565F91C',
    ]);
  });

  it('encodes an absolute validity period with a +02:00 zone', () => {
    const parts = encodeSubmit({
      to: '+27820001111',
      text: 'Timestamp validity test',
      validityPeriod: { absolute: { date: new Date('2013-07-10T13:39:00+02:00'), tzOffsetMinutes: 120 } },
    });
    expect(pdus(parts)).toEqual([
      '0019000B917228001011F100003170013193008017D474BB3CA787DB70903DCC4E93D3F43C885E9ED301',
    ]);
  });

  it('encodes a three-part message with 8-bit concatenation and reject-duplicates', () => {
    const text =
      'Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.Ut enim ad minim veniam, quinostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.Duis aute irure dolor in reprehenderit in voluptate velit esse cillum doloe eu fugiat nulla pariatur.Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum';
    const parts = encodeSubmit({ to: '+15125551234', text, reference: 0, rejectDuplicates: true });
    expect(pdus(parts)).toEqual([
      '0045000B915121551532F40000A0050003000301986F79B90D4AC3E7F53688FC66BFE5A0799A0E0AB7CB741668FC76CFCB637A995E9783C2E4343C3D4F8FD3EE33A8CC4ED359A079990C22BF41E5747DDE7E9341F4721BFE9683D2EE719A9C26D7DD74509D0E6287C56F791954A683C86FF65B5E06B5C36777181466A7E3F5B0AB4A0795DDE936284C06B5D3EE741B642FBBD3E1360B14AFA7DD',
      '0045000B915121551532F40000A0050003000302DE73BABC4E0695F165F9384D0FD3D36F37A8CE6687DBE337881D16BFE5E939C89D9EA741753A28CC4EC7EB6938A88C0795C3A0F1BBDD7E93DFA0F1DB3D2FC7EB61BA8B584FCF41E13ABD0C4ACBEBF23288FC66BFE5A0B41B242FC3E56574D94D2ECBD37450DA0DB2BFD975383D4C2F83EC65769A0E2ACFE765D038CD66D7DB20F29BFD2E83CA',
      '0045000B915121551532F400008C050003000303EA2073FD9C0ED341EE3A9B1D06C1C3F274985E97BB8AF871194E2FD7E5A079DA4D07BDC7E370791CA683C675789A1CA687E920F7DB0D82CBDF6972D94D6781E675371D947683C675363C0C8AD7D3A0B7D99C1EA7C32072795E96D7DD7450FBCD66A7E9A0B03BDD06A5C9A0F29C0E6287C56F79BD0D',
    ]);
    expect(parts.map((p) => p.tpduLength)).toEqual([153, 153, 136]);
  });
});

describe('encodeSubmit options', () => {
  it('gives the AT+CMGS length: the octets after the SMSC prefix', () => {
    for (const smsc of [undefined, '+4917000000', { number: '112', type: 'unknown' as const }]) {
      for (const part of encodeSubmit({
        to: '+15551234567',
        text: 'ü€'.repeat(90),
        ...(smsc ? { smsc } : {}),
      })) {
        const smscOctets = Number.parseInt(part.pdu.slice(0, 2), 16) + 1;
        expect(part.tpduLength).toBe(part.pdu.length / 2 - smscOctets);
      }
    }
  });

  it('rounds a relative validity up to the next TP-VP step (23.040 9.2.3.12.1)', () => {
    const raw = (relativeMinutes: number) => {
      const pdu = decodePdu(
        encodeSubmit({ to: '1', text: 'x', validityPeriod: { relativeMinutes } })[0]?.pdu ?? '',
      );
      return pdu.kind === 'submit' && pdu.validityPeriod?.kind === 'relative'
        ? pdu.validityPeriod
        : undefined;
    };
    expect(raw(1)).toEqual({ kind: 'relative', minutes: 5, raw: 0 });
    expect(raw(720)).toEqual({ kind: 'relative', minutes: 720, raw: 143 });
    expect(raw(721)).toEqual({ kind: 'relative', minutes: 750, raw: 144 });
    expect(raw(1440)).toEqual({ kind: 'relative', minutes: 1440, raw: 167 });
    expect(raw(1441)).toEqual({ kind: 'relative', minutes: 2880, raw: 168 });
    expect(raw(30 * 1440)).toEqual({ kind: 'relative', minutes: 30 * 1440, raw: 196 });
    expect(raw(30 * 1440 + 1)).toEqual({ kind: 'relative', minutes: 5 * 10080, raw: 197 });
    expect(raw(63 * 10080)).toEqual({ kind: 'relative', minutes: 63 * 10080, raw: 255 });
  });

  it('sets the class, 8-bit data and a 16-bit reference', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const parts = encodeSubmit({
      to: '+15551234567',
      data,
      reference: 0xbeef,
      referenceBits: 16,
      messageClass: 1,
    });
    const decoded = parts.map((p) => decodePdu(p.pdu));
    expect(decoded.map((p) => [p.dcs, p.encoding, p.concat])).toEqual([
      [0x15, '8bit', { reference: 0xbeef, total: 3, sequence: 1, referenceBits: 16 }],
      [0x15, '8bit', { reference: 0xbeef, total: 3, sequence: 2, referenceBits: 16 }],
      [0x15, '8bit', { reference: 0xbeef, total: 3, sequence: 3, referenceBits: 16 }],
    ]);
    expect(Buffer.concat(decoded.map((p) => p.data ?? new Uint8Array()))).toEqual(Buffer.from(data));
    const oracle = runOracle(pdus(parts));
    expect(oracle.map((o) => [o.coding, o.udh?.ref16, o.udh?.part, o.udh?.total])).toEqual([
      ['8bit', 0xbeef, 1, 3],
      ['8bit', 0xbeef, 2, 3],
      ['8bit', 0xbeef, 3, 3],
    ]);
    expect(oracle.map((o) => o.text).join('')).toBe(Buffer.from(data).toString('hex').toUpperCase());
  });
});

describe('encodeDeliver and encodeStatusReport for the simulated modem', () => {
  const scts = { date: new Date('2026-11-22T06:30:15+05:30'), tzOffsetMinutes: 330 };

  it('encodes a multipart UCS-2 delivery from an alphanumeric sender with its time zone', () => {
    const text = `Grüße aus Köln 😀 ${'ж'.repeat(120)}`;
    const parts = encodeDeliver({ from: 'PayBank', text, serviceCentreTime: scts, reference: 77 });
    const decoded = parts.map((p) => decodePdu(p.pdu));
    expect(decoded).toHaveLength(3);
    for (const [i, pdu] of decoded.entries()) {
      expect(pdu).toMatchObject({
        kind: 'deliver',
        sender: { number: 'PayBank', type: 'alphanumeric' },
        serviceCentreTime: scts,
        encoding: 'ucs2',
        concat: { reference: 77, total: 3, sequence: i + 1, referenceBits: 8 },
      });
    }
    const oracle = runOracle(pdus(parts));
    expect(oracle.map((o) => [o.type, o.number, o.udh?.ref8, o.udh?.part, o.raw?.scts])).toEqual(
      [1, 2, 3].map((part) => [
        'Deliver',
        'PayBank',
        77,
        part,
        { local: '2026-11-22T06:30:15', tz_offset_minutes: 330, iso: '2026-11-22T06:30:15+05:30' },
      ]),
    );
    expect(oracle.map((o) => o.text).join('')).toBe(text);
  });

  it('encodes a status report the way +CDS carries it', () => {
    const report = encodeStatusReport({
      messageReference: 42,
      recipient: '+15551234567',
      serviceCentreTime: scts,
      dischargeTime: { date: new Date('2026-11-22T01:00:20Z'), tzOffsetMinutes: -45 },
      status: 0x41,
    });
    expect(decodePdu(report.pdu)).toMatchObject({
      kind: 'status-report',
      messageReference: 42,
      recipient: { number: '+15551234567', type: 'international' },
      serviceCentreTime: scts,
      dischargeTime: { date: new Date('2026-11-22T01:00:20Z'), tzOffsetMinutes: -45 },
      status: 0x41,
      statusCategory: 'failed',
    });
    expect(report.tpduLength).toBe(report.pdu.length / 2 - 1);
    const [oracle] = runOracle([report.pdu]);
    expect(oracle).toMatchObject({
      type: 'Status_Report',
      number: '+15551234567',
      message_reference: 42,
      raw: {
        raw_status: 0x41,
        discharge_time: { local: '2026-11-22T00:15:20', tz_offset_minutes: -45 },
      },
    });
  });
});
