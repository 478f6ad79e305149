/**
 * CSV answers of the list endpoints: asked for by format=csv or Accept: text/csv, read back with a
 * CSV library (csv-parse), one row per JSON item with the documented columns, the same licensing,
 * the next page in a Link header, errors as JSON envelopes, and JSON answers unchanged.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { gunzipSync } from 'node:zlib'
import { CSV_COLUMNS } from '../../../src/csv/columns'
import { req, useTestApp } from '../../support/app'
import { insertClaim, insertPapers, insertStory, paperRow } from '../../support/fixtures'
import { insertCountedEntity } from '../../support/fixtures-knowledge'

const api = useTestApp()

const get = (path: string, headers: Record<string, string> = {}) =>
  api.app.handle(req(path, { headers: { authorization: `Bearer ${api.key}`, ...headers } }))

/** The rows of a CSV answer as objects keyed by column, and its header line. */
async function table(response: Response): Promise<{ columns: string[]; rows: Record<string, string>[] }> {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  const text = await response.text()
  const records = parse(text, { relax_column_count: false }) as string[][]
  const [columns, ...lines] = records
  return { columns, rows: lines.map((line) => Object.fromEntries(columns.map((c, i) => [c, line[i]]))) }
}

const json = async (response: Response) => {
  expect(response.status).toBe(200)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await response.json()) as { data: Record<string, any>[]; pagination: { next_cursor: string | null } }
}

const UNJUDGED = {
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
}

const IDS = ['MED-9301', 'MED-9302', 'MED-9303', 'MED-9304', 'MED-9305']

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [
    paperRow({ id: 'MED-9301', indexedDate: '2026-10-01', title: 'Senolytics, "quoted", and\nnew lines' }),
    paperRow({ id: 'MED-9302', indexedDate: '2026-10-02', abstractLicense: 'cc by-nc', abstract: 'Withheld.' }),
    paperRow({ id: 'MED-9303', indexedDate: '2026-10-03', abstractLicense: null, publicationTypes: ['A', 'Review'] }),
    paperRow({ id: 'MED-9304', indexedDate: '2026-10-04', ...UNJUDGED }),
    paperRow({ id: 'MED-9305', indexedDate: '2026-10-05', topic: 'senescence' }),
  ])
  await insertStory(db, 'MED-9305', { headline: 'Clearing old cells, again' })
  await insertClaim(db, { paperId: 'MED-9301', evidence: 'Open evidence sentence.', context: { sex: 'male', n: 40 } })
  await insertClaim(db, { paperId: 'MED-9302', evidence: 'Evidence under a closed licence.' })
  await insertCountedEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', 3, { chebi: 'CHEBI:9168' })
})

