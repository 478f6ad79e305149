import { beforeAll, describe, expect, test } from 'bun:test'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { req, useTestApp } from '../../support/app'
import { mcpClients, type ToolResult } from './mcp-client'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../../support/fixtures'

// The rate-limit tests count within one minute: a frozen clock keeps a slow run from crossing into the next.
const frozen = new Date()
const api = useTestApp(() => ({ now: () => frozen }))
const connect = mcpClients(api)
const json = (result: unknown) => JSON.parse((result as ToolResult).content[0].text)

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [paperRow({ id: 'MED-1', doi: '10.1000/mcp.1' }), paperRow({ id: 'MED-2' })])
  await insertStory(db, 'MED-1')
  const gene = await insertEntity(db, 'gene', 'HGNC:3942', 'MTOR', { hgnc: 'HGNC:3942' })
  await linkEntity(db, 'MED-1', '2026-10-02', gene.id, 'target')
  await insertClaim(db, { paperId: 'MED-1', objectEntityId: gene.id })
  await refreshEntityCounts(db)
})

describe('the MCP endpoint, through the SDK client', () => {
  test('lists the ten tools, read-only, each with an output schema', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'find_entities',
      'get_entity',
      'get_evidence',
      'get_paper',
      'get_papers',
      'get_stats',
      'list_claims',
      'list_stories',
      'list_topics',
      'search_papers',
    ])
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true)
    expect(tools.filter((t) => t.outputSchema?.type !== 'object').map((t) => t.name)).toEqual([])
    // The study types an agent is told are the ones the API takes.
    const search = tools.find((t) => t.name === 'search_papers')!
    expect((search.inputSchema.properties as Record<string, { description: string }>).study_type.description).toContain(
      'human_trial, human_observational',
    )
  })

  test('says what the service is and how to use its tools when a client connects', async () => {
    const client = await connect()
    const instructions = client.getInstructions() ?? ''
    expect(instructions).toContain('ageing biology')
    for (const tool of ['search_papers', 'get_evidence', 'list_topics', 'next_cursor'])
      expect(instructions).toContain(tool)
  })

  test('every tool answers structured content equal to its text, as its output schema describes', async () => {
    const client = await connect()
    const calls: [string, Record<string, unknown>][] = [
      ['search_papers', { q: 'rapamycin', limit: 1 }],
      ['get_paper', { id: 'MED-1' }],
      ['get_papers', { ids: ['MED-1', 'MED-9'] }],
      ['list_stories', {}],
      ['find_entities', { q: 'mtor' }],
      ['get_entity', { type: 'gene', key: 'MTOR' }],
      ['list_claims', {}],
      ['list_claims', { count: true }],
      ['list_claims', { group_by: 'organism' }],
      ['get_evidence', { subject: 'MTOR', object: 'lifespan' }],
      ['get_stats', {}],
      ['list_topics', {}],
    ]
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult & { structuredContent?: unknown }
      expect({ name, args, isError: result.isError ?? false }).toEqual({ name, args, isError: false })
      expect(result.structuredContent).toEqual(json(result))
    }
    const topics = (await client.callTool({ name: 'list_topics', arguments: {} })) as ToolResult & {
      structuredContent: { data: { slug: string }[] }
    }
    expect(topics.structuredContent.data.map((t) => t.slug)).toContain('senescence')
  })

  test('each tool answers what the HTTP API answers', async () => {
    const client = await connect()
    const same = async (tool: string, args: Record<string, unknown>, path: string) => {
      const viaMcp = json(await client.callTool({ name: tool, arguments: args }))
      const viaHttp = await (await api.app.handle(req(path, bearer(api.key)))).json()
      expect({ tool, answer: viaMcp }).toEqual({ tool, answer: viaHttp })
    }
    await same(
      'search_papers',
      { q: 'rapamycin', limit: 1, fields: 'id,score' },
      '/api/v1/search?q=rapamycin&limit=1&fields=id,score',
    )
    await same('get_paper', { id: 'MED-1' }, '/api/v1/papers/MED-1')
    await same('get_paper', { id: 'doi:10.1000/mcp.1', fields: 'id' }, '/api/v1/papers/doi:10.1000/mcp.1?fields=id')
    await same('list_stories', {}, '/api/v1/stories')
    await same('find_entities', { q: 'mtor' }, '/api/v1/entities?q=mtor')
    await same('get_entity', { type: 'gene', key: 'HGNC:3942' }, '/api/v1/entities/gene/HGNC%3A3942')
    await same(
      'list_claims',
      { relation: 'extends_lifespan', count: true, group_by: 'organism' },
      '/api/v1/claims?relation=extends_lifespan&count=true&group_by=organism',
    )
    await same('get_stats', {}, '/api/v1/stats')
    const batch = json(await client.callTool({ name: 'get_papers', arguments: { ids: ['MED-2', 'pmid:1', 'MED-9'] } }))
    expect(batch.data.map((p: { id: string } | null) => p?.id ?? null)).toEqual(['MED-2', 'MED-1', null])
    expect(batch.not_found).toEqual(['MED-9'])
  })

  test('an API error is a tool error with the contract message', async () => {
    const client = await connect()
    const result = (await client.callTool({
      name: 'search_papers',
      arguments: { q: 'rapamycin', topic: 'aging' },
    })) as ToolResult
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toStartWith('400 invalid_parameter: topic has unknown value "aging"')
    const missing = (await client.callTool({ name: 'get_paper', arguments: { id: 'MED-404' } })) as ToolResult
    expect(missing).toMatchObject({ isError: true, content: [{ text: '404 not_found: no paper with id "MED-404"' }] })
  })

  test('arguments of the wrong type are refused by the tool schema', async () => {
    const client = await connect()
    const result = (await client.callTool({ name: 'get_papers', arguments: { ids: 'MED-1' } })) as ToolResult
    expect(result.isError).toBe(true)
  })
})

