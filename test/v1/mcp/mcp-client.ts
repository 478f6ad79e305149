/**
 * The MCP SDK's own client, speaking Streamable HTTP to the test app in-process (its fetch is app.handle), for
 * the MCP tests of this folder. Every client connected in a test is closed after it.
 */
import { afterEach } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { TestApi } from '../../support/app'

export type ToolResult = { content: { type: string; text: string }[]; isError?: boolean }

/** `connect(key)` with the app's own key by default, or none (null). */
export function mcpClients(api: TestApi) {
  const clients: Client[] = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
  })
  return async function connect(key: string | null = api.key): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/api/v1/mcp'), {
      fetch: (url, init) => api.app.handle(new Request(url, init)),
      requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    })
    const client = new Client({ name: 'geroscope-test', version: '1.0.0' })
    await client.connect(transport)
    clients.push(client)
    return client
  }
}
