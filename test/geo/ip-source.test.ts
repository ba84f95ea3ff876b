import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cidrToText, GeoError, parseCidr } from '../../src/geo/index.js';
import { bigintToBytes, formatIPv6, parseIPv6 } from '../../src/geo/ip/ip-address.js';
import { parseIpText } from '../../src/geo/ip/ip-source.js';

const textOf = (text: string) =>
  parseIpText(text, 'lists/x.txt')
    .build()
    .map((c) => cidrToText(c.ip, c.prefix));

describe('text IP lists', () => {
  test('CIDRs and bare addresses, comments, blank lines; IPv4 sorted before IPv6', () => {
    expect(
      textOf('# header\n2001:db8::/32\n10.0.0.0/8 # private\n\n192.168.1.1\n  // c\n::1 /* loopback */\n'),
    ).toEqual(['10.0.0.0/8', '192.168.1.1/32', '::1/128', '2001:db8::/32']);
  });

  test('host bits are cleared and overlaps merged', () => {
    expect(textOf('10.1.2.3/8\n10.0.0.0/9\n10.128.0.0/9\n2001:db8::1/31')).toEqual([
      '10.0.0.0/8',
      '2001:db8::/31',
    ]);
  });

  test('a bad line is reported with file:line', () => {
    const run = () => parseIpText('10.0.0.0/8\n\n10.0.0.256/8\n', 'lists/x.txt');
    expect(run).toThrowError(GeoError);
    expect(run).toThrowError('lists/x.txt:3: invalid CIDR or IP address "10.0.0.256/8"');
    expect(() => parseIpText('1.2.3.4/33', 'f')).toThrowError('f:1: invalid CIDR or IP address "1.2.3.4/33"');
    expect(() => parseIpText('01.2.3.4', 'f')).toThrowError('f:1: invalid CIDR or IP address "01.2.3.4"');
    expect(() => parseIpText('1::2::3', 'f')).toThrowError('f:1: invalid CIDR or IP address "1::2::3"');
  });
});

describe('IPv6 text', () => {
  test.each([
    ['::', '::'],
    ['::1', '::1'],
    ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:0:0:0:2:1', '2001:db8::2:1'],
    ['2001:db8::ffff:0', '2001:db8::ffff:0'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
  ])('%s formats as %s', (input, expected) => {
    const v = parseIPv6(input);
    expect(v).toBeDefined();
    expect(formatIPv6(v as bigint)).toBe(expected);
  });

  test('invalid forms are refused', () => {
    for (const bad of ['1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '12345::', ':1', 'fe80::1%eth0', 'g::']) {
      expect(parseCidr(bad)).toBeUndefined();
    }
  });
});

describe('text list parser agrees with the reference parser', () => {
  test('any IPv6 address/prefix in RFC 5952 or full form reads back to the same network', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
        fc.integer({ min: 0, max: 128 }),
        fc.boolean(),
        (v, prefix, full) => {
          const host = BigInt(128 - prefix);
          const net = (v >> host) << host;
          const text = full
            ? (v.toString(16).padStart(32, '0').match(/.{4}/g) as string[]).join(':')
            : formatIPv6(v);
          const [cidr] = parseIpText(`${text}/${prefix}`, 'f').build();
          expect(cidr).toEqual({ ip: bigintToBytes(net, 16), prefix });
        },
      ),
      { numRuns: 500 },
    );
  });

  test('dotted IPv4 tails and compressed forms', () => {
    expect(textOf('::ffff:192.0.2.1\n64:ff9b::1.2.3.4/128\n1::\n::')).toEqual([
      '::/128',
      '::ffff:c000:201/128',
      '1::/128',
      '64:ff9b::102:304/128',
    ]);
  });
});
