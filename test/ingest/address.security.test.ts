import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { assertPublicHost, embeddedIPv4, isPrivateAddress } from '../../src/pipeline/ingest/rss/address'
import { FEED_FETCH_DEFAULTS, fetchFeed } from '../../src/pipeline/ingest/rss/fetch'
import { DnsServer } from '../support/dns-server'

// Every IPv6 form that carries an IPv4 address, each with a private and a public IPv4 inside.
const embedded: [name: string, address: string, carries: string[], isPrivate: boolean][] = [
  ['IPv4-compatible, dotted', '::127.0.0.1', ['127.0.0.1'], true],
  ['IPv4-compatible, hex', '::a9fe:a9fe', ['169.254.169.254'], true],
  ['IPv4-compatible, public', '::8.8.8.8', ['8.8.8.8'], false],
  ['IPv4-mapped, dotted', '::ffff:10.0.0.1', ['10.0.0.1'], true],
  ['IPv4-mapped, hex', '::ffff:7f00:1', ['127.0.0.1'], true],
  ['IPv4-mapped, public', '::ffff:808:808', ['8.8.8.8'], false],
  ['IPv4-translated, dotted', '::ffff:0:192.168.1.1', ['192.168.1.1'], true],
  ['IPv4-translated, hex', '::ffff:0:a9fe:a9fe', ['169.254.169.254'], true],
  ['IPv4-translated, public', '::ffff:0:1.1.1.1', ['1.1.1.1'], false],
  ['NAT64 well-known prefix, dotted', '64:ff9b::127.0.0.1', ['127.0.0.1'], true],
  ['NAT64 well-known prefix, hex', '64:ff9b::ac10:1', ['172.16.0.1'], true],
  ['NAT64 well-known prefix, public', '64:ff9b::808:808', ['8.8.8.8'], false],
  ['6to4 of loopback', '2002:7f00:1::1', ['127.0.0.1'], true],
  ['6to4 of a private network', '2002:c0a8:101:1::1', ['192.168.1.1'], true],
  ['6to4 of a public address', '2002:808:808::1', ['8.8.8.8'], false],
  // Teredo: server 65.54.227.120 in clear, client 127.0.0.1 inverted (0x80ff:0xfffe).
  ['Teredo with a loopback client', '2001:0:4136:e378:8000:63bf:80ff:fffe', ['65.54.227.120', '127.0.0.1'], true],
  [
    'Teredo with a link-local client',
    '2001:0:4136:e378:8000:63bf:5601:5601',
    ['65.54.227.120', '169.254.169.254'],
    true,
  ],
  ['Teredo with a private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7', ['10.0.0.1', '8.8.8.8'], true],
  ['Teredo, all public', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', ['65.54.227.120', '8.8.8.8'], false],
]

describe('IPv6 addresses that carry an IPv4 address', () => {
  test.each(embedded)('%s (%s) carries %p, private: %p', (_name, address, carries, isPrivate) => {
    expect(embeddedIPv4(address)).toEqual(carries)
    expect(isPrivateAddress(address)).toBe(isPrivate)
  })

  test.each([
    ['NAT64 for local use (RFC 8215)', '64:ff9b:1::a00:1'],
    ['NAT64 for local use, public IPv4 inside', '64:ff9b:1:0:0:0:808:808'],
    ['discard-only', '100::1'],
    ['site-local', 'fec0::1'],
    ['link-local with a zone', 'fe80::1%eth0'],
  ])('%s (%s) is private', (_name, address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  test.each(['2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])('%s stays public', (address) => {
    expect(embeddedIPv4(address)).toEqual([])
    expect(isPrivateAddress(address)).toBe(false)
  })
})

describe('host names whose DNS answers carry a private IPv4', () => {
  const zone = {
    'compatible.evil.test': ['::127.0.0.1'],
    'translated.evil.test': ['::ffff:0:a9fe:a9fe'],
    'nat64.evil.test': ['64:ff9b::a00:1'],
    'sixtofour.evil.test': ['2002:7f00:1::1'],
    'teredo.evil.test': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
    'mapped-hex.evil.test': ['::ffff:7f00:1'],
    'mixed.evil.test': ['93.184.216.34', '64:ff9b::7f00:1'], // one good answer does not excuse a bad one
    'public.good.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '64:ff9b::5db8:d822'],
  }
  const dns = new DnsServer(zone)
  beforeAll(() => dns.start())
  afterAll(() => dns.stop())

  // The resolver may print an address its own way (::ffff:7f00:1 as ::ffff:127.0.0.1): the name is what counts.
  test.each(Object.keys(zone).filter((name) => name.endsWith('.evil.test')))('%s is refused', async (name) => {
    await expect(assertPublicHost(name, dns.resolveAll)).rejects.toThrow(
      new RegExp(`^refused to fetch from ${name}: \\S+ is a private`),
    )
  })

  test('a name whose every answer is public passes', async () => {
    expect(await dns.resolveAll('public.good.test')).toHaveLength(3) // the resolver really asked our server
    await assertPublicHost('public.good.test', dns.resolveAll)
  })
})

describe('the feed fetcher', () => {
  test.each([
    'http://[::127.0.0.1]:1/feed.xml',
    'http://[::ffff:7f00:1]:1/feed.xml',
    'http://[::ffff:0:7f00:1]:1/feed.xml',
    'http://[64:ff9b::7f00:1]:1/feed.xml',
    'http://[2002:a9fe:a9fe::]:1/feed.xml',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:1/feed.xml',
  ])('refuses %s before connecting', async (url) => {
    await expect(fetchFeed(url, { etag: null, lastModified: null }, FEED_FETCH_DEFAULTS)).rejects.toThrow(
      'is a private, loopback or link-local address',
    )
  })
})
