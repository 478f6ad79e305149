/**
 * A process that writes papers, analyses, corrections, upvotes, withdrawals and document (paper and claim) refreshes as fast as
 * it can, for the crash test: one line on stdout per step done (written synchronously), until it is killed.
 *   bun test/documents/crash-child.ts <seed>
 * The database: DATABASE_URL (PostgreSQL) or PGLITE_DIR (an embedded database on disk).
 */
import { writeSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { openDatabase } from '../../src/db/client'
import { accounts, papers, upvotes } from '../../src/db/schema'
import { refreshPaperDocuments } from '../../src/documents/papers'
import { refreshClaimDocuments } from '../../src/documents/claims'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { correctJudgement } from '../../src/pipeline/judgements/correct'
import { harvested } from './support'

const database = process.env.DATABASE_URL
  ? await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL, max: 4 })
  : await openDatabase({ kind: 'pglite', dataDir: process.env.PGLITE_DIR! })
const db = database.db
let state = Number(process.argv[2] ?? 1)
const next = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0
  return state / 4294967296
}
const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]
const [account] = await db
  .insert(accounts)
  .values({ username: `crash-${process.pid}`, passwordHash: '!', role: 'member', membership: 'active' })
  .onConflictDoNothing()
  .returning()
const analyzer = builtinAnalyzer()
const quiet = () => {}
writeSync(1, 'ready\n')
for (;;) {
  const live = (await db.select({ id: papers.id }).from(papers)).map((r) => r.id)
  const n = Math.floor(next() * 60)
  const id = live.length ? pick(live) : null
  const step = pick([
    'harvest',
    'harvest',
    'reharvest',
    'analyse',
    'correct',
    'upvote',
    'withdraw',
    'refresh',
    'refresh',
    'rename',
  ])
  if (step === 'harvest')
    await storePapers(
      db,
      Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => harvested(n * 10 + i)),
    )
  else if (step === 'refresh') {
    await refreshPaperDocuments(db, { batch: 5 })
    await refreshClaimDocuments(db, { batch: 5 })
  } else if (step === 'rename')
    await db.execute(
      sql`update entities set name = name || '′' where id = (select id from entities order by random() limit 1)`,
    )
  else if (id) {
    const k = Number(id.slice(4)) - 900000
    if (step === 'reharvest')
      await storePapers(db, [
        harvested(k, { title: `Revised ${n}`, abstractLicense: pick(['cc by', 'cc by-nc', null]) }),
      ])
    if (step === 'analyse')
      await runAnalysis(db, analyzer, { only: { paperIds: [id], articleIds: [] }, onFailure: quiet })
    if (step === 'correct')
      await correctJudgement(
        db,
        id,
        { relevance: pick([1, 2, 3]), studyType: 'animal', topic: 'senescence', note: 'crash' },
        account.id,
        new Date(),
      )
    if (step === 'upvote' && account)
      await db.insert(upvotes).values({ paperId: id, accountId: account.id }).onConflictDoNothing()
    if (step === 'withdraw')
      await storePapers(db, [harvested(k, { title: `RETRACTED: x ${n}`, publicationTypes: ['Retracted Publication'] })])
    if (step === 'upvote' && next() < 0.3) await db.delete(upvotes).where(eq(upvotes.paperId, id))
  }
  writeSync(1, `${step}\n`)
}
