/** A TCP proxy in front of PostgreSQL that a test can cut and restore, to play a database outage. */
import type { Socket, TCPSocketListener } from 'bun'

type Pair = { client: Socket<{ upstream?: Socket<unknown> }>; upstream?: Socket<unknown> }

export class TcpProxy {
  private listener: TCPSocketListener<{ upstream?: Socket<unknown>; pending: Uint8Array[] }> | null = null
  private sockets = new Set<Socket<unknown>>()
  port = 0

  constructor(private targetHost: string, private targetPort: number) {}

  /** Starts accepting (again) on the same port once it has one. */
  start(): void {
    const proxy = this
    this.listener = Bun.listen<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>({
      hostname: '127.0.0.1',
      port: this.port,
      socket: {
        open(client) {
          client.data = { pending: [] }
          proxy.sockets.add(client)
          Bun.connect<unknown>({
            hostname: proxy.targetHost,
            port: proxy.targetPort,
            socket: {
              open(upstream) {
                proxy.sockets.add(upstream)
                client.data.upstream = upstream
                for (const chunk of client.data.pending) upstream.write(chunk)
                client.data.pending = []
              },
              data(_upstream, chunk) { client.write(chunk) },
              close() { client.end() },
              error() { client.end() },
            },
          }).catch(() => client.end())
        },
        data(client, chunk) {
          if (client.data.upstream) client.data.upstream.write(chunk)
          else client.data.pending.push(new Uint8Array(chunk))
        },
        close(client) { client.data.upstream?.end() },
        error(client) { client.data.upstream?.end() },
      },
    })
    this.port = this.listener.port
  }

  /** Stops listening and drops every open connection, as a crashed database would. */
  cut(): void {
    this.listener?.stop(true)
    this.listener = null
    for (const socket of this.sockets) socket.end()
    this.sockets.clear()
  }
}
