/**
 * Writes one paper's analysis in one transaction: the judgement columns (and the judgement's
 * version, in the same statement), the story, the entities and claims. A judgement an editor
 * corrected (judgement_model 'editor', src/pipeline/judgements/correct.ts) is never overwritten: the row is
 * locked before it is read, and the update itself skips it, so no correction landing meanwhile is lost. Re-analysis
 * replaces the paper's earlier entities (all but the harvester's `indexed` subject headings) and claims; a story is
 * replaced only by a new story, so a published story does
 * not vanish because a later run judged the paper less newsworthy, but a changed judgement without a
 * new story rewrites the paper's story from it (stories/rewrite.ts). A story the support check
 * scores 1 or less is held back, not published (stories/publish.ts).
 */
import { and, eq, ne, sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import { articleAnalyses, articles, claims, entities, paperEntities, papers } from '../../db/schema'
import { placeStory } from '../stories/publish'
import { rewriteStory } from '../stories/rewrite'
import { entityAliases } from '../../lexicon/aliases'
import { EDITOR_MODEL } from '../judgements/judgement'
import { enqueueSearchSync } from '../../search/outbox'
import type { ArticleResult, PaperAnalysis } from './analyzer'
import type { ClaimSide } from './types'
import { resolvedSide } from './side-entity'

type EntityKey = { type: string; key: string; name: string; ids: Record<string, string> }
const keyOf = (e: { type: string; key: string }) => `${e.type}\u0000${e.key}`

/**
 * Inserts missing entities and returns the id of every one asked for. Existing rows are read, not
 * updated, so concurrent analyses never lock each other's entities; new ones are inserted in key
 * order, so two transactions adding the same new entities wait for each other instead of deadlocking.
 */
export async function entityIds(tx: Db, wanted: EntityKey[]): Promise<Map<string, number>> {
  const unique = [...new Map(wanted.map((e) => [keyOf(e), e])).values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1))
  const ids = new Map<string, number>()
  if (unique.length === 0) return ids
  await tx
    .insert(entities)
    .values(
      unique.map((e) => ({
        type: e.type,
        key: e.key,
        name: e.name,
        ids: e.ids,
        aliases: entityAliases(e.type, e.key, e.name),
      })),
    )
    .onConflictDoNothing()
  const rows = await executeRows<{ id: number; type: string; key: string }>(
    tx,
    sql`
    select e.id, e.type, e.key from entities e
    join unnest(${sql.param(unique.map((e) => e.type))}::text[], ${sql.param(unique.map((e) => e.key))}::text[]) as
      w(type, key)
      on e.type = w.type and e.key = w.key`,
  )
  for (const r of rows) ids.set(keyOf(r), r.id)
  return ids
}

const sideEntity = (s: ClaimSide): EntityKey[] => (s.entity ? [s.entity] : [])

export type StoreResult = {
  judgementChanged: boolean
  story: boolean
  storyHeld: boolean
  entities: number
  claims: number
}

