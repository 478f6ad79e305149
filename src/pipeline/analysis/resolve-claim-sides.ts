/**
 * Claims already stored, read again: a side stored without an entity whose text names one in the
 * lexicon (./side-entity.ts: "rapamycin", "Sirolimus", "p16INK4a", "temsirolimus") gets it. Claims
 * stored before the reading existed (an older analyzer, the demo corpus, a model's names) and claims
 * stored under an older lexicon are covered alike.
 *
 * Idempotent and batched: claims are read in id order, BATCH at a time, each batch in its own
 * transaction that also moves the watermark (job_state 'claim-sides': the last claim id read, under
 * the lexicon version and SIDE_RULES it was read with). New claims always get higher ids, so each run
 * reads only the claims stored since the last; a new lexicon or new rules start again from the first.
 * Two processes at once wait for each other on an advisory lock, and the second finds the work done.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import { LEXICON_VERSION } from '../../lexicon/lexicon'
import { SIDE_RULES, sideEntity } from './side-entity'
import { entityIds } from './store'

const STATE = 'claim-sides'
const BATCH = 1000

export type ResolveResult = { read: number; resolved: number }

type Row = {
  id: number
  subjectText: string
  subjectEntityId: number | null
  objectText: string
  objectEntityId: number | null
}
const keyOf = (e: { type: string; key: string }) => `${e.type}\u0000${e.key}`

/** Reads the claims stored since the last run (all of them under a new lexicon or rules), `batch` at a time. */
export async function resolveClaimSides(db: Db, batch = BATCH): Promise<ResolveResult> {
  const version = `${LEXICON_VERSION}.${SIDE_RULES}`
  const result: ResolveResult = { read: 0, resolved: 0 }
  for (;;) {
    // Until a batch finds nothing: that pass moves the watermark past the newest claim.
    const empty = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${0x6765}, hashtext(${STATE}))`)
      const [state] = await executeRows<{ state: { version?: string; after?: number } }>(
        tx,
        sql`select state from job_state where name = ${STATE}`,
      )
      const after = state?.state.version === version ? (state.state.after ?? 0) : 0
      const rows = await executeRows<Row>(
        tx,
        sql`
        select id, subject_text as "subjectText", subject_entity_id as "subjectEntityId", object_text as "objectText",
          object_entity_id as "objectEntityId"
        from claims where id > ${after} and (subject_entity_id is null or object_entity_id is null)
        order by id limit ${batch}`,
      )
      if (rows.length === 0) {
        // Nothing left: the watermark moves to the newest claim, so the next run starts after it.
        const [top] = await executeRows<{ id: number | null }>(tx, sql`select max(id) as id from claims`)
        await saveState(tx, version, Math.max(after, top?.id ?? 0))
        return true
      }
      const found = rows
        .map((r) => ({
          id: r.id,
          subject: r.subjectEntityId === null ? sideEntity(r.subjectText) : null,
          object: r.objectEntityId === null ? sideEntity(r.objectText) : null,
        }))
        .filter((f) => f.subject || f.object)
      const ids = await entityIds(
        tx,
        found.flatMap((f) => [f.subject, f.object].filter((e) => e !== null)),
      )
      const updates = found.map((f) => ({
        id: f.id,
        subject: f.subject ? (ids.get(keyOf(f.subject)) ?? null) : null,
        object: f.object ? (ids.get(keyOf(f.object)) ?? null) : null,
      }))
      if (updates.length) {
        // Only sides still unresolved are set: a side resolved meanwhile (a re-analysis) keeps its entity.
        await tx.execute(sql`
          update claims c set
            subject_entity_id = coalesce(c.subject_entity_id, u.subject),
            object_entity_id = coalesce(c.object_entity_id, u.object)
          from unnest(${sql.param(updates.map((u) => u.id))}::integer[],
            ${sql.param(updates.map((u) => u.subject))}::integer[],
            ${sql.param(updates.map((u) => u.object))}::integer[]) as u(id, subject, object)
          where c.id = u.id`)
      }
      await saveState(tx, version, rows[rows.length - 1].id)
      result.read += rows.length
      result.resolved += updates.length
      return false
    })
    if (empty) return result
  }
}

async function saveState(tx: Db, version: string, after: number) {
  const state = JSON.stringify({ version, after })
  await tx.execute(sql`insert into job_state (name, state, updated_at) values (${STATE}, ${state}::jsonb, now())
    on conflict (name) do update set state = excluded.state, updated_at = now()`)
}
