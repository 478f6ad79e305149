/**
 * The bulk loader, on whichever driver the run uses (COPY on PostgreSQL, inserts on PGlite), and
 * the COPY text encoding checked against PostgreSQL's own parser (PGlite's COPY FROM '/dev/blob').
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { claims, paperEntities, papers, stories } from '../../src/db/schema'
import { ensureEntities, loadBundles, loadCorpus, type CorpusCounts } from '../../src/seed/bulk-load'
import { copyArray, copyJson, copyLine, copyNumber, copyText, NULL } from '../../src/seed/copy-format'
import { generatePaper, type CorpusOptions, type PaperBundle } from '../../src/seed/corpus'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

const options: CorpusOptions = { papers: 300, seed: 11, endDate: '2025-06-30', days: 30 }
const opened: TestDatabase[] = []
async function database(): Promise<TestDatabase> {
  const db = await freshDatabase()
  opened.push(db)
  return db
}
afterAll(async () => {
  for (const db of opened) await db.close()
})

async function count(db: TestDatabase, table: string): Promise<number> {
  const [row] = await db.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`))
  return Number(row!.n)
}

/** A digest of every loaded row, with entity ids replaced by type:key and claim ids left out. */
async function digest(db: TestDatabase): Promise<string> {
  const queries = [
    `select * from papers order by id`,
    `select * from stories order by paper_id`,
    `select * from held_stories order by paper_id`,
    `select pe.paper_id, e.type, e.key, pe.role, pe.detail, pe.indexed_date
       from paper_entities pe join entities e on e.id = pe.entity_id order by 1, 2, 3, 4`,
    `select c.paper_id, c.subject_text, s.type || ':' || s.key as subject, c.relation, c.object_text,
       o.type || ':' || o.key as object, c.organism, c.context, c.direction, c.magnitude, c.evidence, c.confidence, c.created_at
       from claims c left join entities s on s.id = c.subject_entity_id left join entities o on o.id = c.object_entity_id
       order by c.paper_id, c.created_at, c.subject_text, c.object_text`,
    `select type, key, name, ids, paper_count from entities order by type, key`,
  ]
  const hash = createHash('sha256')
  for (const query of queries) hash.update(JSON.stringify(await db.rows(sql.raw(query))))
  return hash.digest('hex')
}

describe(`loadCorpus on ${testDriver}`, () => {
  let first: TestDatabase
  let counts: CorpusCounts

  beforeAll(async () => {
    first = await database()
    counts = await loadCorpus(first, options)
  })

  test('the counts returned are the rows in the tables', async () => {
    expect(counts.papers).toBe(300)
    expect(counts.paperEntities).toBeGreaterThan(300 * 4)
    expect(counts.claims).toBeGreaterThan(300)
    expect(counts.stories).toBeGreaterThan(5)
    expect(await count(first, 'papers')).toBe(counts.papers)
    expect(await count(first, 'stories')).toBe(counts.stories)
    expect(await count(first, 'held_stories')).toBe(counts.heldStories)
    expect(await count(first, 'paper_entities')).toBe(counts.paperEntities)
    expect(await count(first, 'claims')).toBe(counts.claims)
    expect(await count(first, 'entities')).toBe(counts.entities)
  })

  test('the same seed loaded into another fresh database gives identical rows', async () => {
    const second = await database()
    expect(await loadCorpus(second, options)).toEqual(counts)
    expect(await digest(second)).toBe(await digest(first))
  })

  test('a second seed loads beside the first, and paper_count matches a direct count', async () => {
    const shared = await database()
    const a = await loadCorpus(shared, options)
    const b = await loadCorpus(shared, { ...options, seed: 12, papers: 200 })
    expect(await count(shared, 'papers')).toBe(a.papers + b.papers)
    expect(await count(shared, 'claims')).toBe(a.claims + b.claims)
    expect(await count(shared, 'entities')).toBe(a.entities) // the second load found them all
    const mismatches = await shared.rows(sql`
      select e.id from entities e
      left join (select entity_id, count(distinct paper_id)::int as n from paper_entities group by entity_id) c on c.entity_id = e.id
      where e.paper_count <> coalesce(c.n, 0)`)
    expect(mismatches).toEqual([])
    const [top] = await shared.rows<{ n: number }>(sql`select max(paper_count)::int as n from entities`)
    expect(Number(top!.n)).toBeGreaterThan(100)
    const orphans = await shared.rows(sql`
      select pe.paper_id from paper_entities pe left join papers p on p.id = pe.paper_id where p.id is null
      union all select c.paper_id from claims c left join papers p on p.id = c.paper_id where p.id is null`)
    expect(orphans).toEqual([])
  })
})