export async function storePaperAnalysis(
  db: Db,
  paperId: string,
  analysis: PaperAnalysis,
  model: string,
  promptVersion: string,
  now = new Date(),
): Promise<StoreResult> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        relevance: papers.relevance,
        newsworthiness: papers.newsworthiness,
        studyType: papers.studyType,
        topic: papers.topic,
        promotional: papers.promotional,
        indexedDate: papers.indexedDate,
        judgementModel: papers.judgementModel,
      })
      .from(papers)
      .where(eq(papers.id, paperId))
      .for('update')
    if (!before) return { judgementChanged: false, story: false, storyHeld: false, entities: 0, claims: 0 }
    const j = analysis.judgement
    const corrected = before.judgementModel === EDITOR_MODEL
    if (corrected) {
      await tx.update(papers).set({ extractedAt: now, updatedAt: now }).where(eq(papers.id, paperId))
    } else {
      // The version goes in with the judgement, in one statement: no round trip more per paper, and
      // never a judgement without its version.
      const at = now.toISOString()
      await tx.execute(sql`
        with judged as (
          update papers set relevance = ${j.relevance}, relevance_confidence = ${j.relevanceConfidence}, newsworthiness
            = ${j.newsworthiness},
            study_type = ${j.studyType}, study_type_confidence = ${j.studyTypeConfidence}, topic = ${j.topic},
            topic_confidence = ${j.topicConfidence}, promotional = ${j.promotional}, judgement_model = ${model},
            judgement_prompt_version = ${promptVersion}, judged_at = ${at}::timestamptz, extracted_at =
              ${at}::timestamptz,
            updated_at = ${at}::timestamptz
          where id = ${paperId} and judgement_model is distinct from ${EDITOR_MODEL}
          returning id, relevance, relevance_confidence, study_type, study_type_confidence, topic, topic_confidence,
            newsworthiness,
            judgement_model, judgement_prompt_version, judged_at)
        insert into judgement_versions (paper_id, relevance, relevance_confidence, study_type, study_type_confidence,
          topic,
          topic_confidence, newsworthiness, model, prompt_version, judged_at)
        select * from judged`)
    }
    const judgementChanged =
      !corrected &&
      (before.relevance !== j.relevance ||
        before.newsworthiness !== j.newsworthiness ||
        before.studyType !== j.studyType ||
        before.topic !== j.topic ||
        before.promotional !== j.promotional)
    if (judgementChanged) await enqueueSearchSync(tx, [paperId])

    // A story the support check scores 1 or less waits with the operators instead of being published
    // (stories/publish.ts).
    let placed = analysis.story ? await placeStory(tx, paperId, analysis.story, now) : null
    // A changed judgement without a story of its own: the paper's story is rewritten from it, so it never keeps the
    // design or organism words of the judgement it replaced.
    if (!placed && judgementChanged) {
      const rewritten = await rewriteStory(tx, paperId, now)
      if (rewritten.status !== 'none') placed = rewritten.status
    }

    // Whatever the analyzer, a side written as a lexicon name or alias is stored with its entity.
    const found = analysis.claims.map((c) => ({
      ...c,
      subject: resolvedSide(c.subject),
      object: resolvedSide(c.object),
    }))
    const ids = await entityIds(tx, [
      ...analysis.entities,
      ...found.flatMap((c) => [...sideEntity(c.subject), ...sideEntity(c.object)]),
    ])
    await tx.delete(paperEntities).where(and(eq(paperEntities.paperId, paperId), ne(paperEntities.role, 'indexed')))
    const links = new Map<string, typeof paperEntities.$inferInsert>()
    for (const e of analysis.entities) {
      if (e.role === 'indexed') continue // subject headings belong to ingestion
      const entityId = ids.get(keyOf(e))!
      links.set(`${entityId}:${e.role}`, {
        paperId,
        entityId,
        role: e.role,
        detail: e.detail,
        indexedDate: before.indexedDate,
      })
    }
    if (links.size)
      await tx
        .insert(paperEntities)
        .values([...links.values()])
        .onConflictDoNothing()

    await tx.delete(claims).where(eq(claims.paperId, paperId))
    if (found.length) {
      await tx.insert(claims).values(
        found.map((c) => ({
          paperId,
          subjectText: c.subject.text,
          subjectEntityId: c.subject.entity ? ids.get(keyOf(c.subject.entity))! : null,
          relation: c.relation,
          objectText: c.object.text,
          objectEntityId: c.object.entity ? ids.get(keyOf(c.object.entity))! : null,
          organism: c.organism,
          context: c.context,
          direction: c.direction,
          magnitude: c.magnitude,
          evidence: c.evidence,
          confidence: c.confidence,
          createdAt: now,
        })),
      )
    }
    return {
      judgementChanged,
      story: placed === 'published',
      storyHeld: placed === 'held',
      entities: links.size,
      claims: found.length,
    }
  })
}

export async function storeArticleAnalysis(
  db: Db,
  articleId: number,
  result: ArticleResult,
  model: string,
  promptVersion: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    const values = {
      summary: result.summary,
      keyPoints: result.keyPoints,
      tags: result.tags,
      entities: result.entities,
      claims: result.claims,
      model,
      promptVersion,
      createdAt: now,
    }
    await tx
      .insert(articleAnalyses)
      .values({ articleId, ...values })
      .onConflictDoUpdate({ target: articleAnalyses.articleId, set: values })
    await tx.update(articles).set({ analysedAt: now }).where(eq(articles.id, articleId))
  })
}