describe('resources and prompts', () => {
  test('papers, entities and topics are resources; each reads what the API answers', async () => {
    const client = await connect()
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toContain('geroscope://topics')
    expect(resources.map((r) => r.uri)).toContain('geroscope://topics/senescence')
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'geroscope://entities/{type}/{key}',
      'geroscope://papers/{id}',
      'geroscope://topics/{slug}',
    ])
    const http = async (path: string) => (await api.app.handle(req(path, bearer(api.key)))).json()
    const text = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)
    expect(await text('geroscope://papers/MED-1')).toEqual(await http('/api/v1/papers/MED-1'))
    expect(await text('geroscope://entities/gene/HGNC%3A3942')).toEqual(await http('/api/v1/entities/gene/HGNC%3A3942'))
    // An entity by another of its names is the same resource.
    expect(await text('geroscope://entities/gene/MTOR')).toEqual(await http('/api/v1/entities/gene/HGNC%3A3942'))
    expect(await text('geroscope://topics')).toEqual(await http('/api/v1/topics'))
    expect(await text('geroscope://topics/senescence')).toEqual(await http('/api/v1/papers?topic=senescence'))
  })

  test('a resource that does not exist is the MCP not-found error with the API message', async () => {
    const client = await connect()
    await expect(client.readResource({ uri: 'geroscope://papers/MED-404' })).rejects.toThrow(
      '404 not_found: no paper with id "MED-404"',
    )
    await expect(client.readResource({ uri: 'geroscope://topics/aging' })).rejects.toThrow(
      'topic has unknown value "aging"',
    )
  })

  test('prompts for common research questions name the tools that answer them', async () => {
    const client = await connect()
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name).sort()).toEqual(['entity_profile', 'summarise_evidence', 'whats_new'])
    const got = await client.getPrompt({
      name: 'summarise_evidence',
      arguments: { intervention: 'rapamycin', outcome: 'lifespan' },
    })
    const message = (got.messages[0].content as { text: string }).text
    expect(message).toContain('get_evidence with subject "rapamycin" and object "lifespan"')
    await expect(
      client.getPrompt({ name: 'summarise_evidence', arguments: { intervention: 'rapamycin' } }),
    ).rejects.toThrow()
  })
})

describe('keys and limits', () => {
  test('no key, a bad key, a revoked key: the contract 401s', async () => {
    await expect(connect(null)).rejects.toThrow()
    await expect(connect('grk_aaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')).rejects.toThrow()
    const raw = await api.app.handle(
      req('/api/v1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    )
    expect(raw.status).toBe(401)
    expect((await raw.json()).error.code).toBe('missing_key')
    const revoked = await createTestKey(api.database.db, { revoked: true })
    await expect(connect(revoked.key)).rejects.toThrow()
  })

  test('each message counts once against the key, tool calls included; a batch of 500 ids costs 5', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const client = await connect(member.key) // initialize, the initialized notification, the client's try at an event stream
    const used = async () =>
      Number((await api.app.handle(req('/api/v1/stats', bearer(member.key)))).headers.get('x-ratelimit-used'))
    const before = await used()
    await client.callTool({ name: 'get_paper', arguments: { id: 'MED-1' } }) // 1
    await client.callTool({
      name: 'get_papers',
      arguments: { ids: Array.from({ length: 500 }, (_, i) => `MED-${i + 1}`) },
    }) // 1, plus 4 for the batch
    expect(await used()).toBe(before + 1 + 5 + 1)
  })

  test('an exhausted minute refuses the tool call with the rate-limit message', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const client = await connect(member.key)
    for (let i = 0; i < 11; i++)
      await client.callTool({
        name: 'get_papers',
        arguments: { ids: Array.from({ length: 500 }, (_, j) => `MED-${j + 1}`) },
      })
    // 2 + 55 used: the next 500 ids do not fit in the minute
    const refused = (await client.callTool({
      name: 'get_papers',
      arguments: { ids: Array.from({ length: 500 }, (_, j) => `MED-${j + 1}`) },
    })) as ToolResult
    expect(refused.isError).toBe(true)
    expect(refused.content[0].text).toStartWith('429 rate_limited')
  })

  test('a client cannot make its own requests uncounted', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const headers = { authorization: `Bearer ${member.key}`, 'x-internal': '1', 'x-forwarded-for': '127.0.0.1' }
    await api.app.handle(req('/api/v1/stats', { headers }))
    const second = await api.app.handle(req('/api/v1/stats', { headers }))
    expect(second.headers.get('x-ratelimit-used')).toBe('2')
  })
})
