/**
 * The client's address, for the admin interface's per-address rate limit. It is the socket's peer
 * address (src/platform/peer-address.ts), unless TRUST_PROXY says which proxies stand in front of
 * the service: then X-Forwarded-For is read from the right, and only as far as the trusted proxies
 * reach, so a client cannot choose its own address by sending the header itself.
 *
 * TRUST_PROXY is `off` (the default: the header is never read), a number of proxy hops (`1` = one
 * reverse proxy: the address it saw, the last entry of X-Forwarded-For), or a comma-separated list
 * of proxy addresses and CIDR ranges (`10.0.0.0/8, 127.0.0.1`): entries are skipped from the right
 * while they are trusted proxies, and the first one that is not is the client.
 */
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6
type Range = [Address, number]

export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'ranges'; ranges: Range[]; text: string[] }

export const MAX_PROXY_HOPS = 10

/** Reads the TRUST_PROXY value; throws an Error whose message completes "TRUST_PROXY ...". */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === 'off' || value === '0') return { kind: 'none' }
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops > MAX_PROXY_HOPS) throw new Error(`must be at most ${MAX_PROXY_HOPS} proxy hops (got "${value}")`)
    return { kind: 'hops', hops }
  }
  const text = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  const ranges = text.map((part): Range => {
    try {
      if (part.includes('/')) {
        const [address, bits] = ipaddr.parseCIDR(part)
        return [normalise(address), normalise(address).kind() === address.kind() ? bits : bits - 96]
      }
      const address = normalise(ipaddr.parse(part))
      return [address, address.kind() === 'ipv4' ? 32 : 128]
    } catch {
      throw new Error(
        `must be off, a number of proxy hops (1 to ${MAX_PROXY_HOPS}), or a comma-separated list of proxy addresses ` +
          `or CIDR ranges (got "${part}")`,
      )
    }
  })
  if (ranges.length === 0) throw new Error('must name at least one proxy address or range')
  return { kind: 'ranges', ranges, text }
}

/** IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address it carries. */
function normalise(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address
}

function parseAddress(text: string): Address | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(bare)) return null
  try {
    return normalise(ipaddr.parse(bare))
  } catch {
    return null
  }
}

function trusted(address: Address, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))
}

/**
 * The client address for a request whose socket peer is `peer` (null when unknown, as for requests
 * handed to the app in-process), given its X-Forwarded-For header. Returns a normalised address, or
 * "unknown".
 */
export function clientAddress(peer: string | null, forwardedFor: string | null, trust: TrustProxy): string {
  const socket = peer === null ? null : parseAddress(peer)
  if (trust.kind === 'none' || !forwardedFor) return socket?.toString() ?? 'unknown'
  // The chain as the last proxy hands it to us: client first, each proxy's peer after it, the socket last.
  const forwarded = forwardedFor.split(',').map(parseAddress)
  const chain: (Address | null)[] = [...forwarded, socket]
  let at = chain.length - 1
  if (trust.kind === 'hops') {
    for (let hop = 0; hop < trust.hops && at > 0 && chain[at - 1] !== null; hop++) at--
  } else {
    // Without a known socket address there is no proof the header came through a trusted proxy.
    while (at > 0 && chain[at] !== null && trusted(chain[at]!, trust.ranges) && chain[at - 1] !== null) at--
  }
  return chain[at]?.toString() ?? 'unknown'
}

/**
 * The rate-limit bucket of an address: IPv6 clients usually hold a whole /64, so they are counted by
 * it; otherwise one client could take a fresh address for every few requests.
 */
export function addressBucket(address: string): string {
  const parsed = parseAddress(address)
  if (!parsed) return address
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16))
  return `${parts.join(':')}::/64`
}
