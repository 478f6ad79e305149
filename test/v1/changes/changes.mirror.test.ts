/**
 * A mirror kept by the change feed alone: it starts from nothing, applies every page of
 * /papers, /stories and /claims with updated_since (items replace, tombstones delete), and after
 * each round of changes must equal the live lists exactly.
 */
import { describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { claims, entities, papers, stories } from '../../../src/db/schema'
import { req, useTestApp } from '../../support/app'
import { bearer, insertClaim, insertEntity, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()
const db = () => api.database.db

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  expect(response.status).toBe(200)
  return response.json() as Promise<{
    data: Record<string, unknown>[]
    pagination: { next_cursor: string | null; resume_cursor?: string }
  }>
}

/** Every item of a list, following next_cursor. */
async function everything(path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = []
  let url = `${path}${path.includes('?') ? '&' : '?'}limit=100`
  for (;;) {
    const body = await get(url)
    items.push(...body.data)
    if (!body.pagination.next_cursor) return items
    url = `${path}${path.includes('?') ? '&' : '?'}limit=100&cursor=${encodeURIComponent(body.pagination.next_cursor)}`
  }
}

const FEEDS = [
  { list: '/api/v1/papers?min_relevance=0', key: 'id' },
  { list: '/api/v1/stories', key: 'paper_id' },
  { list: '/api/v1/claims', key: 'id' },
] as const

class Mirror {
  readonly copies = FEEDS.map(() => new Map<unknown, Record<string, unknown>>())
  readonly resume: (string | null)[] = FEEDS.map(() => null)
  pages = 0

  /** Applies each feed from where it stopped, small pages to exercise the cursors. */
  async sync() {
    for (const [i, feed] of FEEDS.entries()) {
      const base = `${feed.list}${feed.list.includes('?') ? '&' : '?'}updated_since=1970-01-01T00:00:00Z&limit=3`
      let cursor = this.resume[i]
      for (;;) {
        const body = await get(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base)
        this.pages++
        for (const item of body.data) {
          if (item.deleted === true) this.copies[i]!.delete(item[feed.key])
          else this.copies[i]!.set(item[feed.key], item)
        }
        this.resume[i] = body.pagination.resume_cursor!
        if (!body.pagination.next_cursor) break
        cursor = body.pagination.next_cursor
      }
    }
  }

  async expectEqualsLive() {
    for (const [i, feed] of FEEDS.entries()) {
      const live = await everything(feed.list)
      const sort = (rows: Record<string, unknown>[]) =>
        [...rows].sort((a, b) => String(a[feed.key]).localeCompare(String(b[feed.key])))
      expect(sort([...this.copies[i]!.values()])).toEqual(sort(live))
    }
  }
}

describe('a mirror kept by the change feed', () => {
  test('equals the live data through creations, re-judgements, re-extraction, story changes and deletions', async () => {
    const mirror = new Mirror()
    const entity = await insertEntity(db(), 'intervention', 'CHEBI:9168', 'sirolimus')
    const paperIds = Array.from({ length: 12 }, (_, n) => `MED-${900 + n}`)

    // 1. creations: papers (some unjudged, some tangential), stories, claims
    await insertPapers(
      db(),
      paperIds.map((id, n) =>
        paperRow({
          id,
          relevance: n % 4 === 0 ? null : 1 + (n % 3),
          judgedAt: n % 4 === 0 ? null : new Date('2026-10-02T06:00:00Z'),
          abstractLicense: n % 2 ? 'cc by' : null,
        }),
      ),
    )
    for (const id of paperIds.slice(0, 6)) await insertStory(db(), id)
    for (const id of paperIds.slice(0, 8)) {
      await insertClaim(db(), { paperId: id, subjectEntityId: entity!.id })
      await insertClaim(db(), { paperId: id, relation: 'increases', objectText: 'autophagy' })
    }
    await mirror.sync()
    await mirror.expectEqualsLive()

    // 2. re-judgements, one a judgement of an unjudged paper
    await db()
      .update(papers)
      .set({ relevance: 0.4, topic: 'other', judgedAt: new Date() })
      .where(eq(papers.id, paperIds[1]!))
    await db()
      .update(papers)
      .set({ relevance: 2.7, judgedAt: new Date(), judgementModel: 'm2' })
      .where(eq(papers.id, paperIds[0]!))
    await mirror.sync()
    await mirror.expectEqualsLive()

    // 3. re-extraction (as the analysis store does it) and a story rewritten, another taken down, one new
    for (const id of paperIds.slice(2, 5)) {
      await db().transaction(async (tx) => {
        await tx.delete(claims).where(eq(claims.paperId, id))
        await tx.insert(claims).values({
          paperId: id,
          subjectText: 'metformin',
          relation: 'decreases',
          objectText: 'mTOR',
          evidence: 'Quote.',
        })
        await tx.update(papers).set({ extractedAt: new Date() }).where(eq(papers.id, id))
      })
    }
    await db()
      .update(stories)
      .set({ headline: 'Rewritten', body: 'New body.' })
      .where(eq(stories.paperId, paperIds[2]!))
    await db().delete(stories).where(eq(stories.paperId, paperIds[3]!))
    await insertStory(db(), paperIds[9]!)
    await mirror.sync()
    await mirror.expectEqualsLive()

    // 4. several rounds of changes applied at once (the feed is compacted: each item once, at its latest state),
    // a licence change (evidence and abstracts withheld), an entity rename, deletions
    await db().update(papers).set({ abstractLicense: 'cc by-nc' }).where(eq(papers.id, paperIds[5]!))
    await db().update(entities).set({ name: 'rapamycin' }).where(eq(entities.id, entity!.id))
    await db().update(papers).set({ title: 'Corrected title' }).where(eq(papers.id, paperIds[6]!))
    await db().update(papers).set({ title: 'Corrected again' }).where(eq(papers.id, paperIds[6]!))
    await db()
      .delete(papers)
      .where(inArray(papers.id, [paperIds[7]!, paperIds[0]!]))
    await insertPapers(db(), [paperRow({ id: 'MED-999' })])
    await insertStory(db(), 'MED-999')
    await insertClaim(db(), { paperId: 'MED-999' })
    await mirror.sync()
    await mirror.expectEqualsLive()

    // 5. a quiet poll changes nothing
    const before = mirror.copies.map((c) => c.size)
    await mirror.sync()
    expect(mirror.copies.map((c) => c.size)).toEqual(before)
    await mirror.expectEqualsLive()
  })
})
