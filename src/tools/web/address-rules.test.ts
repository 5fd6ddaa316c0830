import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/index.js';
import {
  isAllowed,
  isBlockedAddress,
  isIpLiteral,
  normalizeHost,
  parseFetchAllow,
} from './address-rules.js';

describe('isBlockedAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['203.0.113.9', 'documentation'],
    // Odd IPv4 spellings of loopback and metadata
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['127.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['0xa9.0xfe.0xa9.0xfe', 'cloud metadata'],
    ['2852039166', 'cloud metadata'],
    ['0', 'unspecified'],
    // IPv6
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    // IPv6 carrying IPv4: judged by the IPv4 inside
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible private'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['64:ff9b::169.254.169.254', 'NAT64 cloud metadata'],
    ['64:ff9b:1::1', 'reserved'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2002:a00:1::1', '6to4 private'],
    ['2002:a9fe:a9fe::', '6to4 cloud metadata'],
    // Not addresses at all: refused rather than guessed at
    ['example.com', 'unrecognised'],
    ['', 'unrecognised'],
    ['1.2.3.4.5', 'unrecognised'],
    ['08.0.0.1', 'unrecognised'],
  ])('%s is blocked as %s', (ip, range) => {
    expect(isBlockedAddress(ip)).toEqual({ blocked: true, range });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.169.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    'fbff::1',
    'fe00::1',
  ])('%s is public', (ip) => {
    expect(isBlockedAddress(ip)).toEqual({ blocked: false });
  });
});

describe('isIpLiteral / normalizeHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['[::1]', true],
    ['2130706433', true],
    ['example.com', false],
    ['localhost', false],
    ['', false],
  ])('isIpLiteral(%j) is %s', (host, expected) => {
    expect(isIpLiteral(host)).toBe(expected);
  });

  it.each([
    ['Example.COM.', 'example.com'],
    ['[::1]', '::1'],
    [' localhost ', 'localhost'],
  ])('normalizeHost(%j) is %j', (host, expected) => {
    expect(normalizeHost(host)).toBe(expected);
  });
});

describe('parseFetchAllow', () => {
  it('reads nothing from an unset or blank value', () => {
    expect(parseFetchAllow(undefined)).toEqual({ hosts: [], ranges: [] });
    expect(parseFetchAllow(' , ,')).toEqual({ hosts: [], ranges: [] });
  });

  it('reads addresses, ranges and host names separated by commas or spaces', () => {
    const allow = parseFetchAllow(
      '127.0.0.1, 10.0.0.0/8 fd00::/8,localhost, Intranet.Example.,*.corp.example',
    );
    expect(allow.hosts).toEqual(['localhost', 'intranet.example', '.corp.example']);
    expect(allow.ranges.map(([base, bits]) => `${base.toString()}/${bits}`)).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('stores mapped IPv6 entries as their IPv4 form', () => {
    const allow = parseFetchAllow('::ffff:10.0.0.0/104,::ffff:127.0.0.1');
    expect(allow.ranges.map(([base, bits]) => `${base.toString()}/${bits}`)).toEqual([
      '10.0.0.0/8',
      '127.0.0.1/32',
    ]);
  });

  it('names every entry it cannot read', () => {
    expect(() => parseFetchAllow('10.0.0.0/33,ok.example,bad host!,1.2.3.4/x')).toThrow(
      new ConfigError(
        'CADRE_FETCH_ALLOW has entries that are not an address, CIDR range or host name: 10.0.0.0/33, host!, 1.2.3.4/x',
      ),
    );
  });
});

describe('isAllowed', () => {
  const allow = parseFetchAllow('127.0.0.1,10.0.0.0/8,fd00::/8,localhost,*.corp.example');

  it.each([
    ['any-name', '127.0.0.1', true],
    ['any-name', '127.0.0.2', false],
    ['any-name', '::ffff:127.0.0.1', true],
    ['any-name', '10.20.30.40', true],
    ['any-name', '::ffff:10.20.30.40', true],
    ['any-name', '11.0.0.1', false],
    ['any-name', 'fd12::1', true],
    ['any-name', 'fe80::1', false],
    ['localhost', '127.0.0.9', true],
    ['LOCALHOST.', '::1', true],
    ['localhost.example', '127.0.0.9', false],
    ['wiki.corp.example', '192.168.0.1', true],
    ['a.b.corp.example', '192.168.0.1', true],
    ['corp.example', '192.168.0.1', false],
    ['evilcorp.example', '192.168.0.1', false],
    ['any-name', 'not-an-ip', false],
  ])('%s at %s → %s', (host, ip, expected) => {
    expect(isAllowed(host, ip, allow)).toBe(expected);
  });

  it('allows nothing with an empty list', () => {
    expect(isAllowed('localhost', '127.0.0.1', parseFetchAllow(''))).toBe(false);
  });
});
