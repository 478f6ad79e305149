/**
 * Claims resolved to entities: a side stored without an entity whose text is a lexicon name or
 * alias, in any case ("rapamycin", "Sirolimus", "p16INK4a", "temsirolimus"), is read again and gets its entity
 * (src/pipeline/analysis/resolve-claim-sides.ts), and /claims?subject= finds an entity's claims by any of its names, and
 * the unresolved sides that hold one of those names as a whole word, never a longer word holding it:
 * sirolimus is rapamycin, never temsirolimus or everolimus.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { claims, entities } from '../../../src/db/schema'
import { entityAliases } from '../../../src/lexicon/aliases'
import { resolveClaimSides } from '../../../src/pipeline/analysis/resolve-claim-sides'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { createTestKey, insertClaim, insertPapers, paperRow } from '../../support/fixtures'
import { getter, knowledgeApp, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let get: ReturnType<typeof getter>
const ids: Record<string, number> = {}

/** A lexicon entity as the analysis stores it: with its aliases. */
async function entity(type: string, entityKey: string, name: string) {
  const [row] = await database.db
    .insert(entities)
    .values({ type, key: entityKey, name, ids: {}, aliases: entityAliases(type, entityKey, name), paperCount: 1 })
    .returning()
  return row.id
}

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  get = getter(await knowledgeApp(database), () => key)
  key = (await createTestKey(db, { tier: 'pro' })).key
  await insertPapers(db, [paperRow({ id: 'MED-701' }), paperRow({ id: 'MED-702' })])
  const rapamycin = await entity('intervention', 'CHEBI:9168', 'rapamycin')
  const everolimus = await entity('intervention', 'CHEBI:68478', 'everolimus')
  await entity('gene', 'NCBIGene:1029', 'CDKN2A')
  let second = 0
  const add = async (name: string, subjectText: string, subjectEntityId: number | null = null) => {
    ids[name] = (
      await insertClaim(db, {
        paperId: 'MED-701',
        subjectText,
        subjectEntityId,
        createdAt: new Date(Date.UTC(2026, 9, 1, 0, 0, ++second)),
      })
    ).id
  }
  await add('resolved', 'rapamycin', rapamycin) // resolved when it was stored
  await add('rapamycinWritten', 'rapamycin') // written exactly as the lexicon's name, left unresolved (the demo corpus does this)
  await add('sirolimusWritten', 'Sirolimus') // a synonym, capitalised
  await add('temsirolimus', 'temsirolimus') // its own entity, not yet in the database
  await add('temsirolimusPhrase', 'temsirolimus-treated cells') // no entity: a phrase holding temsirolimus
  await add('everolimus', 'everolimus', everolimus)
  await add('lowDose', 'low-dose sirolimus therapy') // no entity: a phrase holding sirolimus as a word
  await add('p16', 'p16INK4a')
  await add('P16', 'P16-INK4A')
  ids.objectSide = (
    await insertClaim(db, {
      paperId: 'MED-702',
      subjectText: 'senescent cells',
      objectText: 'SIROLIMUS',
      createdAt: new Date(Date.UTC(2026, 9, 1, 0, 1)),
    })
  ).id
})
afterAll(async () => {
  await database.close()
})

const names = (pages: any[]) =>
  pages.flatMap((p) => p.data.map((c: { id: number }) => Object.entries(ids).find(([, id]) => id === c.id)?.[0])).sort()

