// `branchgate sms decode-pdu`: PDUs as modems print them, from stdin, decoded to one JSON object a
// line that agrees with Debian's python3-gammu (the oracle); a bad one is reported and the rest
// still decoded, and the exit status says something failed.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { BIN } from '../../support/serve-process.js';
import { runOracle } from './pdu-oracle.js';

const PDUS = [
  '07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07',
  '0591721891F1400781721881F800003160526104848059050003C30101916536FB1DCABEEB2074D85E064941B19CAB060319A5C522289C96D3D3ED32286C0FA7D96131BBEC024941B19CAB0603DDD36C36A88C87A7E565D0DB0D82C55EB0DB4B068BCD5C20',
  '06917228195339040B917228214365F70000313062315352800A800D8A5E98D337A910',
  '0011000B916407281553F80000AA0AE8329BFD4697D9EC37',
];

test('decodes PDUs from stdin into JSON lines that agree with gammu, and reports a bad one in place', () => {
  const run = spawnSync(process.execPath, [BIN, 'sms', 'decode-pdu', '--json'], {
    input: `${PDUS[0]}\n\n${PDUS[1]}\nnot-a-pdu\n${PDUS[2]}\r\n${PDUS[3]}\n`,
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.pdu)).toEqual([PDUS[0], PDUS[1], 'not-a-pdu', PDUS[2], PDUS[3]]);
  expect(lines[2]).toEqual({ pdu: 'not-a-pdu', error: 'PDU at byte 4: odd number of hex digits (9)' });
  const decoded = lines.filter((l) => !l.error);
  const oracle = runOracle(PDUS);
  decoded.forEach((d, i) => {
    const o = oracle[i];
    const number =
      d.kind === 'deliver'
        ? d.sender.number
        : d.kind === 'submit'
          ? d.destination.number
          : d.recipient.number;
    expect([number, d.text], d.pdu).toEqual([o?.number, o?.text ?? '']);
  });
  expect(decoded[0]).toMatchObject({
    kind: 'deliver',
    text: 'How are you?',
    service_centre_time: { date: '2002-08-26T19:37:41.000Z' },
  });
});

test('takes PDUs as arguments, indented, and exits 0 when all decode', () => {
  const run = spawnSync(process.execPath, [BIN, 'sms', 'decode-pdu', PDUS[3] as string], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('\n  "text": "hellohello",\n');
});