describe('papers as CSV', () => {
  test('format=csv: the documented columns, one row per item of the JSON answer, the same values', async () => {
    const { columns, rows } = await table(await get('/api/v1/papers?min_relevance=0&format=csv'))
    expect(columns).toEqual([...CSV_COLUMNS.papers])
    const { data } = await json(await get('/api/v1/papers?min_relevance=0'))
    expect(rows.map((r) => r.id)).toEqual(data.map((p) => p.id))
    const first = rows.find((r) => r.id === 'MED-9301')!
    expect(first.title).toBe('Senolytics, "quoted", and\nnew lines') // quoting round-trips
    expect(first['judgement.relevance']).toBe('2.6')
    expect(first['judgement.topic']).toBe('mtor-rapamycin')
    expect(first.preprint).toBe('false')
    expect(first['story.headline']).toBe('') // no story: null is an empty cell
    expect(rows.find((r) => r.id === 'MED-9303')!.publication_types).toBe('A; Review')
    expect(rows.find((r) => r.id === 'MED-9305')!['story.headline']).toBe('Clearing old cells, again')
    const unjudged = rows.find((r) => r.id === 'MED-9304')!
    const judgementColumns = CSV_COLUMNS.papers.filter((c) => c.startsWith('judgement.'))
    expect(judgementColumns.map((c) => unjudged[c])).toEqual(Array(12).fill(''))
  })

  test('the licence rules hold as in JSON: an abstract withheld there is empty here', async () => {
    const { rows } = await table(await get('/api/v1/papers?format=csv'))
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]))
    expect(byId['MED-9301'].abstract).toContain('Rapamycin extended')
    expect(byId['MED-9301'].abstract_license).toBe('cc by')
    expect(byId['MED-9302'].abstract).toBe('')
    expect(byId['MED-9302'].abstract_license).toBe('cc by-nc')
    expect(byId['MED-9303'].abstract).toBe('')
    expect(byId['MED-9303'].abstract_license).toBe('')
  })

  test('Accept: text/csv gives the same CSV; JSON stays the default and is unchanged by Accept', async () => {
    const viaFormat = await (await get('/api/v1/papers?format=csv')).text()
    const viaAccept = await get('/api/v1/papers', { accept: 'text/csv' })
    expect(viaAccept.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(await viaAccept.text()).toBe(viaFormat)
    const plain = await get('/api/v1/papers')
    const plainBody = await plain.text()
    expect(plain.headers.get('content-type')).toBe('application/json')
    expect(plain.headers.get('vary')).toContain('Accept')
    const others = [
      'application/json',
      '*/*',
      'text/*',
      'application/json, text/csv;q=0.5',
      'text/html',
      'text/csv;q=0',
    ]
    for (const accept of others) {
      const answer = await get('/api/v1/papers', { accept })
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(await answer.text()).toBe(plainBody)
    }
    const json = await get('/api/v1/papers?format=json', { accept: 'text/csv' }) // format wins over Accept
    expect(json.headers.get('content-type')).toBe('application/json')
  })

  test('paging: the Link header carries the next page, other parameters kept, until the last page', async () => {
    const seen: string[] = []
    let url: string | null = '/api/v1/papers?min_relevance=0&limit=2&format=csv'
    let pages = 0
    while (url) {
      const response = await get(url)
      const link = response.headers.get('link')
      seen.push(...(await table(response)).rows.map((r) => r.id))
      pages++
      if (!link) break
      const match = /^<https:\/\/geroscope\.test(\/api\/v1\/papers\?[^>]+)>; rel="next"$/.exec(link)
      expect(match).not.toBeNull()
      expect(match![1]).toContain('min_relevance=0&limit=2&format=csv&cursor=')
      url = match![1]
    }
    expect(pages).toBe(3)
    expect(seen).toEqual([...IDS].reverse())
  })

  test('browser code may read the Link header (CORS exposes it)', async () => {
    const response = await get('/api/v1/papers?min_relevance=0&limit=2&format=csv', { origin: 'https://lab.example' })
    expect(response.headers.get('link')).toStartWith('<https://geroscope.test/api/v1/papers?')
    expect(response.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/)).toContain('link')
  })

  test('fields= keeps only the columns of the fields named', async () => {
    const { columns, rows } = await table(await get('/api/v1/papers?fields=id,judgement.topic,story&format=csv'))
    expect(columns).toEqual(['id', 'judgement.topic', 'story.headline', 'story.dek', 'story.url'])
    expect(rows.find((r) => r.id === 'MED-9305')!['judgement.topic']).toBe('senescence')
  })

  test('an ETag and 304 as for JSON, and gzip when asked', async () => {
    const first = await get('/api/v1/papers?format=csv', { 'accept-encoding': 'gzip' })
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^W\//)
    const body = Buffer.from(await first.arrayBuffer())
    const text = first.headers.get('content-encoding') === 'gzip' ? gunzipSync(body).toString() : body.toString()
    expect(text.startsWith('id,source,doi,title')).toBe(true)
    const again = await get('/api/v1/papers?format=csv', { 'if-none-match': etag! })
    expect(again.status).toBe(304)
    const jsonEtag = (await get('/api/v1/papers')).headers.get('etag')
    expect(jsonEtag).not.toBe(etag)
  })
})