/** A paper whose every text field is hostile to the COPY text format. */
function hostileBundle(): PaperBundle {
  const base = generatePaper(3, { ...options, seed: 99 })
  const nasty =
    'tab\there, newline\nand CR\r\n, backslash \\ and \\N and \\. alone, "quotes" \'single\', {braces}, αβγ — 🧬'
  const paper = {
    ...base.paper,
    title: `Title: ${nasty}`,
    abstract: `First line\n\\.\nSecond\tline ${nasty}`,
    authors: "O'Brien A, Müller B, Ølsen C, et al.",
    keywords: ['a,b', 'with "quote"', 'back\\slash', '{brace}', 'NULL', '', 'tab\tand\nnewline', 'ünï'],
    publicationTypes: ["Research Support, Non-U.S. Gov't", 'Journal Article'],
    meshHeadings: [{ descriptor: 'Aging', major: true, qualifiers: ['"quoted"\tq', 'back\\slash'] }],
    chemicals: [{ name: `Chem ${nasty}`, registry: null }],
  }
  return {
    paper,
    story: {
      paperId: paper.id,
      headline: `Headline ${nasty}`,
      dek: 'One\tsentence.',
      body: `Para one.\n\nPara two ${nasty}`,
      whyItMatters: '\\',
      caveats: 'C:\\path\\to',
      support: null,
      model: 'geroscope-writer-1',
      publishedAt: '2025-06-30T12:00:00.123Z',
    },
    entities: [
      {
        type: 'intervention',
        key: 'CHEBI:9168',
        role: 'studied',
        detail: { mention: nasty, nested: { list: [nasty, 1, true, null] } },
      },
      { type: 'mesh', key: 'aging', role: 'indexed', detail: null },
    ],
    claims: [
      {
        subjectText: `rapamycin ${nasty}`,
        subjectEntity: { type: 'intervention', key: 'CHEBI:9168' },
        relation: 'extends_lifespan',
        objectText: 'lifespan',
        objectEntity: null,
        organism: 'Mus musculus',
        context: { dose: '14\tppm', condition: nasty },
        direction: 'increase',
        magnitude: '23%',
        evidence: `Evidence\n${nasty}`,
        confidence: 0.5,
        createdAt: '2025-06-30T11:00:00.000Z',
      },
    ],
  }
}

