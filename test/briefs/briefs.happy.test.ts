/** Briefs by window and by tags, composed by the built-in analyzer; stored, listed and read back. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { adminApp, call, walk, type AdminApp } from '../intelligence/support'
import { IN_WINDOW, WEEK, seedWeek } from './fixtures'

let database: TestDatabase
let app: AdminApp
let seeded: Awaited<ReturnType<typeof seedWeek>>

beforeAll(async () => {
  database = await freshDatabase()
  seeded = await seedWeek(database.db)
  app = adminApp(database, { now: () => new Date('2026-11-16T18:00:00Z'), accountOf: () => null })
})
afterAll(() => database.close())

type Statement = { text: string; citations: string[] }
type Brief = {
  id: number
  kind: string
  title: string
  summary: Statement[]
  sections: { heading: string; statements: Statement[] }[]
  citations: {
    ref: string
    type: string
    paper_id: string | null
    article_id: number | null
    title: string
    url: string | null
    site_url: string | null
  }[]
  content: string
  counts: Record<string, number>
  window: { since: string; until: string }
  model: string
  url: string
}
const statements = (b: Brief) => [...b.summary, ...b.sections.flatMap((s) => s.statements)]
const cited = (b: Brief, type: string) =>
  b.citations.filter((c) => c.type === type).map((c) => (type === 'paper' ? c.paper_id : c.article_id))

/** Every statement cites something, every ref resolves to a citation, and every citation to a stored row. */
async function expectResolvable(b: Brief) {
  const refs = new Set(b.citations.map((c) => c.ref))
  for (const s of statements(b)) {
    expect(s.citations.length).toBeGreaterThan(0)
    for (const ref of s.citations) expect(refs.has(ref)).toBe(true)
  }
  for (const c of b.citations) {
    if (c.type === 'paper') {
      const [row] = await database.rows<{ title: string }>(sql`select title from papers where id = ${c.paper_id}`)
      expect(row?.title).toBe(c.title)
      expect(c.site_url).toBe(`https://geroscope.test/papers/${c.paper_id}`)
    } else {
      const [row] = await database.rows<{ title: string }>(sql`select title from articles where id = ${c.article_id}`)
      expect(row?.title).toBe(c.title)
    }
  }
}

describe(`a brief by window on ${testDriver}`, () => {
  let brief: Brief
  beforeAll(async () => {
    const response = await call(app, '/api/generate-brief', { json: WEEK })
    expect(response.status).toBe(201)
    brief = response.body.data
    expect(response.headers.get('location')).toBe(brief.url)
  })

  test("covers the week's analysed aging papers and feed articles, nothing outside it", async () => {
    expect(brief).toMatchObject({
      kind: 'comprehensive',
      window: WEEK,
      model: 'geroscope-builtin-1',
      title: 'Brief: 2026-11-10 to 2026-11-16',
    })
    expect((cited(brief, 'paper') as string[]).sort()).toEqual([...IN_WINDOW].sort())
    expect(cited(brief, 'article').sort()).toEqual([seeded.articles.linked.id, seeded.articles.flies.id].sort())
    expect(brief.counts).toMatchObject({
      papers_in_window: 5,
      papers_considered: 5,
      articles_considered: 2,
      dropped_citations: 0,
    })
    await expectResolvable(brief)
  })

  test('groups by topic, and papers with the same finding share one statement', () => {
    expect(brief.sections.map((s) => s.heading)).toEqual([
      'GLP-1 drugs',
      'mTOR and rapamycin',
      'Cellular senescence',
      'From the feeds',
    ])
    const mtor = brief.sections[1]!
    expect(mtor.statements).toEqual([
      { text: 'Two papers in Aging Cell report that rapamycin extends lifespan in mice.', citations: ['P1', 'P3'] },
    ])
  })

  test('words each paper from its story, else its main claim, else its title, naming its source; never an abstract', () => {
    const texts = statements(brief).map((s) => s.text)
    expect(texts).toContain(
      'In a 24-week trial, metformin lowered HbA1c by 12% in older adults without diabetes (Aging Cell).',
    )
    expect(texts).toContain(
      'A preprint invertebrate study posted on Aging Cell reports that metformin extends lifespan in fruit flies (8%).',
    )
    expect(texts).toContain('Aging Cell published a review, “Senolytics and frailty: a review”.')
    expect(texts.some((t) => t.includes('extended median lifespan by 12% in male mice'))).toBe(false)
  })

  test("quotes a feed article as its feed's words, cited with the paper it is about", () => {
    const feeds = brief.sections.find((s) => s.heading === 'From the feeds')!
    expect(feeds.statements).toEqual([
      {
        text: 'bioRxiv posted “A preprint on metformin”, which says: “Metformin was tested in flies.”',
        citations: ['A1'],
      },
      {
        text: 'Aging Cell posted “Rapamycin and longevity, again”, which says: “Rapamycin extended lifespan in mice again.”',
        citations: ['A2', 'P1'],
      },
    ])
  })

  test('summarises with the most newsworthy papers, and renders every part as text', () => {
    expect(brief.summary.map((s) => s.citations)).toEqual([['P1'], ['P2'], ['P3']])
    expect(brief.content).toStartWith(
      'Brief: 2026-11-10 to 2026-11-16\n2026-11-10 to 2026-11-16; 5 papers and 2 articles considered\n\nSummary\n',
    )
    for (const c of brief.citations) expect(brief.content).toContain(`[${c.ref}] ${c.title}.`)
  })

  test('is deterministic: the same request writes the same brief', async () => {
    const again: Brief = (await call(app, '/api/generate-brief', { json: WEEK })).body.data
    expect({ ...again, id: 0, url: '', created_at: '' }).toEqual({ ...brief, id: 0, url: '', created_at: '' })
  })

  test('is stored: GET /api/briefs/{id} gives it back', async () => {
    const { status, body } = await call(app, `/api/briefs/${brief.id}`)
    expect(status).toBe(200)
    expect(body.data).toEqual(brief)
  })
})

