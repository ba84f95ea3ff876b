// NewCdrRecord fixtures for store and API tests: deterministic records with distinct identities.
import type { NewCdrRecord } from '../../src/cdr/record.js';

/** The i-th fixture record (i from 1): a mix of answered and unanswered calls. */
export function fixtureRecord(i: number, overrides: Partial<NewCdrRecord> = {}): NewCdrRecord {
  const start = 1_795_322_858 + i * 7;
  const answered = i % 3 !== 0;
  return {
    identity: `fixture-${i}`,
    uniqueid: `${start}.${i}`,
    linkedid: `${start}.${i}`,
    sequence: i,
    accountcode: 'sales',
    clid: `"Caller ${i}" <40${String(i % 100).padStart(2, '0')}>`,
    src: `40${String(i % 100).padStart(2, '0')}`,
    dst: `20${String(i % 100).padStart(2, '0')}`,
    dcontext: 'sip_internal',
    channel: `Local/20${i % 100}@from-4001-0000;2`,
    dstchannel: answered ? `Local/20${i % 100}@phones-0001;1` : '',
    lastapp: 'Dial',
    lastdata: 'Local/2011@phones/n,10,tT',
    start,
    answer: answered ? start + 1 : null,
    end: start + 5,
    duration: 5,
    billsec: answered ? 4 : 0,
    disposition: answered ? 'ANSWERED' : 'NO ANSWER',
    amaflags: 'DOCUMENTATION',
    userfield: '',
    peeraccount: '',
    initialDestination: `20${String(i % 100).padStart(2, '0')}`,
    computedDestination: '',
    recordingUrl: '',
    ...overrides,
  };
}

/** Fixture records from..to inclusive. */
export function fixtureRecords(from: number, to: number): NewCdrRecord[] {
  const out: NewCdrRecord[] = [];
  for (let i = from; i <= to; i++) out.push(fixtureRecord(i));
  return out;
}
