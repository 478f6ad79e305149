/**
 * Feed URLs come from operators, but a feed can redirect anywhere: every hop's host is resolved and
 * refused when any of its addresses is private, loopback, link-local or otherwise not the public
 * internet (server-side request forgery). The check and the connection resolve separately, so a
 * hostile DNS server could still answer differently the second time (rebinding); that risk is
 * accepted for operator-chosen feeds.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'

function v4Parts(ip: string): number[] {
  return ip.split('.').map(Number)
}

function privateV4(ip: string): boolean {
  const [a, b] = v4Parts(ip)
  return a === 0 || a === 10 || a === 127 || a >= 224 // this network, private, loopback, multicast and reserved
    || (a === 100 && b >= 64 && b <= 127) // carrier-grade NAT
    || (a === 169 && b === 254) // link-local
    || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168)
    || (a === 192 && b === 0 && v4Parts(ip)[2] === 0) // IETF protocol assignments
    || (a === 198 && (b === 18 || b === 19)) // benchmarking
}

/** The eight 16-bit groups of an IPv6 address (with an embedded IPv4 tail expanded). */
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

function privateV6(ip: string): boolean {
  const g = v6Groups(ip)
  if (g.slice(0, 7).every((x) => x === 0)) return g[7] === 0 || g[7] === 1 // unspecified, loopback
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) { // IPv4-mapped
    return privateV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`)
  }
  return (g[0] & 0xfe00) === 0xfc00 // unique local
    || (g[0] & 0xffc0) === 0xfe80 // link-local
    || (g[0] & 0xff00) === 0xff00 // multicast
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

/** Throws unless every address the host resolves to is public. */
export async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)
  for (const address of addresses) {
    if (isPrivateAddress(address)) throw new RefusedAddressError(host, address)
  }
}
