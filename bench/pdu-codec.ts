// Benchmark of the SMS PDU codec: decodePdu and encodeSubmit in PDUs per second, each next to a
// baseline measured in the same run (hex -> bytes + a byte loop; text -> hex), reported as a ratio.
// Run: node bin/run-ts.js bench/pdu-codec.ts [seconds-per-measurement]   (exits 1 below 100,000/s)

import {
  decodePdu,
  encodeDeliver,
  encodeStatusReport,
  encodeSubmit,
  type SubmitOptions,
} from '../src/sms/pdu/index.js';

const TARGET = 100_000;
const seconds = Number(process.argv[2] ?? 1);

const texts = [
  'Your code is 482913. It expires in 10 minutes.',
  'Meeting moved to 15:30 [room 4] {bring slides} - €20 for lunch ~ ok?',
  'Grüße aus Köln! Wir sehen uns morgen 😀',
  'Привет! Как дела? Это тестовое сообщение.',
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.',
  '告警：服务器 CPU 使用率超过 95%，请立即检查。',
];
const submits: SubmitOptions[] = texts.flatMap((text, i) => [
  {
    to: `+4915${String(1000000 + i * 7919).padStart(8, '0')}`,
    text,
    reference: i,
    statusReportRequest: true,
  },
  { to: `0151${String(200000 + i).padStart(7, '0')}`, text, validityPeriod: { relativeMinutes: 1440 } },
]);
const when = { date: new Date('2026-11-22T05:00:00Z'), tzOffsetMinutes: 60 };
const corpus: string[] = [
  ...submits.flatMap((s) => encodeSubmit(s).map((p) => p.pdu)),
  ...texts.flatMap((text, i) =>
    encodeDeliver({
      from: i % 2 ? 'MyBank' : '+15551234567',
      text,
      serviceCentreTime: when,
      smsc: '+4917000000',
    }).map((p) => p.pdu),
  ),
  encodeStatusReport({
    messageReference: 7,
    recipient: '+15551234567',
    serviceCentreTime: when,
    dischargeTime: when,
    status: 0,
  }).pdu,
];

/** Runs `fn(i)` for about `seconds` and returns calls per second; `sink` keeps results alive. */
function measure(fn: (i: number) => number): { rate: number; sink: number } {
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += fn(i);
  let calls = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < deadline) {
    for (let k = 0; k < 1000; k++) sink += fn(calls++);
    now = process.hrtime.bigint();
  }
  return { rate: calls / (Number(now - start) / 1e9), sink };
}

const n = corpus.length;
const decode = measure((i) => decodePdu(corpus[i % n] ?? '').text.length);
const decodeBase = measure((i) => {
  const bytes = Buffer.from(corpus[i % n] ?? '', 'hex');
  let sum = 0;
  for (let k = 0; k < bytes.length; k++) sum += bytes[k] ?? 0;
  return sum;
});
const m = submits.length;
const encode = measure((i) => {
  const parts = encodeSubmit(submits[i % m] ?? { to: '1', text: '' });
  return parts.length;
});
const encodeBase = measure((i) => Buffer.from(submits[i % m]?.text ?? '', 'utf16le').toString('hex').length);
const encodedPdus = submits.reduce((sum, s) => sum + encodeSubmit(s).length, 0) / m;

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const rows = [
  ['decodePdu', decode.rate, decodeBase.rate, 'Buffer.from(hex) + byte loop'],
  ['encodeSubmit', encode.rate * encodedPdus, encodeBase.rate, 'Buffer.from(text, utf16le).toString(hex)'],
] as const;
console.log(
  `corpus: ${n} distinct PDUs (${(corpus.reduce((s, p) => s + p.length / 2, 0) / n).toFixed(1)} octets mean); ${m} messages to encode, ${encodedPdus.toFixed(2)} PDUs each`,
);
let ok = true;
for (const [name, rate, base, baseline] of rows) {
  const pass = rate >= TARGET;
  ok &&= pass;
  console.log(
    `${name.padEnd(13)} ${fmt(rate).padStart(10)} PDUs/s   baseline ${fmt(base).padStart(10)}/s (${baseline})   ratio ${(rate / base).toFixed(3)}   ${pass ? 'PASS' : 'FAIL'} (target ${fmt(TARGET)}/s)`,
  );
}
if (decode.sink + decodeBase.sink + encode.sink + encodeBase.sink === -1) console.log('');
process.exitCode = ok ? 0 : 1;