describe(`round trip on ${testDriver}${testDriver === 'postgres' ? ' (through COPY)' : ''}`, () => {
  test('text, arrays and jsonb with tabs, newlines, backslashes, quotes and unicode come back unchanged', async () => {
    const db = await database()
    const bundle = hostileBundle()
    const index = await ensureEntities(db)
    const counts = await loadBundles(db, [bundle], index)
    expect(counts).toEqual({ papers: 1, stories: 1, heldStories: 0, paperEntities: 2, claims: 1 })

    const [{ searchVector: _s, titleVector: _t, ...paper }] = await db.db
      .select()
      .from(papers)
      .where(eq(papers.id, bundle.paper.id))
    const p = bundle.paper
    expect({
      ...paper!,
      judgedAt: paper!.judgedAt?.toISOString() ?? null,
      extractedAt: paper!.extractedAt?.toISOString() ?? null,
      createdAt: paper!.createdAt.toISOString(),
      updatedAt: paper!.updatedAt.toISOString(),
    }).toEqual(p)

    const [story] = await db.db.select().from(stories).where(eq(stories.paperId, p.id))
    expect({ ...story!, publishedAt: story!.publishedAt.toISOString() }).toEqual(bundle.story!)

    const rows = await db.db.select().from(paperEntities).where(eq(paperEntities.paperId, p.id))
    expect(rows.map((r) => r.detail).sort((a, b) => (a === null ? 1 : b === null ? -1 : 0))).toEqual([
      bundle.entities[0]!.detail,
      null,
    ])
    expect(rows.every((r) => r.indexedDate === p.indexedDate)).toBe(true)

    const [claim] = await db.db.select().from(claims).where(eq(claims.paperId, p.id))
    const c = bundle.claims[0]!
    expect(claim).toMatchObject({
      subjectText: c.subjectText,
      subjectEntityId: index.id('intervention', 'CHEBI:9168'),
      objectEntityId: null,
      context: c.context,
      evidence: c.evidence,
      confidence: 0.5,
    })
    expect(claim!.createdAt.toISOString()).toBe(c.createdAt)
  })
})

describe('COPY text encoding', () => {
  test('escapes exactly backslash, tab, newline and carriage return', () => {
    expect(copyText('plain text, "quoted" — ü')).toBe('plain text, "quoted" — ü')
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re')
    expect(copyText('\\N')).toBe('\\\\N')
    expect(copyText(null)).toBe(NULL)
    expect(() => copyText('nul\u0000')).toThrow(/NUL/)
  })

  test('arrays quote every element; json and numbers are plain text', () => {
    expect(copyArray([])).toBe('{}')
    expect(copyArray(['a', 'b c'])).toBe('{"a","b c"}')
    expect(copyArray(['say "hi"', 'back\\slash'])).toBe('{"say \\\\"hi\\\\"","back\\\\\\\\slash"}')
    expect(copyJson({ a: 'x\ny' })).toBe('{"a":"x\\\\ny"}')
    expect(copyJson(null)).toBe(NULL)
    expect(copyNumber(2.5)).toBe('2.5')
    expect(() => copyNumber(Number.NaN)).toThrow()
    expect(copyLine(['a', NULL, 'c'])).toBe('a\t\\N\tc\n')
  })

  test("PostgreSQL's COPY parser reads back what we wrote", async () => {
    const client = await PGlite.create()
    try {
      await client.exec('create table t (n int, s text, a text[], j jsonb, r real)')
      const values = [
        '',
        ' ',
        'tab\t',
        'nl\n',
        'cr\r',
        '\\',
        '\\N',
        '\\.',
        '"',
        "'",
        ',',
        '{x}',
        'NULL',
        'αβγ 🧬',
        'a\\tb',
      ]
      const lines = values.map((v, i) =>
        copyLine([String(i), copyText(v), copyArray([v, `${v}!`]), copyJson({ v, list: [v] }), copyNumber(i / 4)]),
      )
      lines.push(copyLine([String(values.length), NULL, copyArray([]), NULL, NULL]))
      await client.query(`copy t from '/dev/blob'`, [], { blob: new Blob([lines.join('')]) })
      const { rows } = await client.query<{ n: number; s: string | null; a: string[]; j: unknown; r: number | null }>(
        'select * from t order by n',
      )
      expect(rows.length).toBe(values.length + 1)
      values.forEach((v, i) => expect(rows[i]).toEqual({ n: i, s: v, a: [v, `${v}!`], j: { v, list: [v] }, r: i / 4 }))
      expect(rows[values.length]).toEqual({ n: values.length, s: null, a: [], j: null, r: null })
    } finally {
      await client.close()
    }
  })
})
