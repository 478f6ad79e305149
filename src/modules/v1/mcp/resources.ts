/**
 * MCP resources: one paper, one entity, one topic (and the list of topics) as JSON, read through the Data API
 * in-process like the tools (./tools.ts), so the caller's key, its limits and the licence rule apply. A resource
 * that does not exist is the JSON-RPC error MCP gives for it (-32002) with the API's own message.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { followEntityRedirect, segment, type ApiCall } from './tools'

/** MCP's code for a resource that was not found. */
const RESOURCE_NOT_FOUND = -32002

async function read(call: ApiCall, uri: URL, path: string) {
  return contents(uri, await call(path))
}

async function contents(uri: URL, response: Response) {
  const body = await response.text()
  if (!response.ok) {
    const error = (JSON.parse(body) as { error?: { code: string; message: string } }).error
    const code = response.status === 404 ? RESOURCE_NOT_FOUND : -32602
    throw new McpError(code, `${response.status} ${error?.code ?? 'error'}: ${error?.message ?? response.statusText}`)
  }
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: body }] }
}

/**
 * A template variable as a path segment: the URI holds it percent-encoded (or not), the path encodes it once, as the
 * tools do (./tools.ts, segment); a dot segment, which would reach another route, is a resource not found.
 */
function one(value: string | string[]): string {
  const raw = Array.isArray(value) ? value[0] : value
  let decoded = raw
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    // A lone "%" is the character itself.
  }
  const encoded = segment(decoded)
  if (encoded === null) throw new McpError(RESOURCE_NOT_FOUND, `no resource named ${JSON.stringify(decoded)}`)
  return encoded
}

export function registerResources(server: McpServer, call: ApiCall): void {
  server.registerResource(
    'topics',
    'geroscope://topics',
    {
      title: 'Topics',
      description: 'Every topic with its slug, name, description and paper counts.',
      mimeType: 'application/json',
    },
    (uri) => read(call, uri, '/api/v1/topics'),
  )

  server.registerResource(
    'paper',
    new ResourceTemplate('geroscope://papers/{id}', { list: undefined }),
    {
      title: 'Paper',
      description: 'One paper by id (MED-123, PPR-45), pmid:N or doi:10.x/y: judgement, story, entities, claims.',
      mimeType: 'application/json',
    },
    (uri, { id }) => read(call, uri, `/api/v1/papers/${one(id)}`),
  )

  server.registerResource(
    'entity',
    new ResourceTemplate('geroscope://entities/{type}/{key}', { list: undefined }),
    {
      title: 'Entity',
      description: 'One entity by type and key, name or alias (gene/SIRT1, intervention/rapamycin) with its papers.',
      mimeType: 'application/json',
    },
    async (uri, { type, key }) =>
      // Another of its names answers 308 with the entity's own address: read that one, as get_entity does.
      contents(uri, await followEntityRedirect(call, await call(`/api/v1/entities/${one(type)}/${one(key)}`))),
  )

  server.registerResource(
    'topic',
    new ResourceTemplate('geroscope://topics/{slug}', {
      list: async () => {
        const topics = (await (await call('/api/v1/topics')).json()) as {
          data: { slug: string; name: string; description: string }[]
        }
        return {
          resources: topics.data.map((t) => ({
            uri: `geroscope://topics/${t.slug}`,
            name: t.name,
            description: t.description,
            mimeType: 'application/json',
          })),
        }
      },
    }),
    {
      title: 'Topic',
      description: 'One topic with its newest papers of relevance 2 or more.',
      mimeType: 'application/json',
    },
    (uri, { slug }) => read(call, uri, `/api/v1/papers?topic=${one(slug)}`),
  )
}
