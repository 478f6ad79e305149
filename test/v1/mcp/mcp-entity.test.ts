/**
 * MCP get_entity: its arguments are checked as the route checks them
 * (the type one of the entity types), and the key is sent so that it stays a key: "..", "." or a
 * key holding "/" can never make the in-process call reach another route (/stats, /papers, the
 * entity list). And an entity can be asked for by any of its names, as on the route.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { entities } from '../../../src/db/schema'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { entityAliases } from '../../../src/lexicon/aliases'
import { req, useTestApp } from '../../support/app'
import { mcpClients, type ToolResult } from './mcp-client'
import { bearer, insertEntity, insertPapers, linkEntity, paperRow } from '../../support/fixtures'

const api = useTestApp()
const connect = mcpClients(api)
const getEntity = async (args: Record<string, unknown>) =>
  (await (await connect()).callTool({ name: 'get_entity', arguments: args })) as ToolResult

/** An entity row with the aliases the lexicon gives it, as the analysis stores it. */
async function entity(type: string, key: string, name: string) {
  const row = await insertEntity(api.database.db, type, key, name)
  await api.database.db
    .update(entities)
    .set({ aliases: entityAliases(type, key, name) })
    .where(eq(entities.id, row.id))
  return row
}

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [paperRow({ id: 'MED-1' })])
  for (const [type, key, name] of [
    ['gene', 'NCBIGene:23411', 'SIRT1'],
    ['gene', 'NCBIGene:1029', 'CDKN2A'],
    ['intervention', 'CHEBI:9168', 'rapamycin'],
  ]) {
    await linkEntity(db, 'MED-1', '2026-10-02', (await entity(type, key, name)).id, 'target')
  }
  await refreshEntityCounts(db)
})

describe('get_entity arguments are checked as the route checks them', () => {
  // Before: `type: ".."` made the call /api/v1/entities/../stats, which URL parsing turns into /api/v1/stats.
  test.each([
    [{ type: '..', key: 'stats' }],
    [{ type: '..', key: 'papers' }],
    [{ type: '.', key: 'x' }],
    [{ type: 'gene/../..', key: 'stats' }],
    [{ type: 'genes', key: 'SIRT1' }],
  ])('an unknown type is refused without a call: %j', async (args) => {
    const result = await getEntity(args)
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toContain('type')
    expect(result.content[0].text).not.toMatch(/"data"|paper_count|papers_total/)
  })

  test.each(['..', '.', '../../stats', '../../../api/v1/stats', '/', 'a/../../..'])(
    'key %p stays a key: a 404, never another route',
    async (key) => {
      const result = await getEntity({ type: 'gene', key })
      expect(result.isError).toBe(true)
      expect(result.content[0].text).toStartWith('404 not_found:')
    },
  )

  test('an empty key is refused', async () => {
    expect((await getEntity({ type: 'gene', key: '' })).isError).toBe(true)
  })
})

describe('get_entity by any name', () => {
  test.each([
    ['gene', 'NCBIGene:23411', 'NCBIGene:23411'],
    ['gene', 'SIRT1', 'NCBIGene:23411'],
    ['gene', 'sirtuin 1', 'NCBIGene:23411'],
    ['gene', 'p16', 'NCBIGene:1029'],
    ['intervention', 'sirolimus', 'CHEBI:9168'],
  ])('%s %p is the entity %s, as its own URL answers', async (type, key, canonical) => {
    const result = await getEntity({ type, key, limit: 1 })
    expect(result.isError).toBeFalsy()
    const viaHttp = await (
      await api.app.handle(req(`/api/v1/entities/${type}/${encodeURIComponent(canonical)}?limit=1`, bearer(api.key)))
    ).json()
    expect(JSON.parse(result.content[0].text)).toEqual(viaHttp)
  })

  test("an unknown name is the route's 404", async () => {
    const result = await getEntity({ type: 'gene', key: 'NOSUCHGENE' })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toStartWith('404 not_found:')
  })
})
