/**
 * A local DNS server over UDP that answers A and AAAA questions from a table, so code that resolves
 * names can be tested with real DNS answers (the records a hostile zone could publish) through a
 * real resolver (node:dns's Resolver pointed at it). Unknown names get NXDOMAIN.
 */
import { createSocket, type Socket } from 'node:dgram'
import { Resolver } from 'node:dns/promises'
import * as packet from 'dns-packet'

export type Zone = Record<string, string[]> // name -> addresses, IPv4 and IPv6 mixed

export class DnsServer {
  private socket: Socket | null = null
  port = 0

  constructor(private readonly zone: Zone) {}

  async start(): Promise<void> {
    const socket = createSocket('udp4')
    socket.on('message', (message, remote) => {
      const query = packet.decode(message)
      const question = query.questions?.[0]
      const known = question ? this.zone[question.name.toLowerCase()] : undefined
      const family = question?.type === 'AAAA' ? ':' : '.'
      const answers = (known ?? [])
        .filter((a) => a.includes(family) && (family === ':' || !a.includes(':')))
        .map((data) => ({ type: question!.type as 'A' | 'AAAA', name: question!.name, ttl: 60, data }))
      const reply = packet.encode({
        id: query.id,
        type: 'response',
        flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3: NXDOMAIN
        questions: query.questions,
        answers,
      })
      socket.send(reply, remote.port, remote.address)
    })
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
    this.socket = socket
    this.port = socket.address().port
  }

  /** Every address of a name, as a resolver using this server sees them (A, then AAAA). */
  resolveAll = async (host: string): Promise<string[]> => {
    const resolver = new Resolver({ timeout: 2000, tries: 1 })
    resolver.setServers([`127.0.0.1:${this.port}`])
    const quietly = (p: Promise<string[]>) =>
      p.catch((error: { code?: string }) => {
        if (error.code === 'ENODATA' || error.code === 'ENOTFOUND') return []
        throw error
      })
    const [v4, v6] = await Promise.all([quietly(resolver.resolve4(host)), quietly(resolver.resolve6(host))])
    return [...v4, ...v6]
  }

  stop(): void {
    this.socket?.close()
    this.socket = null
  }
}
