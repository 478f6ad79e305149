import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { harvestEuropePmc, windowQuery } from '../../src/pipeline/ingest/europepmc/harvest'
import type { EuropePmcRecord } from '../../src/pipeline/ingest/europepmc/record'
import { INCREMENTAL_STATE, readHarvestState } from '../../src/pipeline/ingest/europepmc/state'
import { freshDatabase, type TestDatabase } from '../support/database'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureJson } from '../support/shared-fixtures'

noteMissingFixtures('europepmc harvest')

type Answer = { hitCount: number; nextCursorMark?: string; resultList: { result: EuropePmcRecord[] } }
const answer = (records: EuropePmcRecord[], next?: string, hitCount = records.length): Answer => ({
  hitCount,
  ...(next ? { nextCursorMark: next } : {}),
  resultList: { result: records },
})
const json = (body: unknown, init?: ResponseInit) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json' } })

const record = (n: number, extra: Partial<EuropePmcRecord> = {}): EuropePmcRecord => ({
  id: String(n),
  source: 'MED',
  pmid: String(n),
  doi: `10.1000/T.${n}`,
  title: `Paper ${n} on senescence`,
  authorString: 'Smith A, Jones B, Lee C, Park D.',
  firstIndexDate: '2026-11-10',
  firstPublicationDate: '2026-11-01',
  journalInfo: { journal: { title: 'Aging Cell' } },
  abstractText: `<p>Senolytics ${n} cleared cells.</p>`,
  license: 'CC BY',
  pubTypeList: { pubType: ['research-article'] },
  meshHeadingList: {
    meshHeading: [
      { descriptorName: 'Cellular Senescence', majorTopic_YN: 'Y' },
      { descriptorName: 'Mice', majorTopic_YN: 'N' },
    ],
  },
  ...extra,
})

