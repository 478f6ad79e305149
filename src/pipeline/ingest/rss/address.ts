/**
 * Feed URLs come from operators, but a feed can redirect anywhere: every hop's host is resolved and
 * refused when any of its addresses is private, loopback, link-local or otherwise not the public
 * internet (server-side request forgery). The check and the connection resolve separately, so a
 * hostile DNS server could still answer differently the second time (rebinding); that risk is
 * accepted for operator-chosen feeds.
 *
 * IPv6 has several ways of carrying an IPv4 address inside it (IPv4-compatible, -mapped and
 * -translated, NAT64, 6to4, Teredo), and a host that answers with one of them reaches that IPv4
 * address through the machine's own stack or a translator on its network. Each is judged as the
 * IPv4 address it carries.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

function v4Parts(ip: string): number[] {
  return ip.split('.').map(Number)
}

function privateV4(ip: string): boolean {
  const [a, b] = v4Parts(ip)
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 || // this network, private, loopback, multicast and reserved
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && v4Parts(ip)[2] === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19))
  ) // benchmarking
}

/** The eight 16-bit groups of a valid IPv6 address (with an embedded IPv4 tail expanded). */
function v6Groups(ip: string): number[] {
  let address = ip.split('%')[0].toLowerCase()
  const tail = address.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (tail) {
    const [a, b, c, d] = v4Parts(tail[1])
    address = address.slice(0, -tail[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, rest] = address.split('::')
  const left = head ? head.split(':') : []
  const right = rest !== undefined && rest !== '' ? rest.split(':') : []
  const fill = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16))
}

/** Dotted IPv4 from two 16-bit groups. */
const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

const zero = (groups: number[]) => groups.every((g) => g === 0)

/**
 * The IPv4 addresses an IPv6 address carries, by the prefixes that define an embedding:
 * `::a.b.c.d` (IPv4-compatible, RFC 4291), `::ffff:a.b.c.d` (mapped), `::ffff:0:a.b.c.d`
 * (translated, RFC 2765), `64:ff9b::/96` (NAT64, RFC 6052), `2002::/16` (6to4, RFC 3056) and
 * `2001::/32` (Teredo, RFC 4380: the server in clear, the client's address inverted).
 */
export function embeddedIPv4(ip: string): string[] {
  if (isIP(ip) !== 6) return []
  const g = v6Groups(ip)
  if (zero(g.slice(0, 6))) return [v4Of(g[6], g[7])] // IPv4-compatible (and :: and ::1, which are 0.0.0.x)
  if (zero(g.slice(0, 5)) && g[5] === 0xffff) return [v4Of(g[6], g[7])]
  if (zero(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return [v4Of(g[6], g[7])]
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g.slice(2, 6))) return [v4Of(g[6], g[7])]
  if (g[0] === 0x2002) return [v4Of(g[1], g[2])]
  if (g[0] === 0x2001 && g[1] === 0) return [v4Of(g[2], g[3]), v4Of(g[6] ^ 0xffff, g[7] ^ 0xffff)]
  return []
}

function privateV6(ip: string): boolean {
  const g = v6Groups(ip)
  if (zero(g.slice(0, 7)) && g[7] <= 1) return true // unspecified, loopback
  const carried = embeddedIPv4(ip)
  if (carried.length > 0) return carried.some(privateV4)
  return (
    (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) || // NAT64 for local use (RFC 8215): never global
    (g[0] === 0x100 && zero(g.slice(1, 4))) || // discard-only (RFC 6666)
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xffc0) === 0xfec0 || // site-local (deprecated, still routed privately)
    (g[0] & 0xff00) === 0xff00
  ) // multicast
}

/** True for any address that is not on the public internet. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip)
  if (family === 4) return privateV4(ip)
  if (family === 6) return privateV6(ip)
  return true // not an address at all: refuse rather than guess
}

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`refused to fetch from ${host}: ${address} is a private, loopback or link-local address`)
    this.name = 'RefusedAddressError'
  }
}

/** Every address a host name resolves to; the system resolver (hosts file, then DNS) by default. */
export type ResolveAll = (host: string) => Promise<string[]>

const systemResolver: ResolveAll = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** Throws unless every address the host is or resolves to is public. */
export async function assertPublicHost(hostname: string, resolveAll: ResolveAll = systemResolver): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host) ? [host] : await resolveAll(host)
  for (const address of addresses) {
    if (isPrivateAddress(address)) throw new RefusedAddressError(host, address)
  }
}
