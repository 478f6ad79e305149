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
import { refreshIntelligence } from '../pipeline/intelligence/refresh'
import { loadCorpus, type CorpusCounts, type LoadStep } from './bulk-load'

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

/** The steps of a demo load, in order: the corpus's (bulk-load.ts), the accounts and feeds, the intelligence job. */
export type DemoStep = LoadStep | 'accounts' | 'intelligence'
/**
 * What a demo load reports as it goes (start-up prints it): the papers written so far, chunk by chunk,
 * and each step once done, with the time it took.
 */
export type DemoProgress =
  | { kind: 'start'; papers: number }
  | { kind: 'papers'; papers: number; total: number; elapsedMs: number }
  | { kind: 'step'; step: DemoStep; elapsedMs: number }
export type OnDemoProgress = (progress: DemoProgress) => void

export async function countPapers(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(papers)
  return row.n
}

export async function seedDemo(
  database: Database,
  endDate = new Date().toISOString().slice(0, 10),
  onProgress: OnDemoProgress = () => {},
): Promise<DemoResult> {
  const existing = await countPapers(database)
  if (existing > 0) return { loaded: false, papers: existing }
  onProgress({ kind: 'start', papers: DEMO_PAPERS })
  const { db } = database
  // Nothing later than now: the corpus ends today. Ten minutes back leaves room for the seconds by which a
  // paper's claims follow its extraction (src/seed/extraction.ts).
  const now = Date.now()
  const counts = await loadCorpus(
    database,
    { papers: DEMO_PAPERS, seed: DEMO_SEED, endDate, days: 90, notAfter: now - 10 * 60_000, chunk: 500 },
    (p) => onProgress({ kind: 'papers', papers: p.papers, total: p.total ?? DEMO_PAPERS, elapsedMs: p.elapsedMs }),
    (step, elapsedMs) => onProgress({ kind: 'step', step, elapsedMs }),
  )
  let mark = performance.now()

  // Readers cannot log in ("!" is no password hash); they exist to upvote.
  await db
    .insert(accounts)
    .values(
      Array.from({ length: READERS }, (_, i) => ({ username: `reader-${i + 1}`, passwordHash: '!', role: 'member' })),
    )
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
  onProgress({ kind: 'step', step: 'accounts', elapsedMs: performance.now() - mark })
  mark = performance.now()
  await refreshIntelligence(database)
  onProgress({ kind: 'step', step: 'intelligence', elapsedMs: performance.now() - mark })
  return { loaded: true, counts, apiKey: key, username: DEMO_USERNAME }
}