let database: TestDatabase
let server: ReplayServer | null = null
const noWait = { sleep: async () => {}, backoffMs: 1 }
const configFor = (s: ReplayServer) => parseConfig({ EUROPEPMC_BASE_URL: s.url, EUROPEPMC_QUERY: 'aging' })
const count = async (table: string) =>
  (await database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.raw(table)}`))[0].n

beforeEach(async () => {
  database = await freshDatabase()
})
afterEach(async () => {
  await server?.stop()
  server = null
  await database.close()
})

describe('harvestEuropePmc', () => {
  test('asks for core JSON pages of 1000 by cursor over MED and PPR in a first-index-date window', async () => {
    server = replayServer(() => json(answer([record(1)])))
    await harvestEuropePmc(database, configFor(server), { today: '2026-11-21' })
    const asked = server.requests[0]
    expect(asked.pathname).toBe('/search')
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      resultType: 'core',
      format: 'json',
      pageSize: '1000',
      cursorMark: '*',
      query: '(aging) AND (SRC:MED OR SRC:PPR) AND FIRST_IDATE:[2026-11-19 TO 2026-11-21]',
    })
    expect(windowQuery('x', 'a', 'b')).toBe('(x) AND (SRC:MED OR SRC:PPR) AND FIRST_IDATE:[a TO b]')
  })

  test('stores new papers unjudged, with MeSH entities, queued for search, and the next window starts on the last day', async () => {
    server = replayServer(() => json(answer([record(1), record(2), { ...record(3), source: 'PMC' }])))
    const counts = await harvestEuropePmc(database, configFor(server), { today: '2026-11-21' })
    expect(counts).toMatchObject({ pages: 1, records: 3, inserted: 2, updated: 0, skipped: 1 })
    const [paper] = await database.rows(sql`select * from papers where id = 'MED-1'`)
    expect(paper).toMatchObject({
      doi: '10.1000/t.1',
      authors: 'Smith A, Jones B, Lee C, et al.',
      abstract: 'Senolytics 1 cleared cells.',
      abstract_license: 'cc by',
      publication_types: ['Journal Article'],
      judged_at: null,
      extracted_at: null,
      relevance: null,
    })
    const links = await database.rows(sql`
      select e.type, e.key, pe.role, pe.detail, pe.indexed_date::text as indexed_date from paper_entities pe
      join entities e on e.id = pe.entity_id where pe.paper_id = 'MED-1' order by e.key`)
    expect(links).toEqual([
      {
        type: 'mesh',
        key: 'cellular-senescence',
        role: 'indexed',
        detail: { major: true, qualifiers: [] },
        indexed_date: '2026-11-10',
      },
      {
        type: 'mesh',
        key: 'mice',
        role: 'indexed',
        detail: { major: false, qualifiers: [] },
        indexed_date: '2026-11-10',
      },
    ])
    expect(await count('search_outbox')).toBe(2)
    expect(await readHarvestState(database.db, INCREMENTAL_STATE)).toEqual({
      harvestedThrough: '2026-11-21',
      pending: null,
    })

    await harvestEuropePmc(database, configFor(server), { today: '2026-11-22' })
    expect(server.requests[1].searchParams.get('query')).toEndWith('FIRST_IDATE:[2026-11-21 TO 2026-11-22]')
  })

  test('harvesting the same window twice changes nothing', async () => {
    server = replayServer(() => json(answer([record(1), record(2)])))
    await harvestEuropePmc(database, configFor(server), { since: '2026-11-01', until: '2026-11-20' })
    const before = await database.rows(sql`select id, updated_at from papers order by id`)
    const again = await harvestEuropePmc(database, configFor(server), { since: '2026-11-01', until: '2026-11-20' })
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 })
    expect(await database.rows(sql`select id, updated_at from papers order by id`)).toEqual(before)
    expect(await count('search_outbox')).toBe(2)
    expect(await count('paper_entities')).toBe(4)
  })

  test('a changed record updates in place; the judgement survives metadata changes and is cleared when the text changes', async () => {
    let version = 0
    server = replayServer(() =>
      json(
        answer([
          version === 0
            ? record(1)
            : version === 1
              ? record(1, { journalInfo: { journal: { title: 'Nature Aging' } } })
              : record(1, {
                  journalInfo: { journal: { title: 'Nature Aging' } },
                  abstractText: '<p>Corrected abstract.</p>',
                }),
        ]),
      ),
    )
    const window = { since: '2026-11-01', until: '2026-11-20' }
    await harvestEuropePmc(database, configFor(server), window)
    await database.db.execute(
      sql`update papers set relevance = 2.5, topic = 'senescence', judged_at = now(), extracted_at = now(), judgement_model = 'm'`,
    )

    version = 1
    expect(await harvestEuropePmc(database, configFor(server), window)).toMatchObject({ updated: 1, textChanged: 0 })
    const [kept] = await database.rows<Record<string, unknown>>(
      sql`select journal, relevance, topic, judged_at, extracted_at from papers`,
    )
    expect(kept).toMatchObject({ journal: 'Nature Aging', relevance: 2.5, topic: 'senescence' })
    expect(kept.judged_at).not.toBeNull()

    version = 2
    expect(await harvestEuropePmc(database, configFor(server), window)).toMatchObject({ updated: 1, textChanged: 1 })
    const [cleared] = await database.rows(
      sql`select abstract, relevance, topic, judged_at, extracted_at, judgement_model, indexed_date::text as d from papers`,
    )
    expect(cleared).toEqual({
      abstract: 'Corrected abstract.',
      relevance: null,
      topic: null,
      judged_at: null,
      extracted_at: null,
      judgement_model: null,
      d: '2026-11-10',
    })
    expect(await count('search_outbox')).toBe(3) // inserted, then each change
  })

  test("an editor's judgement survives a new text; entities and claims are extracted again", async () => {
    let abstract = '<p>Senolytics cleared cells.</p>'
    server = replayServer(() => json(answer([record(1, { abstractText: abstract })])))
    const window = { since: '2026-11-01', until: '2026-11-20' }
    await harvestEuropePmc(database, configFor(server), window)
    await database.db.execute(sql`update papers set relevance = 1.5, topic = 'other', relevance_confidence = 1, judged_at = now(),
      extracted_at = now(), judgement_model = 'editor'`)
    abstract = '<p>Corrected abstract.</p>'
    expect(await harvestEuropePmc(database, configFor(server), window)).toMatchObject({ updated: 1, textChanged: 1 })
    const [row] = await database.rows<Record<string, unknown>>(
      sql`select abstract, relevance, topic, judgement_model, judged_at, extracted_at from papers`,
    )
    expect(row).toMatchObject({
      abstract: 'Corrected abstract.',
      relevance: 1.5,
      topic: 'other',
      judgement_model: 'editor',
      extracted_at: null,
    })
    expect(row.judged_at).not.toBeNull()
  })

  test('links waiting articles to a newly harvested paper with the same DOI', async () => {
    await database.db.execute(sql`insert into rss_sources (name, url) values ('Feed', 'http://feed.test/rss')`)
    await database.db.execute(
      sql`insert into articles (source_id, guid, title, doi) select id, 'g1', 'Early word', '10.1000/t.1' from rss_sources`,
    )
    server = replayServer(() => json(answer([record(1)])))
    await harvestEuropePmc(database, configFor(server), { today: '2026-11-21' })
    expect(await database.rows(sql`select paper_id from articles`)).toEqual([{ paper_id: 'MED-1' }])
  })

  test('a malformed page fails the run cleanly; the next run resumes at that page', async () => {
    const pages = new Map([
      ['*', answer([record(1)], 'c2', 3)],
      ['c2', answer([record(2)], 'c3+/=', 3)],
      ['c3+/=', answer([record(3)], 'c3+/=', 3)],
    ])
    let broken = true
    server = replayServer((_, url) => {
      const cursor = url.searchParams.get('cursorMark')!
      if (cursor === 'c2' && broken)
        return new Response('{"hitCount": 3, "resultList": {"result": [{"id"', {
          headers: { 'content-type': 'application/json' },
        })
      return json(pages.get(cursor) ?? { error: cursor })
    })
    await expect(
      harvestEuropePmc(database, configFor(server), { today: '2026-11-21', client: noWait }),
    ).rejects.toThrow('malformed JSON')
    expect(await count('papers')).toBe(1)
    expect((await readHarvestState(database.db, INCREMENTAL_STATE)).pending).toMatchObject({
      cursor: 'c2',
      done: 1,
      from: '2026-11-19',
      until: '2026-11-21',
    })

    broken = false
    const counts = await harvestEuropePmc(database, configFor(server), { today: '2026-11-22', client: noWait })
    expect(counts).toMatchObject({ pages: 2, inserted: 2 }) // the repeated cursor ended the loop
    expect(server.requests.map((u) => u.searchParams.get('cursorMark'))).toEqual(['*', 'c2', 'c2', 'c3+/='])
    // The resumed run finished the old window; the next one starts where it ended.
    expect(await readHarvestState(database.db, INCREMENTAL_STATE)).toEqual({
      harvestedThrough: '2026-11-21',
      pending: null,
    })
    expect(await count('papers')).toBe(3)
  })

  test('a record with NUL characters is stored without them; malformed and refused records cost only themselves', async () => {
    // Distinct words enough to make the search vector bigger than PostgreSQL's 1 MB: the database refuses that row alone.
    const huge = Array.from(
      { length: 100_000 },
      (_, i) => `w${((i * 2654435761) % 4294967296).toString(16).padStart(8, '0')}${i}`,
    ).join(' ')
    const pages = new Map([
      [
        '*',
        answer(
          [
            record(1, { abstractText: '<p>Senolytics\u0000 cleared\u0000 cells.</p>', title: 'Paper\u0000 1' }),
            { ...record(2), title: 42 } as unknown as EuropePmcRecord,
            record(3, { abstractText: huge }),
            record(4, { keywordList: { keyword: ['mTOR\u0000', 'aging\ud800'] } }),
          ],
          'c2',
          5,
        ),
      ],
      ['c2', answer([record(5)], 'c2', 5)],
    ])
    server = replayServer((_, url) => json(pages.get(url.searchParams.get('cursorMark')!)))
    const refused: string[] = []
    const counts = await harvestEuropePmc(database, configFor(server), {
      today: '2026-11-21',
      onRefused: (id, reason) => refused.push(`${id}: ${reason}`),
    })
    expect(counts).toMatchObject({ pages: 2, records: 5, inserted: 3, skipped: 2 })
    expect(refused).toEqual([
      expect.stringMatching(/^MED-3: the database refused the write: string is too long for tsvector/),
    ])
    expect(await database.rows(sql`select id, title, abstract, keywords from papers order by id`)).toEqual([
      { id: 'MED-1', title: 'Paper 1', abstract: 'Senolytics cleared cells.', keywords: [] },
      {
        id: 'MED-4',
        title: 'Paper 4 on senescence',
        abstract: 'Senolytics 4 cleared cells.',
        keywords: ['mTOR', 'aging\ufffd'],
      },
      { id: 'MED-5', title: 'Paper 5 on senescence', abstract: 'Senolytics 5 cleared cells.', keywords: [] },
    ])
    expect(await readHarvestState(database.db, INCREMENTAL_STATE)).toEqual({
      harvestedThrough: '2026-11-21',
      pending: null,
    })
  })

  test('retries 5xx, 429 (waiting at least Retry-After) and timeouts; other statuses fail at once', async () => {
    const waits: number[] = []
    const statuses = [503, 429, 0, 200]
    server = replayServer(async () => {
      const status = statuses.shift() ?? 200
      if (status === 0) {
        await Bun.sleep(300)
        return json(answer([]))
      }
      return status === 200
        ? json(answer([record(1)]))
        : new Response('busy', { status, headers: status === 429 ? { 'retry-after': '7' } : {} })
    })
    const client = { sleep: async (ms: number) => void waits.push(ms), backoffMs: 10, timeoutMs: 100, random: () => 1 }
    expect(await harvestEuropePmc(database, configFor(server), { today: '2026-11-21', client })).toMatchObject({
      inserted: 1,
    })
    expect(waits).toEqual([10, 7000, 40])

    server.requests.length = 0
    statuses.push(400)
    await expect(harvestEuropePmc(database, configFor(server), { today: '2026-11-21', client })).rejects.toThrow(
      'HTTP 400',
    )
    expect(server.requests.length).toBe(1)

    statuses.push(429)
    server.requests.length = 0
    await expect(
      harvestEuropePmc(database, configFor(server), {
        today: '2026-11-21',
        client: { ...client, maxRetryAfterMs: 5000 },
      }),
    ).rejects.toThrow('Europe PMC asked to wait 7 s (HTTP 429); the next run resumes here')
    expect(server.requests.length).toBe(1)

    statuses.push(500, 500, 500)
    await expect(
      harvestEuropePmc(database, configFor(server), { today: '2026-11-21', client: { ...client, retries: 2 } }),
    ).rejects.toThrow('HTTP 500 (gave up after 3 attempts)')
  })

  test('reports progress with the hit count as total', async () => {
    server = replayServer((_, url) =>
      json(
        url.searchParams.get('cursorMark') === '*' ? answer([record(1)], 'n', 2) : answer([record(2)], undefined, 2),
      ),
    )
    const seen: unknown[] = []
    await harvestEuropePmc(database, configFor(server), { today: '2026-11-21', onProgress: (p) => seen.push(p) })
    expect(seen).toEqual([
      { done: 1, total: 2 },
      { done: 2, total: 2 },
    ])
  })
})

describe.if(haveSharedFixtures)('harvestEuropePmc on recorded answers', () => {
  test('follows the recorded 10-page cursor chain to its end', async () => {
    const chain = haveSharedFixtures ? sharedFixtureJson<Answer[]>('europepmc/fetch_10pages_cancer.json') : []
    const byCursor = new Map<string, Answer>([['*', chain[0]]])
    chain.forEach((page, i) => {
      if (i + 1 < chain.length) byCursor.set(page.nextCursorMark!, chain[i + 1])
    })
    // Past the last page Europe PMC answers an empty list and repeats the cursor.
    server = replayServer((_, url) => {
      const cursor = url.searchParams.get('cursorMark')!
      return json(
        byCursor.get(cursor) ?? { hitCount: chain[0].hitCount, nextCursorMark: cursor, resultList: { result: [] } },
      )
    })
    const counts = await harvestEuropePmc(database, configFor(server), { since: '2024-12-01', until: '2024-12-31' })
    expect(counts).toMatchObject({ pages: 11, records: 1000, inserted: 947, skipped: 53 }) // 53 PMC records are not MED/PPR
    expect(await count('papers')).toBe(947)
    expect(await count('papers where preprint')).toBe(24)
  })

  test('stores the recorded core records with their MeSH headings', async () => {
    const body = sharedFixtureJson<Answer>('europepmc-mixed-core-150.json')
    server = replayServer(() => json(body))
    expect(await harvestEuropePmc(database, configFor(server), { today: '2026-11-21' })).toMatchObject({
      inserted: 150,
    })
    const [mesh] = await database.rows<{ n: number }>(
      sql`select count(distinct paper_id)::int as n from paper_entities where role = 'indexed'`,
    )
    expect(mesh.n).toBe(67)
  })
})