describe('errors stay JSON', () => {
  test('a bad format is 400 invalid_parameter naming format', async () => {
    const response = await get('/api/v1/papers?format=xml')
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toContain('application/json')
    const { error } = (await response.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toBe('format must be json or csv (got "xml")')
  })

  test('any other error of a CSV request is the JSON envelope', async () => {
    const failing = [
      ['/api/v1/papers?format=csv&limit=0', {}],
      ['/api/v1/claims?limit=0', { accept: 'text/csv' }],
    ] as const
    for (const [path, headers] of failing) {
      const response = await get(path, headers)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('limit')
    }
  })

  test('format=csv with an answer that is not a flat list is a 400 naming format; Accept: text/csv: JSON', async () => {
    for (const clash of ['ids=MED-9301', 'updated_since=2026-01-01', 'group_by=topic', 'count=true']) {
      const response = await get(`/api/v1/papers?${clash}&format=csv`)
      expect(response.status).toBe(400)
      const { error } = (await response.json()) as { error: { message: string } }
      expect(error.message).toStartWith('format=csv cannot be combined with')
      const negotiated = await get(`/api/v1/papers?${clash}`, { accept: 'text/csv' })
      expect(negotiated.status).toBe(200)
      expect(negotiated.headers.get('content-type')).toBe('application/json')
    }
  })
})

describe('the other lists', () => {
  test('/search: the paper columns and score', async () => {
    const { columns, rows } = await table(await get('/api/v1/search?q=rapamycin&min_relevance=0&format=csv'))
    expect(columns).toEqual([...CSV_COLUMNS.search])
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(Number(row.score)).toBeGreaterThan(0)
  })

  test('/stories: the story, then its paper under paper.', async () => {
    const { columns, rows } = await table(await get('/api/v1/stories', { accept: 'text/csv' }))
    expect(columns).toEqual([...CSV_COLUMNS.stories])
    expect(rows.map((r) => [r.paper_id, r.headline, r['paper.title'], r['paper.judgement.topic']])).toEqual([
      ['MED-9305', 'Clearing old cells, again', expect.stringContaining('Test paper'), 'senescence'],
    ])
    expect(rows[0].body).toBe('First paragraph.\n\nSecond paragraph.')
  })

  test('/claims: evidence follows the licence, context is JSON text', async () => {
    const { columns, rows } = await table(await get('/api/v1/claims?format=csv'))
    expect(columns).toEqual([...CSV_COLUMNS.claims])
    const byPaper = Object.fromEntries(rows.map((r) => [r.paper_id, r]))
    expect(byPaper['MED-9301'].evidence).toBe('Open evidence sentence.')
    expect(JSON.parse(byPaper['MED-9301'].context)).toEqual({ sex: 'male', n: 40 })
    expect(byPaper['MED-9302'].evidence).toBe('')
    expect(byPaper['MED-9302']['subject.text']).toBe('rapamycin')
    expect(byPaper['MED-9302']['paper.id']).toBe('MED-9302')
  })

  test('/entities: ids as JSON text', async () => {
    const { columns, rows } = await table(await get('/api/v1/entities?format=csv'))
    expect(columns).toEqual([...CSV_COLUMNS.entities])
    const rapamycin = rows.find((r) => r.key === 'CHEBI:9168')!
    expect(JSON.parse(rapamycin.ids)).toEqual({ chebi: 'CHEBI:9168' })
    expect(rapamycin.paper_count).toBe('3')
  })

  test('an empty page is the header line alone', async () => {
    const response = await get('/api/v1/claims?relation=nothing_like_this&format=csv')
    expect(await response.text()).toBe(`${CSV_COLUMNS.claims.join(',')}\r\n`)
  })
})
