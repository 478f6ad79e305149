/**
 * GET /api/v1/papers and /api/v1/stories from stored list items (issue 39): every page, filter, order, cursor, count
 * and group_by answers the same bytes from stored items as from the rows, and the rows' answer is what the
 * JavaScript serializers make of them; a stale item is served from the rows; the licence rule holds; fields= cuts as
 * before; another base goes where the items' URLs take it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { paperDocuments } from '../../src/db/schema'
import { refreshPaperDocuments } from '../../src/documents/papers'
import { listPapers } from '../../src/resources/papers/queries'
import { serializeListedPaper } from '../../src/resources/papers/serialize'
import { listStories } from '../../src/resources/stories/queries'
import { serializeStoryItem } from '../../src/resources/stories/serialize'
import { testApp, req } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { bearer, createTestKey, insertPapers, insertStory, paperRow } from '../support/fixtures'
import { BASE } from './support'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string

const TOPICS = ['mtor-rapamycin', 'senescence', 'epigenetic-clocks']

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, {}, { RESPONSE_CACHE_MB: '0' })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  const rows = Array.from({ length: 40 }, (_, i) =>
    paperRow({
      id: `MED-${700 + i}`,
      title: [`Plain title ${i}`, `"Quoted" \\ title é ${i} 🧬`, `Tab\tand line\nbreak ${i}`][i % 3],
      indexedDate: `2026-10-${String(1 + (i % 4)).padStart(2, '0')}`,
      publishedDate: i % 7 === 0 ? null : `2026-09-${String(1 + (i % 9)).padStart(2, '0')}`,
      abstractLicense: [`cc by`, 'cc by-nc', null, 'cc0'][i % 4],
      relevance: i % 5 === 0 ? null : 1 + (i % 3),
      judgedAt: i % 5 === 0 ? null : new Date(`2026-10-05T10:00:0${i % 10}.${i}Z`),
      newsworthiness: i % 6 === 0 ? null : i % 4,
      promotional: i % 8 === 0 ? null : 0.01 * i,
      judgementModel: i % 9 === 0 ? 'editor' : 'geroscope-builtin-1',
      judgementPromptVersion: i % 9 === 0 ? null : 'judge-v1',
      topic: TOPICS[i % 3],
      studyType: i % 13 === 0 ? null : i % 2 ? 'animal' : 'human_trial',
      preprint: i % 10 === 3,
      publicationTypes: i % 11 === 0 ? [] : ['Journal Article', 'Review'],
    }),
  )
  // Its title writes the character stored items hold for the base: its item is '' and always served live.
  rows.push(paperRow({ id: 'MED-799', title: 'Control \u0001 character', indexedDate: '2026-10-02' }))
  await insertPapers(database.db, rows)
  for (let i = 0; i < 40; i += 3) {
    await insertStory(database.db, `MED-${700 + i}`, {
      headline: `Headline "${i}" é`,
      dek: i % 2 ? 'A dek.' : '',
      publishedAt: new Date(`2026-10-0${1 + (i % 3)}T08:00:00.${100 + i}Z`),
    })
  }
  await insertStory(database.db, 'MED-799', { headline: 'Control story' })
})

const raw = async (path: string, on = app) => {
  const response = await on.handle(req(path, bearer(key)))
  return `${response.status} ${response.headers.get('content-type')}\n${await response.text()}`
}

const LISTS = [
  '/api/v1/papers',
  '/api/v1/papers?limit=100&min_relevance=0',
  '/api/v1/papers?limit=7&min_relevance=0',
  '/api/v1/papers?limit=4&sort=published_date&min_relevance=0',
  '/api/v1/papers?limit=6&sort=newsworthiness',
  '/api/v1/papers?min_relevance=0&topic=senescence,epigenetic-clocks&study_type=animal',
  '/api/v1/papers?min_relevance=1&preprint=false&since=2026-10-02&until=2026-10-03&limit=5',
  '/api/v1/papers?min_relevance=0&published_since=2026-09-03&published_until=2026-09-07&limit=5',
  '/api/v1/papers?min_relevance=0&q=rapamycin&limit=9',
  '/api/v1/papers?min_relevance=0&q=quoted',
  '/api/v1/papers?min_relevance=0&limit=5&count=true&group_by=topic',
  '/api/v1/papers?min_relevance=0&limit=5&fields=id,title,abstract,story.url',
  '/api/v1/papers?min_relevance=0&limit=5&format=csv',
  '/api/v1/stories',
  '/api/v1/stories?limit=4',
  '/api/v1/stories?limit=3&topic=senescence',
  '/api/v1/stories?since=2026-10-02&study_type=human_trial',
  '/api/v1/stories?limit=3&fields=headline,paper.abstract,paper.site_url',
]

/** Every list path, and the pages their cursors lead to. */
async function pages(paths = LISTS, on = app): Promise<Map<string, string>> {
  const answers = new Map<string, string>()
  for (const first of paths) {
    let path: string | null = first
    for (let n = 0; path && n < 12; n++) {
      const answer = await raw(path, on)
      answers.set(path, answer)
      const cursor = /"next_cursor":"([^"]+)"/.exec(answer)?.[1]
      path = cursor ? `${first}&cursor=${encodeURIComponent(cursor)}`.replace('?&', '?') : null
      if (cursor && !first.includes('?')) path = `${first}?cursor=${encodeURIComponent(cursor)}`
    }
  }
  return answers
}

