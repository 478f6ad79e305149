/**
 * The demo installation: a synthetic 2,000-paper corpus over the last 90 days, a member account with
 * a working API key, reader accounts whose upvotes make PaperDetail.upvotes non-trivial, a few RSS
 * sources, and contradictions and gaps computed from it (the `intelligence` job, run once now, so
 * /api/intelligence answers on first start without waiting for its schedule). Loaded only into an
 * empty database.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { accounts, papers, rssSources } from '../db/schema'
import { createAccount, findAccount } from '../accounts/accounts'
import { createKey } from '../accounts/keys'
import { refreshIntelligence } from '../intelligence/refresh'
import { loadCorpus, type CorpusCounts } from './bulk-load'

export const DEMO_SEED = 1
export const DEMO_PAPERS = 2000
export const DEMO_USERNAME = 'demo'
const READERS = 12

/** Journal and preprint feeds that carry aging research; scraped by the workers. */
export const DEMO_SOURCES = [
  { name: 'Aging Cell', url: 'https://onlinelibrary.wiley.com/feed/14749726/most-recent' },
  { name: 'Nature Aging', url: 'https://www.nature.com/nataging.rss' },
  { name: 'GeroScience', url: 'https://link.springer.com/search.rss?facet-journal-id=11357' },
  { name: 'Aging (Albany NY)', url: 'https://www.aging-us.com/rss' },
  { name: 'bioRxiv: Cell Biology', url: 'https://connect.biorxiv.org/biorxiv_xml/subject/cell_biology' },
]

export type DemoResult =
  | { loaded: false; papers: number }
  | { loaded: true; counts: CorpusCounts; apiKey: string; username: string }

export async function countPapers(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(papers)
  return row.n
}

export async function seedDemo(database: Database, endDate = new Date().toISOString().slice(0, 10)): Promise<DemoResult> {
  const existing = await countPapers(database)
  if (existing > 0) return { loaded: false, papers: existing }
  const { db } = database
  // Nothing later than now: the corpus ends today. Ten minutes back leaves room for the seconds by which a
  // paper's claims follow its extraction (src/seed/extraction.ts).
  const now = Date.now()
  const counts = await loadCorpus(database,
    { papers: DEMO_PAPERS, seed: DEMO_SEED, endDate, days: 90, notAfter: now - 10 * 60_000 })

  // Readers cannot log in ("!" is no password hash); they exist to upvote.
  await db.insert(accounts)
    .values(Array.from({ length: READERS }, (_, i) => ({ username: `reader-${i + 1}`, passwordHash: '!', role: 'member' })))
    .onConflictDoNothing()
  await db.execute(sql`
    insert into upvotes (paper_id, account_id, created_at)
    select p.id, a.id,
      least(p.indexed_date::timestamptz + interval '1 day', ${new Date(now).toISOString()}::timestamptz)
    from papers p cross join accounts a
    where a.username like 'reader-%' and p.newsworthiness is not null
      and abs(hashtext(p.id || ':' || a.username)) % 12 < round(p.newsworthiness * 3)
    on conflict do nothing`)

  const password = crypto.randomUUID()
  if (!(await findAccount(db, DEMO_USERNAME))) {
    await createAccount(db, { username: DEMO_USERNAME, password, role: 'member', membership: 'active' })
  }
  const { key } = await createKey(db, DEMO_USERNAME, 'member', 'demo key')
  await db.insert(rssSources).values(DEMO_SOURCES).onConflictDoNothing()
  await refreshIntelligence(database)
  return { loaded: true, counts, apiKey: key, username: DEMO_USERNAME }
}
