import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { resolveEntityName } from '../../src/lexicon/matcher'
import { applyLexicon } from '../../src/lexicon/apply'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

let database: TestDatabase
const papers = [paperRow(), paperRow(), paperRow()]
const [p1, p2, p3] = papers.map((p) => p.id)

/** Old key -> the key it must end up under. */
const MOVES: Record<string, string> = {
  'gene:HGNC:3942': 'gene:NCBIGene:2475', // renamed (no row under the new key yet)
  'gene:slc5a2': 'gene:NCBIGene:6524',
  'intervention:fisetin': 'intervention:PUBCHEM.COMPOUND:5281614',
  'gene:HGNC:1787': 'gene:NCBIGene:1029', // merged into the row already under the new key
  'gene:NCBIGene:1029': 'gene:NCBIGene:1029',
  'gene:sirt1': 'gene:NCBIGene:23411', // a name a model produced, resolved through the lexicon
  'mesh:D000375': 'mesh:D000375', // not a lexicon type: left alone
  'intervention:CHEBI:9168': 'intervention:CHEBI:9168',
}

type Link = string // paper|type:key|role
type ClaimRefs = string // claim id|subject type:key|object type:key

async function links(): Promise<Link[]> {
  const rows = await database.rows<{ paper_id: string; k: string; role: string }>(sql`
    select pe.paper_id, e.type || ':' || e.key as k, pe.role from paper_entities pe join entities e on e.id = pe.entity_id`)
  return rows.map((r) => `${r.paper_id}|${r.k}|${r.role}`).sort()
}

async function claimRefs(): Promise<ClaimRefs[]> {
  const rows = await database.rows<{ id: number; s: string | null; o: string | null }>(sql`
    select c.id, s.type || ':' || s.key as s, o.type || ':' || o.key as o from claims c
    left join entities s on s.id = c.subject_entity_id left join entities o on o.id = c.object_entity_id`)
  return rows.map((r) => `${r.id}|${r.s}|${r.o}`).sort()
}

const moved = (entries: string[]) =>
  [
    ...new Set(
      entries.map((line) =>
        line
          .split('|')
          .map((part) => MOVES[part] ?? part)
          .join('|'),
      ),
    ),
  ].sort()

let before: { links: Link[]; claims: ClaimRefs[] }

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  await insertPapers(db, papers)
  const ids: Record<string, number> = {}
  for (const [k, name] of [
    ['gene:HGNC:3942', 'MTOR'],
    ['gene:slc5a2', 'SLC5A2'],
    ['intervention:fisetin', 'fisetin'],
    ['gene:HGNC:1787', 'CDKN2A'],
    ['gene:NCBIGene:1029', 'CDKN2A'],
    ['gene:sirt1', 'SIRT1'],
    ['mesh:D000375', 'Aging'],
    ['intervention:CHEBI:9168', 'rapamycin'],
  ]) {
    const [type, ...key] = k.split(':')
    ids[k] = (await insertEntity(db, type, key.join(':'), name)).id
  }
  const link = (paper: string, k: string, role: string) => linkEntity(db, paper, '2026-10-02', ids[k], role)
  await link(p1, 'gene:HGNC:3942', 'mechanism')
  await link(p1, 'gene:slc5a2', 'target')
  await link(p1, 'intervention:fisetin', 'studied')
  await link(p1, 'gene:HGNC:1787', 'mechanism') // the same role under both CDKN2A rows: kept once
  await link(p1, 'gene:NCBIGene:1029', 'mechanism')
  await link(p2, 'gene:HGNC:1787', 'outcome') // a role only the old row has: moves over
  await link(p2, 'gene:NCBIGene:1029', 'mentioned')
  await link(p2, 'gene:sirt1', 'studied')
  await link(p3, 'mesh:D000375', 'indexed')
  await link(p3, 'gene:HGNC:3942', 'target')
  await insertClaim(db, {
    paperId: p1,
    subjectEntityId: ids['intervention:fisetin'],
    objectEntityId: ids['gene:HGNC:1787'],
  })
  await insertClaim(db, { paperId: p2, subjectEntityId: ids['gene:sirt1'], objectEntityId: ids['gene:HGNC:3942'] })
  await insertClaim(db, { paperId: p3, subjectEntityId: ids['gene:NCBIGene:1029'], objectEntityId: null })
  await insertClaim(db, {
    paperId: p3,
    subjectEntityId: ids['intervention:CHEBI:9168'],
    objectEntityId: ids['gene:slc5a2'],
  })
  before = { links: await links(), claims: await claimRefs() }
})
afterAll(async () => {
  await database.close()
})

describe('applying the lexicon to a database with entities under former keys', () => {
  test('re-keys or merges every entity and keeps every paper role and claim reference', async () => {
    const result = await applyLexicon(database, resolveEntityName)
    expect(result).toMatchObject({ applied: true, renamed: 4, merged: 1 })
    expect(await links()).toEqual(moved(before.links))
    expect(await claimRefs()).toEqual(moved(before.claims))
    expect(before.links.length - (await links()).length).toBe(1) // only the duplicate CDKN2A mechanism role
  })

  test('leaves no entity under a former key, and one row per entity', async () => {
    const rows = await database.rows<{ k: string }>(sql`select type || ':' || key as k from entities order by 1`)
    expect(rows.map((r) => r.k)).toEqual([...new Set(Object.values(MOVES))].sort())
  })

  test('fills names, ids and aliases from the lexicon', async () => {
    const [cdkn2a] = await database.rows<{ name: string; ids: Record<string, string>; aliases: string[] }>(sql`
      select name, ids, aliases from entities where key = 'NCBIGene:1029'`)
    expect(cdkn2a.name).toBe('CDKN2A')
    expect(cdkn2a.ids).toMatchObject({ hgnc: 'HGNC:1787', ncbigene: '1029' })
    expect(cdkn2a.aliases).toEqual(expect.arrayContaining(['cdkn2a', 'p16', 'p16ink4a', 'hgnc1787', 'ncbigene1029']))
    const [mesh] = await database.rows<{ aliases: string[] }>(sql`select aliases from entities where type = 'mesh'`)
    expect(mesh.aliases).toEqual(['aging', 'd000375'])
  })

  test('runs once per lexicon version, and again when forced, changing nothing the second time', async () => {
    const snapshot = { links: await links(), claims: await claimRefs() }
    expect((await applyLexicon(database, resolveEntityName)).applied).toBe(false)
    expect(await applyLexicon(database, resolveEntityName, true)).toMatchObject({
      applied: true,
      renamed: 0,
      merged: 0,
      refreshed: 0,
    })
    expect({ links: await links(), claims: await claimRefs() }).toEqual(snapshot)
  })
})
