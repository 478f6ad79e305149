import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { claims, entities, papers, stories } from '../../../src/db/schema'
import { req, useTestApp } from '../../support/app'
import { bearer, insertClaim, insertEntity, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()
const db = () => api.database.db

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json(), headers: response.headers }
}

type Item = {
  id?: string | number
  paper_id?: string
  deleted?: true
  reason?: string
  changed_at?: string
  judgement?: { relevance: number } | null
  story?: unknown
}
type Page = {
  data: Item[]
  pagination: { next_cursor: string | null; has_more: boolean; limit: number; resume_cursor: string }
}

/** Every entry from `path` on, following next_cursor; returns them and the last resume_cursor. */
async function walk(path: string, limit = 2): Promise<{ items: Item[]; resume: string }> {
  const items: Item[] = []
  let url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`
  for (;;) {
    const { status, body } = (await get(url)) as { status: number; body: Page }
    expect(status).toBe(200)
    items.push(...body.data)
    if (!body.pagination.next_cursor) return { items, resume: body.pagination.resume_cursor }
    expect(body.pagination.resume_cursor).toBe(body.pagination.next_cursor)
    url = `${path}&limit=${limit}&cursor=${encodeURIComponent(body.pagination.next_cursor)}`
  }
}
const then = (path: string, resume: string) =>
  get(`${path}&cursor=${encodeURIComponent(resume)}`) as Promise<{ status: number; body: Page }>
const pause = () => new Promise((r) => setTimeout(r, 15))
const ids = (items: Item[]) => items.map((i) => i.id ?? i.paper_id)

describe('updated_since on /papers', () => {
  test('lists changed papers in change order, tombstones what left the list, and resumes exactly after', async () => {
    const since = new Date().toISOString()
    await pause()
    await insertPapers(db(), [
      paperRow({ id: 'MED-101' }),
      paperRow({ id: 'MED-102' }),
      paperRow({ id: 'MED-103', relevance: 1.2 }),
    ])
    await insertPapers(db(), [paperRow({ id: 'MED-104' })])
    const path = `/api/v1/papers?updated_since=${since}`
    const first = await walk(path)
    // MED-103 is tangential: under the default min_relevance=2 it is not in the list, so a mirror of the list drops it
    expect(first.items.map((i) => [i.id, i.deleted ?? false, i.reason ?? null])).toEqual([
      ['MED-101', false, null],
      ['MED-102', false, null],
      ['MED-103', true, 'excluded'],
      ['MED-104', false, null],
    ])
    const full = first.items[0] as Record<string, unknown>
    const listed = (await get('/api/v1/papers?limit=100')).body.data.find((p: Item) => p.id === 'MED-101')
    expect(full).toEqual(listed) // exactly the list's shape

    // nothing new: an empty page, same place
    const quiet = await then(path, first.resume)
    expect(quiet.body.data).toEqual([])
    expect(quiet.body.pagination.has_more).toBe(false)

    // a re-judgement moves MED-102 behind MED-104; a re-fetch that changes nothing served is no change
    await db().update(papers).set({ relevance: 2.9, judgedAt: new Date() }).where(eq(papers.id, 'MED-102'))
    await db()
      .update(papers)
      .set({ meshHeadings: [{ descriptor: 'Aging', major: true, qualifiers: [] }], updatedAt: new Date() })
      .where(eq(papers.id, 'MED-101'))
    const after = await then(path, quiet.body.pagination.resume_cursor)
    expect(ids(after.body.data)).toEqual(['MED-102'])
    expect(after.body.data[0]!.judgement!.relevance).toBe(2.9)

    // re-judged out of the list: a tombstone with reason excluded; back in: the paper again
    await db().update(papers).set({ relevance: 0.5 }).where(eq(papers.id, 'MED-104'))
    const out = await then(path, after.body.pagination.resume_cursor)
    expect(out.body.data).toEqual([
      { id: 'MED-104', deleted: true, reason: 'excluded', changed_at: expect.any(String) },
    ])
    // with min_relevance=0 the same change is the paper itself
    const all = await walk(`/api/v1/papers?updated_since=${since}&min_relevance=0`, 100)
    expect(all.items.find((i) => i.id === 'MED-104')!.deleted).toBeUndefined()
  })

  test('a story written or taken down changes its paper (the list item carries its headline)', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-201' })])
    const { resume } = await walk(`/api/v1/papers?updated_since=2000-01-01`, 100)
    await insertStory(db(), 'MED-201')
    const written = await then('/api/v1/papers?updated_since=2000-01-01', resume)
    expect(ids(written.body.data)).toEqual(['MED-201'])
    expect(written.body.data[0]!.story).toMatchObject({ headline: 'Headline for MED-201' })
    await db().delete(stories).where(eq(stories.paperId, 'MED-201'))
    const gone = await then('/api/v1/papers?updated_since=2000-01-01', written.body.pagination.resume_cursor)
    expect(gone.body.data.map((p) => [p.id, p.story])).toEqual([['MED-201', null]])
  })

  test('a deleted paper is a tombstone, with its story and claims', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-301' })])
    await insertStory(db(), 'MED-301')
    const claim = await insertClaim(db(), { paperId: 'MED-301' })
    const starts = await Promise.all(
      ['papers', 'stories', 'claims'].map((r) => walk(`/api/v1/${r}?updated_since=2000-01-01`, 100)),
    )
    await db().delete(papers).where(eq(papers.id, 'MED-301'))
    const [p, s, c] = await Promise.all(
      ['papers', 'stories', 'claims'].map((r, i) => then(`/api/v1/${r}?updated_since=2000-01-01`, starts[i]!.resume)),
    )
    expect(p!.body.data).toEqual([{ id: 'MED-301', deleted: true, reason: 'deleted', changed_at: expect.any(String) }])
    expect(s!.body.data).toEqual([
      { paper_id: 'MED-301', deleted: true, reason: 'deleted', changed_at: expect.any(String) },
    ])
    expect(c!.body.data).toEqual([{ id: claim!.id, deleted: true, reason: 'deleted', changed_at: expect.any(String) }])
  })

  test('updated_since leaves out what changed before it, and is combined with the other filters', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-401', topic: 'senescence' })])
    await pause()
    const since = new Date().toISOString()
    await pause()
    await insertPapers(db(), [
      paperRow({ id: 'MED-402', topic: 'senescence' }),
      paperRow({ id: 'MED-403', topic: 'glp-1' }),
    ])
    const { items } = await walk(`/api/v1/papers?updated_since=${since}&topic=senescence`, 100)
    expect(items.map((i) => [i.id, i.reason ?? 'listed'])).toEqual([
      ['MED-402', 'listed'],
      ['MED-403', 'excluded'],
    ])
  })
})

describe('updated_since on /stories and /claims', () => {
  test('a rewritten story is served again; a re-judged paper changes its story item', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-501' })])
    await insertStory(db(), 'MED-501')
    const path = '/api/v1/stories?updated_since=2000-01-01'
    const { items, resume } = await walk(path, 100)
    expect(ids(items)).toContain('MED-501')
    const listed = (await get('/api/v1/stories?limit=100')).body.data.find(
      (s: { paper_id: string }) => s.paper_id === 'MED-501',
    )
    expect(items.find((i) => i.paper_id === 'MED-501')).toEqual(listed)
    await db().update(stories).set({ headline: 'A better headline' }).where(eq(stories.paperId, 'MED-501'))
    const rewritten = await then(path, resume)
    expect(rewritten.body.data.map((s) => (s as { headline?: string }).headline)).toEqual(['A better headline'])
    await db().update(papers).set({ topic: 'senescence' }).where(eq(papers.id, 'MED-501'))
    const rejudged = await then(path, rewritten.body.pagination.resume_cursor)
    expect(
      rejudged.body.data.map((s) => (s as { paper: { judgement: { topic: string } } }).paper.judgement.topic),
    ).toEqual(['senescence'])
  })

  test('re-extraction replaces claims: the old become tombstones, the new are served', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-601' })])
    const old = [
      await insertClaim(db(), { paperId: 'MED-601' }),
      await insertClaim(db(), { paperId: 'MED-601', relation: 'increases' }),
    ] // one after another: the feed's order is the transactions'
    const path = '/api/v1/claims?updated_since=2000-01-01&paper_id=MED-601'
    const { items, resume } = await walk(path)
    // a deleted claim can no longer be matched against paper_id, so deletions come whatever the filters (MED-301's claim)
    expect(items.filter((i) => !i.deleted).map((i) => i.id)).toEqual(old.map((c) => c!.id))
    expect(items.filter((i) => i.deleted).every((i) => i.reason === 'deleted')).toBe(true)
    // as src/pipeline/analysis/store.ts does it: delete the paper's claims and insert the new ones, in one transaction
    const fresh = await db().transaction(async (tx) => {
      await tx.delete(claims).where(eq(claims.paperId, 'MED-601'))
      return tx
        .insert(claims)
        .values({ paperId: 'MED-601', subjectText: 'rapamycin', relation: 'decreases', objectText: 'mTOR' })
        .returning()
    })
    const next = await then(path, resume)
    expect(next.body.data.map((c) => [c.id, c.deleted ?? false])).toEqual([
      [old[0]!.id, true],
      [old[1]!.id, true],
      [fresh[0]!.id, false],
    ])
  })

  test('a licence change or an entity rename changes the claims that show it', async () => {
    await insertPapers(db(), [paperRow({ id: 'MED-701', abstractLicense: 'cc by' })])
    const entity = await insertEntity(db(), 'intervention', 'CHEBI:9168', 'sirolimus')
    const claim = await insertClaim(db(), { paperId: 'MED-701', subjectEntityId: entity!.id })
    const path = '/api/v1/claims?updated_since=2000-01-01&paper_id=MED-701'
    const { resume } = await walk(path)
    await db().update(papers).set({ abstractLicense: 'cc by-nc' }).where(eq(papers.id, 'MED-701'))
    const relicensed = await then(path, resume)
    expect(relicensed.body.data).toMatchObject([{ id: claim!.id, evidence: null }])
    await db().update(entities).set({ paperCount: 7 }).where(eq(entities.id, entity!.id)) // the minutely count refresh: no change
    await db().update(entities).set({ name: 'rapamycin' }).where(eq(entities.id, entity!.id))
    const renamed = await then(path, relicensed.body.pagination.resume_cursor)
    expect(renamed.body.data).toMatchObject([{ id: claim!.id, subject: { entity: { name: 'rapamycin' } } }])
  })
})

describe('GET /api/v1/changes', () => {
  test('lists every kind of change in one order, with deletions', async () => {
    const since = new Date().toISOString()
    await pause()
    await insertPapers(db(), [paperRow({ id: 'MED-801' })])
    await insertStory(db(), 'MED-801')
    const claim = await insertClaim(db(), { paperId: 'MED-801' })
    await db().delete(claims).where(eq(claims.id, claim!.id))
    const { status, body } = await get(`/api/v1/changes?updated_since=${since}`)
    expect(status).toBe(200)
    // the story marked its paper again, so the paper comes after the story's first mark... both at the story's write
    expect(body.data.map((e: { type: string; id: unknown; deleted: boolean }) => [e.type, e.id, e.deleted])).toEqual([
      ['paper', 'MED-801', false],
      ['story', 'MED-801', false],
      ['claim', claim!.id, true],
    ])
    const only = await get(`/api/v1/changes?updated_since=${since}&type=claim`)
    expect(only.body.data.map((e: { type: string }) => e.type)).toEqual(['claim'])
    expect(typeof body.pagination.resume_cursor).toBe('string')
  })

  test('without updated_since, every existing item is in the feed', async () => {
    const all = await walk('/api/v1/changes?type=paper', 100)
    const count = await db().execute(sql`select count(*)::int as n from papers`)
    const n =
      (count as unknown as { rows?: { n: number }[] }).rows?.[0]?.n ?? (count as unknown as { n: number }[])[0]!.n
    expect(all.items.filter((i) => !(i as { deleted: boolean }).deleted)).toHaveLength(n)
  })
})

describe('retention', () => {
  test('the daily purge drops tombstones older than 31 days, keeps newer ones and every live item', async () => {
    const { purgeTombstones } = await import('../../../src/resources/changes/queries')
    const { changeFeed } = await import('../../../src/db/schema')
    await insertPapers(db(), [paperRow({ id: 'MED-1201' }), paperRow({ id: 'MED-1202' }), paperRow({ id: 'MED-1203' })])
    await db().delete(papers).where(sql`id in ('MED-1201', 'MED-1202')`)
    // MED-1201 went 32 days ago, MED-1202 30 days ago; MED-1203 is live but its last change is 40 days old
    await db().update(changeFeed).set({ changedAt: sql`now() - interval '32 days'` }).where(sql`item_id = 'MED-1201'`)
    await db().update(changeFeed).set({ changedAt: sql`now() - interval '30 days'` }).where(sql`item_id = 'MED-1202'`)
    await db().update(changeFeed).set({ changedAt: sql`now() - interval '40 days'` }).where(sql`item_id = 'MED-1203'`)
    expect(await purgeTombstones(db())).toBe(1)
    const left = await db()
      .select({ id: changeFeed.itemId })
      .from(changeFeed)
      .where(sql`item_id like 'MED-120%' and resource = 'paper'`)
    expect(left.map((r) => r.id).sort()).toEqual(['MED-1202', 'MED-1203'])
  })
})