describe(`options of a window brief on ${testDriver}`, () => {
  test('by topic: only papers on it, and feed articles about it', async () => {
    const { body } = await call(app, '/api/generate-brief', {
      json: { ...WEEK, topics: ['mtor-rapamycin'], title: 'mTOR this week' },
    })
    expect(body.data.title).toBe('mTOR this week')
    expect(cited(body.data, 'paper').sort()).toEqual(['MED-201', 'MED-202'])
    expect(cited(body.data, 'article')).toEqual([seeded.articles.linked.id])
    expect(body.data.filters).toEqual({ topics: ['mtor-rapamycin'], entities: [], source_tags: [] })
  })

  test('without dates: the 7 days ending today', async () => {
    const { body } = await call(app, '/api/generate-brief', { json: {} })
    expect(body.data.window).toEqual(WEEK)
  })

  test('records the operator who asked for it', async () => {
    const local = adminApp(database, { accountOf: () => 42 })
    const [account] = await database.rows<{ id: number }>(
      sql`insert into accounts (id, username, password_hash, role) values (42, 'op', '!', 'admin') returning id`,
    )
    const { body } = await call(local, '/api/generate-brief', { json: WEEK })
    expect(body.data.created_by).toBe(account!.id)
  })
})

describe(`a tag-based brief on ${testDriver}`, () => {
  test('by source tag: the articles of tagged sources only', async () => {
    const { status, body } = await call(app, '/api/generate-brief/tag-based', {
      json: { ...WEEK, source_tags: ['preprint'] },
    })
    expect(status).toBe(201)
    expect(body.data.kind).toBe('tag_based')
    expect(cited(body.data, 'paper')).toEqual([])
    expect(cited(body.data, 'article')).toEqual([seeded.articles.flies.id])
    await expectResolvable(body.data)
  })

  test('by entity: papers linked to it and articles that name it', async () => {
    const { body } = await call(app, '/api/generate-brief/tag-based', {
      json: { ...WEEK, entities: ['intervention:CHEBI:6801'] },
    })
    expect((cited(body.data, 'paper') as string[]).sort()).toEqual(['MED-203', 'PPR-205'])
    expect(cited(body.data, 'article')).toEqual([seeded.articles.flies.id])
    expect(body.data.title).toBe('Brief on intervention:CHEBI:6801: 2026-11-10 to 2026-11-16')
  })

  test('an item needs only one of the tags', async () => {
    const { body } = await call(app, '/api/generate-brief/tag-based', {
      json: { ...WEEK, topics: ['senescence'], source_tags: ['journal'] },
    })
    // the journal's article is about MED-201, but that paper carries none of the tags
    expect(cited(body.data, 'paper')).toEqual(['MED-204'])
    expect(cited(body.data, 'article')).toEqual([seeded.articles.linked.id])
  })

  test('the default window is the 30 days ending today', async () => {
    const { body } = await call(app, '/api/generate-brief/tag-based', { json: { topics: ['senescence'] } })
    expect(body.data.window).toEqual({ since: '2026-10-18', until: '2026-11-16' })
  })
})

describe(`the list on ${testDriver}`, () => {
  test('newest first, paged, without the text', async () => {
    const pages = await walk(app, '/api/briefs?limit=2')
    const all = pages.flatMap((p) => p.data)
    const ids = all.map((b: { id: number }) => b.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(new Set(ids).size).toBe(ids.length)
    expect(all[0]).not.toHaveProperty('sections')
    expect(all[0]).toHaveProperty('counts')
    const tagged = (await call(app, '/api/briefs?kind=tag_based&limit=100')).body.data
    expect(tagged.length).toBeGreaterThan(0)
    for (const b of tagged) expect(b.kind).toBe('tag_based')
  })
})