const fresh = async () => {
  await database.db.update(paperDocuments).set({ body: null, item: null, storyItem: null })
  return refreshPaperDocuments(database.db)
}

/** The `data` array of a JSON list answer, as sent. */
const dataOf = (answer: string) => {
  const text = answer.slice(answer.indexOf('\n') + 1)
  return text.slice('{"data":'.length, text.lastIndexOf(',"pagination":'))
}

describe('list pages from stored items', () => {
  test('the rows answer what the JavaScript serializers make of them', async () => {
    await database.db.update(paperDocuments).set({ body: null, item: null, storyItem: null })
    const db = database.db
    for (const sort of ['indexed_date', 'published_date', 'newsworthiness'] as const) {
      const rows = await listPapers(db, { minRelevance: 0 }, 100, null, sort)
      const expected = JSON.stringify(rows.map((r) => serializeListedPaper(r, BASE)))
      expect(dataOf(await raw(`/api/v1/papers?limit=100&min_relevance=0&sort=${sort}`))).toBe(expected)
    }
    const stories = await listStories(db, {}, 100, null)
    expect(dataOf(await raw('/api/v1/stories?limit=100'))).toBe(
      JSON.stringify(stories.map((r) => serializeStoryItem(r, BASE))),
    )
  })

  test('answer byte for byte as when built from the rows, every page of every filter and order', async () => {
    await database.db.update(paperDocuments).set({ body: null, item: null, storyItem: null })
    const live = await pages()
    expect(live.size).toBeGreaterThan(LISTS.length + 10)
    expect([...live.values()].filter((answer) => !answer.startsWith('200 '))).toEqual([])
    expect((await refreshPaperDocuments(database.db)).written).toBe(41)
    const stored = new Map<string, string>()
    for (const path of live.keys()) stored.set(path, await raw(path))
    expect([...stored.entries()]).toEqual([...live.entries()])
    const first = live.get('/api/v1/papers?limit=100&min_relevance=0')!
    expect(first).toContain('"site_url":"https://geroscope.test/papers/MED-700"')
    expect(first).toContain('"url":"https://geroscope.test/stories/MED-700"')
    expect(first).toContain('Control \\u0001 character')
  })

  test('the licence rule holds in stored items', async () => {
    await fresh()
    const [{ item, story_item }] = await database.rows<{ item: string; story_item: string }>(
      sql`select item, story_item from paper_documents where paper_id = 'MED-709'`,
    )
    expect(JSON.parse(item).abstract_license).toBe('cc by-nc')
    expect(JSON.parse(item).abstract).toBeNull()
    expect(JSON.parse(story_item).paper.abstract).toBeNull()
    const [open] = await database.rows<{ item: string }>(
      sql`select item from paper_documents where paper_id = 'MED-700'`,
    )
    expect(JSON.parse(open.item).abstract).toContain('Rapamycin')
    const [control] = await database.rows<{ item: string; story_item: string }>(
      sql`select item, story_item from paper_documents where paper_id = 'MED-799'`,
    )
    expect(control).toEqual({ item: '', story_item: '' })
  })

  test('read the stored items, and serve stale ones from the rows', async () => {
    await fresh()
    const path = '/api/v1/papers?limit=100&min_relevance=0'
    const before = await raw(path)
    await database.db
      .update(paperDocuments)
      .set({ item: '{"id":"stored"}' })
      .where(eq(paperDocuments.paperId, 'MED-701'))
    await database.db
      .update(paperDocuments)
      .set({ storyItem: '{"id":"stored story"}' })
      .where(eq(paperDocuments.paperId, 'MED-703'))
    expect(await raw(path)).toContain(',{"id":"stored"},')
    expect(await raw('/api/v1/stories?limit=100')).toContain('{"id":"stored story"}')
    // The paper and its story change: stale in the same statement, served from the rows until refreshed.
    await database.db.execute(sql`update papers set title = 'Changed' where id = 'MED-701'`)
    await database.db.execute(sql`update stories set headline = 'Changed headline' where paper_id = 'MED-703'`)
    const changed = await raw(path)
    expect(changed).toContain('"title":"Changed"')
    expect(changed).not.toBe(before)
    const stories = await raw('/api/v1/stories?limit=100')
    expect(stories).toContain('"headline":"Changed headline"')
    expect(stories).not.toContain('stored story')
    await refreshPaperDocuments(database.db)
    expect(await raw(path)).toBe(changed)
    expect(await raw('/api/v1/stories?limit=100')).toBe(stories)
  })

  test('another base is put into the stored URLs as the live answer writes it', async () => {
    const odd = await testApp(database, {}, { RESPONSE_CACHE_MB: '0', PUBLIC_BASE_URL: 'https://example.org/géro"x' })
    const paths = ['/api/v1/papers?limit=100&min_relevance=0', '/api/v1/stories?limit=100']
    await fresh()
    const stored = await pages(paths, odd)
    await database.db.update(paperDocuments).set({ body: null, item: null, storyItem: null })
    expect([...(await pages(paths, odd)).entries()]).toEqual([...stored.entries()])
    expect(stored.get(paths[0])).toContain('"site_url":"https://example.org/g%C3%A9ro%22x/papers/MED-700"')
  })
})
