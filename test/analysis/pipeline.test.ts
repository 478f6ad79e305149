import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, eq, sql } from 'drizzle-orm'
import type { Analyzer } from '../../src/pipeline/analysis/analyzer'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import {
  articleAnalyses,
  articles,
  claims,
  entities,
  paperEntities,
  papers,
  rssSources,
  searchOutbox,
  stories,
} from '../../src/db/schema'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'
import { RAPAMYCIN_MICE } from './paper-input'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

/** A paper as ingestion leaves it: bibliography and indexing, no judgement, nothing extracted. */
const unjudged = (overrides: Parameters<typeof paperRow>[0] = {}) =>
  paperRow({
    relevance: null,
    relevanceConfidence: null,
    newsworthiness: null,
    studyType: null,
    studyTypeConfidence: null,
    topic: null,
    topicConfidence: null,
    promotional: null,
    judgementModel: null,
    judgementPromptVersion: null,
    judgedAt: null,
    extractedAt: null,
    ...overrides,
  })

const rapamycinRow = () =>
  unjudged({
    id: 'MED-100',
    indexedDate: '2026-11-02',
    title: RAPAMYCIN_MICE.title,
    abstract: RAPAMYCIN_MICE.abstract,
    journal: RAPAMYCIN_MICE.journal,
    meshHeadings: RAPAMYCIN_MICE.meshHeadings,
    keywords: RAPAMYCIN_MICE.keywords,
    chemicals: RAPAMYCIN_MICE.chemicals,
  })

