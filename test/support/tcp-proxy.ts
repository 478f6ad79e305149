/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to play a database outage.
 * node:net streams, piped, so a write the kernel takes only in part is finished later rather than
 * lost (a lost chunk leaves a query waiting for ever).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export class TcpProxy {
  private server: Server | null = null
  private sockets = new Set<Socket>()
  private stranded = false
  port = 0

  constructor(
    private targetHost: string,
    private targetPort: number,
  ) {}

  /** Starts accepting (again) on the same port once it has one. */
  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.stranded) return void client.end() // accepted, then closed without a word
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort })
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => {}) // the other side's close ends the pair
      }
      client.pipe(upstream).on('close', () => client.destroy())
      upstream.pipe(client).on('close', () => upstream.destroy())
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    const server = this.server
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
  }

  /**
   * Drops every open connection and goes on accepting new ones only to close them at once, without a
   * word: a TCP load balancer whose database is gone. `restore()` ends it.
   */
  strand(): void {
    this.stranded = true
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }

  restore(): void {
    this.stranded = false
  }

  /** Stops listening and drops every open connection, as a crashed database would. */
  cut(): void {
    this.server?.close()
    this.server = null
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }
}
