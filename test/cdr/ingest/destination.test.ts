import { describe, expect, test } from 'vitest';
import {
  computedDestination,
  dialTarget,
  type GroupMember,
  resolveInitialDestination,
  sameNumber,
} from '../../../src/cdr/ingest/destination.js';

describe('dialTarget', () => {
  test('reads the number from a Local or PJSIP dstchannel', () => {
    expect(dialTarget('Local/2011@phones-0000001c;1', 'Dial', 'Local/2011@phones/n,10,tT')).toBe('2011');
    expect(dialTarget('PJSIP/2011-00000012', 'Dial', 'PJSIP/2011,30')).toBe('2011');
  });

  test('falls back to the Dial() argument when dstchannel names a trunk or is empty', () => {
    expect(dialTarget('PJSIP/provider-0000002a', 'Dial', 'PJSIP/0493012345678@provider,60')).toBe(
      '0493012345678',
    );
    expect(dialTarget('SIP/provider-0000002a', 'Dial', 'SIP/provider/+493012345678,60,T')).toBe(
      '+493012345678',
    );
    expect(dialTarget('DAHDI/1-1', 'Dial', 'DAHDI/g0/0301234567')).toBe('0301234567');
    expect(dialTarget('', 'Dial', 'PJSIP/2012&PJSIP/2013,20')).toBe('2012');
  });

  test('gives nothing when no leg was dialled', () => {
    expect(dialTarget('', 'Echo', '')).toBe('');
    expect(dialTarget('', 'Queue', 'support,t')).toBe('');
    expect(dialTarget('', 'AppDial', '(Outgoing Line)')).toBe('');
  });
});

describe('sameNumber', () => {
  test('treats an outside-line prefix stripped by the dialplan as the same number', () => {
    expect(sameNumber('00493012345678', '0493012345678')).toBe(true);
    expect(sameNumber('2011', '2011')).toBe(true);
  });

  test('never matches short extensions by suffix', () => {
    expect(sameNumber('12011', '2011')).toBe(false);
    expect(sameNumber('2011', '2012')).toBe(false);
  });
});

const member = (m: Partial<GroupMember> & Pick<GroupMember, 'dst' | 'target'>): GroupMember => ({
  sequence: null,
  start: 0,
  index: 0,
  channel: 'Local/2030@from-4004-00000023;2',
  ...m,
});

describe('resolveInitialDestination', () => {
  test('is the dst of the first record by sequence, whatever the file order', () => {
    const members = [
      member({ sequence: 91, dst: '', target: '2012', index: 0, channel: 'Local/2031@phones-00000027;1' }),
      member({
        sequence: 84,
        dst: '2031',
        target: '2031',
        index: 1,
        channel: 'Local/2031@from-4001-00000026;2',
      }),
    ];
    expect(resolveInitialDestination(members)).toBe('2031');
  });

  test('orders by start, then file position, when there is no sequence', () => {
    expect(
      resolveInitialDestination([
        member({ start: 20, dst: '2022', target: '2012', index: 0 }),
        member({ start: 10, dst: '2020', target: '2011', index: 1 }),
      ]),
    ).toBe('2020');
    expect(
      resolveInitialDestination([
        member({ start: 10, dst: '2021', target: '2013', index: 0 }),
        member({ start: 10, dst: '2099', target: '2011', index: 1 }),
      ]),
    ).toBe('2021');
  });

  test('recovers the number first dialled when a transfer rewrote dst on the moved channel', () => {
    const blind = [
      member({ sequence: 77, dst: '2011', target: '2030' }),
      member({ sequence: 80, dst: '2011', target: '2011' }),
    ];
    expect(resolveInitialDestination(blind)).toBe('2030');
  });

  test('keeps dst for a forward, where the same channel rings another number under its own dst', () => {
    const cfna = [
      member({ sequence: 64, dst: '2021', target: '2013' }),
      member({ sequence: 73, dst: '2021', target: '2011' }),
    ];
    expect(resolveInitialDestination(cfna)).toBe('2021');
    expect(resolveInitialDestination([member({ dst: '2020', target: '2011' })])).toBe('2020');
  });
});

describe('computedDestination', () => {
  test('is the party this leg rang when it differs from the number first dialled', () => {
    expect(computedDestination('2011', '2020', '2020')).toBe('2011');
    expect(computedDestination('2011', '2011', '2011')).toBe('');
    expect(computedDestination('', '2012', '2031')).toBe('2012');
    expect(computedDestination('0493012345678', '00493012345678', '00493012345678')).toBe('');
    expect(computedDestination('', '', '2031')).toBe('');
  });
});