describe('runAnalysis with the built-in analyzer', () => {
  test('judges, writes the story, links entities and stores claims', async () => {
    const db = database.db
    await insertPapers(db, [
      rapamycinRow(),
      unjudged({
        id: 'MED-101',
        title: 'Lung cancer outcomes',
        abstract: 'We report outcomes of 200 patients.',
        meshHeadings: [{ descriptor: 'Humans', major: false, qualifiers: [] }],
      }),
    ])
    // The harvester's subject heading, which analysis must leave alone.
    const mesh = await insertEntity(db, 'mesh', 'aging', 'Aging')
    await linkEntity(db, 'MED-100', '2026-11-02', mesh.id, 'indexed', { major: true })

    const counts = await runAnalysis(db, builtinAnalyzer())
    expect(counts).toMatchObject({ papers: 2, failed: 0, stories: 1, articles: 0, prompt_tokens: 0 })

    const [paper] = await db.select().from(papers).where(eq(papers.id, 'MED-100'))
    expect(paper).toMatchObject({
      studyType: 'animal',
      topic: 'mtor-rapamycin',
      judgementModel: 'geroscope-builtin-1',
      judgementPromptVersion: 'builtin-8',
    })
    expect(paper.relevance).toBeGreaterThanOrEqual(2.5)
    expect(paper.judgedAt).not.toBeNull()
    expect(paper.extractedAt).not.toBeNull()

    const [story] = await db.select().from(stories).where(eq(stories.paperId, 'MED-100'))
    expect(story).toMatchObject({
      headline: 'Rapamycin extends lifespan in mice',
      model: 'geroscope-builtin-1',
      support: 3,
    })
    expect(await db.select().from(stories).where(eq(stories.paperId, 'MED-101'))).toEqual([])

    const links = await db
      .select({ key: entities.key, role: paperEntities.role, indexedDate: paperEntities.indexedDate })
      .from(paperEntities)
      .innerJoin(entities, eq(entities.id, paperEntities.entityId))
      .where(eq(paperEntities.paperId, 'MED-100'))
    expect(links).toContainEqual({ key: 'CHEBI:9168', role: 'studied', indexedDate: '2026-11-02' })
    expect(links).toContainEqual({ key: 'aging', role: 'indexed', indexedDate: '2026-11-02' })
    expect(links.every((l) => l.indexedDate === '2026-11-02')).toBe(true)

    const stored = await db.select().from(claims).where(eq(claims.paperId, 'MED-100')).orderBy(asc(claims.id))
    expect(stored.length).toBeGreaterThanOrEqual(2)
    expect(stored[0]).toMatchObject({
      subjectText: 'Rapamycin',
      relation: 'extends_lifespan',
      magnitude: '12%',
      organism: 'Mus musculus',
    })
    expect(stored[0].subjectEntityId).not.toBeNull()

    const queued = await db.select({ id: searchOutbox.paperId }).from(searchOutbox)
    expect(queued.map((q) => q.id).sort()).toEqual(['MED-100', 'MED-101'])
  })

  test('has nothing to do the second time', async () => {
    expect(await runAnalysis(database.db, builtinAnalyzer())).toMatchObject({ papers: 0, failed: 0 })
  })

  test('re-analysis replaces entities and claims, keeps indexed headings and the story, and queues search only on change', async () => {
    const db = database.db
    const before = await db.select({ id: claims.id }).from(claims).where(eq(claims.paperId, 'MED-100'))
    const [{ publishedAt }] = await db
      .select({ publishedAt: stories.publishedAt })
      .from(stories)
      .where(eq(stories.paperId, 'MED-100'))
    await db.update(papers).set({ extractedAt: null }).where(eq(papers.id, 'MED-100'))
    await db.delete(searchOutbox)
    await runAnalysis(db, builtinAnalyzer())
    const after = await db.select({ id: claims.id }).from(claims).where(eq(claims.paperId, 'MED-100'))
    expect(after.length).toBe(before.length)
    expect(after.map((c) => c.id)).not.toEqual(before.map((c) => c.id)) // replaced, not added to
    const roles = await db
      .select({ role: paperEntities.role })
      .from(paperEntities)
      .where(eq(paperEntities.paperId, 'MED-100'))
    expect(roles.filter((r) => r.role === 'indexed')).toHaveLength(1)
    const [story] = await db.select().from(stories).where(eq(stories.paperId, 'MED-100'))
    expect(story.publishedAt).toEqual(publishedAt)
    expect(await db.select().from(searchOutbox)).toEqual([]) // same judgement: nothing for search to do
  })

  test('analyses feed articles and marks them', async () => {
    const db = database.db
    const [source] = await db.insert(rssSources).values({ name: 'News', url: 'https://example.org/feed' }).returning()
    await db.insert(articles).values([
      {
        sourceId: source.id,
        guid: 'a1',
        title: 'Senolytics clear senescent cells in old mice',
        summary: 'Dasatinib and quercetin reduced senescent cell burden and improved physical function in aged mice.',
      },
      { sourceId: source.id, guid: 'a2', title: '', summary: null },
    ])
    const counts = await runAnalysis(db, builtinAnalyzer())
    expect(counts).toMatchObject({ articles: 2, articles_failed: 0 })
    const rows = await db.select().from(articleAnalyses).orderBy(asc(articleAnalyses.articleId))
    expect(rows[0].tags).toContain('dasatinib plus quercetin')
    expect(rows[0]).toMatchObject({ model: 'geroscope-builtin-1', promptVersion: 'builtin-8' })
    const pending = await db.select().from(articles).where(sql`${articles.analysedAt} is null`)
    expect(pending).toEqual([])
  })

  test('a paper that fails leaves nothing half-written and does not stop the others', async () => {
    const db = database.db
    await insertPapers(db, [unjudged({ id: 'MED-200' }), unjudged({ id: 'MED-201' })])
    const inner = builtinAnalyzer()
    // The analysis of MED-200 reaches the database with a claim the schema refuses (no subject text):
    // the judgement written earlier in the same transaction must roll back with it.
    const broken: Analyzer = {
      ...inner,
      analyzePaper: async (paper) => {
        const result = await inner.analyzePaper(paper)
        if (paper.id !== 'MED-200') return result
        return {
          ...result,
          claims: [
            {
              ...(result.claims[0] ?? {
                relation: 'increases',
                object: { text: 'x', entity: null },
                organism: null,
                context: null,
                direction: null,
                magnitude: null,
                evidence: 'x',
                confidence: 0.5,
              }),
              subject: { text: null as unknown as string, entity: null },
            },
          ],
        }
      },
    }
    const failures: string[] = []
    const counts = await runAnalysis(db, broken, { onFailure: (m) => failures.push(m) })
    expect(counts).toMatchObject({ papers: 1, failed: 1 })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toStartWith('analysis of MED-200 failed:')
    const [failed] = await db.select().from(papers).where(eq(papers.id, 'MED-200'))
    expect(failed.judgedAt).toBeNull()
    expect(failed.relevance).toBeNull()
    expect(await db.select().from(paperEntities).where(eq(paperEntities.paperId, 'MED-200'))).toEqual([])
    const [ok] = await db.select().from(papers).where(eq(papers.id, 'MED-201'))
    expect(ok.judgedAt).not.toBeNull()
  })

  test('two runs at once (two workers) analyse shared entities without failures or duplicates', async () => {
    const db = database.db
    const rows = Array.from({ length: 30 }, (_, i) => ({
      ...rapamycinRow(),
      id: `MED-${700 + i}`,
      title: `${RAPAMYCIN_MICE.title}, cohort ${i}`,
    }))
    await insertPapers(db, rows)
    const [a, b] = await Promise.all([runAnalysis(db, builtinAnalyzer()), runAnalysis(db, builtinAnalyzer())])
    expect(a.failed + b.failed).toBe(0)
    expect(a.papers + b.papers).toBeGreaterThanOrEqual(30)
    const perPaper = await database.rows<{ n: number }>(sql`
      select count(*)::int as n from claims where paper_id like 'MED-7__' group by paper_id`)
    expect(perPaper).toHaveLength(30)
    expect(new Set(perPaper.map((r) => r.n)).size).toBe(1) // replaced, never doubled
  })

  test('limit bounds a run', async () => {
    const db = database.db
    await insertPapers(db, [unjudged({ id: 'MED-300' }), unjudged({ id: 'MED-301' }), unjudged({ id: 'MED-302' })])
    expect(await runAnalysis(db, builtinAnalyzer(), { limit: 2 })).toMatchObject({ papers: 2 })
  })
})