describe('GET /api/v1/claims by an entity and all its names', () => {
  test('before the sides are read again, a longer word holding the name is still never found', async () => {
    // The unresolved sides holding a name of rapamycin as a whole word count; temsirolimus does not.
    const pages = await walk(get, '/api/v1/claims?subject=sirolimus&limit=2')
    expect(names(pages)).toEqual(['lowDose', 'rapamycinWritten', 'resolved', 'sirolimusWritten'])
  })

  test('stored sides written as lexicon names get their entity, once, in batches', async () => {
    const first = await resolveClaimSides(database.db, 2)
    // Every claim: each object side is "lifespan" (the phenotype) but the last, "SIROLIMUS"; and the subjects
    // rapamycin, Sirolimus, temsirolimus, p16INK4a and P16-INK4A.
    expect(first).toEqual({ read: 10, resolved: 10 })
    expect(await resolveClaimSides(database.db, 2)).toEqual({ read: 0, resolved: 0 })
    const side = async (name: string) =>
      (await get(`/api/v1/claims?paper_id=${name === 'objectSide' ? 'MED-702' : 'MED-701'}&limit=100`)).body.data.find(
        (c: { id: number }) => c.id === ids[name],
      )
    expect((await side('rapamycinWritten')).subject).toMatchObject({
      text: 'rapamycin',
      entity: { type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' },
    })
    expect((await side('sirolimusWritten')).subject.entity).toMatchObject({ key: 'CHEBI:9168' })
    expect((await side('temsirolimus')).subject.entity).toMatchObject({ type: 'intervention', key: 'temsirolimus' })
    expect((await side('p16')).subject.entity).toMatchObject({ type: 'gene', key: 'NCBIGene:1029', name: 'CDKN2A' })
    expect((await side('P16')).subject.entity).toMatchObject({ key: 'NCBIGene:1029' })
    expect((await side('objectSide')).object.entity).toMatchObject({ key: 'CHEBI:9168' })
    // Phrases are no names: they stay unresolved.
    expect((await side('lowDose')).subject.entity).toBeNull()
    expect((await side('temsirolimusPhrase')).subject.entity).toBeNull()
  })

  test('subject=sirolimus finds the rapamycin- and Sirolimus-written claims, never temsirolimus or everolimus', async () => {
    for (const value of ['sirolimus', 'SIROLIMUS', 'Rapamycin', 'CHEBI:9168']) {
      const pages = await walk(get, `/api/v1/claims?subject=${encodeURIComponent(value)}&limit=2`)
      expect(names(pages)).toEqual(['lowDose', 'rapamycinWritten', 'resolved', 'sirolimusWritten'])
    }
    expect(names(await walk(get, '/api/v1/claims?subject=temsirolimus'))).toEqual([
      'temsirolimus',
      'temsirolimusPhrase',
    ])
    expect(names(await walk(get, '/api/v1/claims?subject=everolimus'))).toEqual(['everolimus'])
    expect(names(await walk(get, '/api/v1/claims?object=sirolimus'))).toEqual(['objectSide'])
  })

  test('subject=p16INK4a resolves to CDKN2A and finds its claims however they were written', async () => {
    for (const value of ['p16INK4a', 'p16', 'CDKN2A', 'cdkn2a']) {
      const { body } = await get(`/api/v1/claims?subject=${value}`)
      expect(body.data.map((c: { id: number }) => c.id).sort()).toEqual([ids.p16, ids.P16].sort())
      expect(
        body.data.every((c: { subject: { entity: { key: string } } }) => c.subject.entity.key === 'NCBIGene:1029'),
      ).toBe(true)
    }
  })

  test('counts agree with the list', async () => {
    const { body } = await get('/api/v1/claims?subject=sirolimus&count=true')
    expect(body.pagination.total).toBe(4)
  })

  test('a value naming no entity is still a substring of the side text', async () => {
    // "siroli" names nothing: the contract's substring reading, which does find temsirolimus.
    expect(names(await walk(get, '/api/v1/claims?subject=siroli'))).toEqual([
      'lowDose',
      'sirolimusWritten',
      'temsirolimus',
      'temsirolimusPhrase',
    ])
  })

  test('claims stored after a run are read by the next, from where it stopped', async () => {
    const late = await insertClaim(database.db, {
      paperId: 'MED-702',
      subjectText: 'Everolimus',
      createdAt: new Date(Date.UTC(2026, 9, 2)),
    })
    expect(await resolveClaimSides(database.db)).toEqual({ read: 1, resolved: 1 })
    const [row] = await database.db.select().from(claims).where(eq(claims.id, late.id))
    const [everolimus] = await database.db.select().from(entities).where(sql`key = 'CHEBI:68478'`)
    expect(row.subjectEntityId).toBe(everolimus.id)
  })
})
