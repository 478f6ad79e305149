/** The MCP tool get_evidence: the answer of GET /api/v1/evidence, its errors as tool errors, its arguments checked as the route checks them. */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { entities } from '../../../src/db/schema'
import { req, useTestApp } from '../../support/app'
import { mcpClients, type ToolResult } from './mcp-client'
import { bearer, insertClaim, insertEntity, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()
const connect = mcpClients(api)

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [
    paperRow({ id: 'MED-1', studyType: 'animal' }),
    paperRow({ id: 'MED-2', studyType: 'human_trial' }),
  ])
  const rapamycin = await insertEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin')
  await db
    .update(entities)
    .set({ aliases: ['rapamycin', 'sirolimus'] })
    .where(eq(entities.id, rapamycin.id))
  const lifespan = await insertEntity(db, 'phenotype', 'lifespan', 'Lifespan')
  await insertClaim(db, { paperId: 'MED-1', subjectEntityId: rapamycin.id, objectEntityId: lifespan.id })
  await insertClaim(db, {
    paperId: 'MED-2',
    subjectEntityId: rapamycin.id,
    objectEntityId: lifespan.id,
    organism: 'Homo sapiens',
    direction: 'no_change',
  })
})

describe('get_evidence', () => {
  test('answers what GET /api/v1/evidence answers', async () => {
    const client = await connect()
    for (const [args, path] of [
      [{ subject: 'sirolimus', object: 'lifespan' }, '/api/v1/evidence?subject=sirolimus&object=lifespan'],
      [
        { subject: 'rapamycin', object: 'lifespan', organism: 'mice', study_type: 'animal' },
        '/api/v1/evidence?subject=rapamycin&object=lifespan&organism=mice&study_type=animal',
      ],
    ] as const) {
      const result = (await client.callTool({ name: 'get_evidence', arguments: args })) as ToolResult
      expect(result.isError).toBeFalsy()
      const viaHttp = await (await api.app.handle(req(path, bearer(api.key)))).json()
      expect(JSON.parse(result.content[0].text)).toEqual(viaHttp)
    }
    const both = JSON.parse(
      (
        (await client.callTool({
          name: 'get_evidence',
          arguments: { subject: 'rapamycin', object: 'lifespan' },
        })) as ToolResult
      ).content[0].text,
    )
    expect(
      both.data.groups.map((g: { organism: string; direction: string; claim_count: number }) => [
        g.organism,
        g.direction,
        g.claim_count,
      ]),
    ).toEqual([
      ['Homo sapiens', 'no_change', 1],
      ['Mus musculus', 'increase', 1],
    ])
  })

  test('an unknown subject or a bad value is a tool error with the contract message', async () => {
    const client = await connect()
    const unknown = (await client.callTool({
      name: 'get_evidence',
      arguments: { subject: 'unobtainium', object: 'lifespan' },
    })) as ToolResult
    expect(unknown.isError).toBe(true)
    expect(unknown.content[0].text).toStartWith('404 not_found: no entity is named "unobtainium"')
    const organism = (await client.callTool({
      name: 'get_evidence',
      arguments: { subject: 'rapamycin', object: 'lifespan', organism: 'unicorn' },
    })) as ToolResult
    expect(organism.isError).toBe(true)
    expect(organism.content[0].text).toStartWith('400 invalid_parameter: organism "unicorn" is not an organism')
    const studyType = (await client.callTool({
      name: 'get_evidence',
      arguments: { subject: 'rapamycin', object: 'lifespan', study_type: 'anecdote' },
    })) as ToolResult
    expect(studyType.content[0].text).toStartWith('400 invalid_parameter: study_type has unknown value "anecdote"')
  })

  test('arguments the route would refuse are refused by the tool schema', async () => {
    const client = await connect()
    for (const args of [
      { object: 'lifespan' },
      { subject: '', object: 'lifespan' },
      { subject: '   ', object: 'lifespan' },
      { subject: 'r'.repeat(201), object: 'lifespan' },
      { subject: 'rapamycin', object: 42 },
    ]) {
      const result = (await client.callTool({ name: 'get_evidence', arguments: args })) as ToolResult
      expect({ args, isError: result.isError }).toEqual({ args, isError: true })
    }
  })
})
