import { describe, expect, test } from 'bun:test'
import { ConfigError, parseConfig } from '../../src/config'
import { addressBucket, clientAddress, parseTrustProxy } from '../../src/platform/client-address'

describe('TRUST_PROXY', () => {
  test.each([
    [undefined, { kind: 'none' }],
    ['off', { kind: 'none' }],
    ['0', { kind: 'none' }],
    ['2', { kind: 'hops', hops: 2 }],
  ])('%p is read', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected as never)
  })

  test('reads a list of addresses and ranges', () => {
    const trust = parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1, fd00::/8')
    expect(trust.kind).toBe('ranges')
    expect(trust.kind === 'ranges' && trust.text).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'])
  })

  test.each([
    ['11', 'TRUST_PROXY must be at most 10 proxy hops (got "11")'],
    [
      'yes',
      'TRUST_PROXY must be off, a number of proxy hops (1 to 10), or a comma-separated list of proxy addresses or CIDR ranges (got "yes")',
    ],
    [
      '10.0.0.0/33',
      'TRUST_PROXY must be off, a number of proxy hops (1 to 10), or a comma-separated list of proxy addresses or CIDR ranges (got "10.0.0.0/33")',
    ],
    [',', 'TRUST_PROXY must name at least one proxy address or range'],
  ])('refuses %p at start-up', (value, message) => {
    expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(
      new ConfigError('TRUST_PROXY', message.replace('TRUST_PROXY ', '')),
    )
  })
})

describe('clientAddress', () => {
  const none = parseTrustProxy(undefined)
  const one = parseTrustProxy('1')
  const two = parseTrustProxy('2')
  const ranges = parseTrustProxy('10.0.0.0/8, 127.0.0.1')

  test.each([
    ['no trust: the peer, whatever the header says', '203.0.113.9', '1.2.3.4', none, '203.0.113.9'],
    ['no trust, no socket (in-process)', null, '1.2.3.4', none, 'unknown'],
    ['one hop: the last entry', '10.0.0.2', '6.6.6.6, 198.51.100.7', one, '198.51.100.7'],
    ['one hop, no header: the peer', '10.0.0.2', null, one, '10.0.0.2'],
    ['two hops', '10.0.0.2', '6.6.6.6, 198.51.100.7, 10.0.0.3', two, '198.51.100.7'],
    ['more hops than entries: the first entry', '10.0.0.2', '198.51.100.7', two, '198.51.100.7'],
    ['hops stop at an entry that is no address', '10.0.0.2', '198.51.100.7, garbage', two, '10.0.0.2'],
    [
      'ranges: skip trusted proxies from the right',
      '127.0.0.1',
      '6.6.6.6, 198.51.100.7, 10.1.2.3',
      ranges,
      '198.51.100.7',
    ],
    ['ranges: an untrusted peer is the client, header or not', '198.51.100.50', '6.6.6.6', ranges, '198.51.100.50'],
    ['ranges: all trusted, the leftmost', '127.0.0.1', '10.9.9.9', ranges, '10.9.9.9'],
    ['ranges: without a socket the header is not believed', null, '6.6.6.6', ranges, 'unknown'],
    ['IPv4-mapped IPv6 peers are IPv4', '::ffff:127.0.0.1', '198.51.100.7', ranges, '198.51.100.7'],
    ['bracketed IPv6 entries', '10.0.0.2', '[2001:db8::1]', one, '2001:db8::1'],
  ])('%s', (_, peer, header, trust, expected) => {
    expect(clientAddress(peer, header, trust)).toBe(expected)
  })

  test('IPv6 clients are counted by their /64', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressBucket('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64')
    expect(addressBucket('198.51.100.7')).toBe('198.51.100.7')
    expect(addressBucket('unknown')).toBe('unknown')
  })
})
