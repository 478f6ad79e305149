/**
 * Bulk loading into PGlite (or any driver without COPY): one transaction per chunk of papers, one
 * multi-row INSERT per table, with the rows passed as a single JSON parameter and expanded by
 * json_populate_recordset. That is about three times faster in PGlite than drizzle's
 * `insert().values()`, whose tens of thousands of bind parameters dominate the load (the demo
 * corpus has to be in place within seconds of a first start).
 *
 * With `skipTriggers` the transaction skips foreign-key checks (see canSkipTriggers in
 * bulk-load.ts); papers go in first, in the same transaction, so their children's references hold.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import type { PaperBundle } from './corpus'
import {
  CLAIM_COLUMNS,
  HELD_STORY_COLUMNS,
  PAPER_COLUMNS,
  PAPER_ENTITY_COLUMNS,
  SEED_HELD_PROBLEMS,
  STORY_COLUMNS,
  type EntityIds,
} from './copy-format'
import { isPublishable } from '../pipeline/stories/publish'
import type { ChunkDone, RowCounts } from './load-postgres'

type Row = Record<string, unknown>

async function insertJson(tx: Pick<Db, 'execute'>, table: string, columns: string[], rows: Row[]): Promise<void> {
  if (rows.length === 0) return
  const list = sql.raw(columns.join(', '))
  await tx.execute(sql`insert into ${sql.raw(table)} (${list})
    select ${list} from json_populate_recordset(null::${sql.raw(table)}, ${JSON.stringify(rows)}::json)`)
}

function paperRow(b: PaperBundle): Row {
  const p = b.paper
  return {
    id: p.id,
    source: p.source,
    doi: p.doi,
    title: p.title,
    authors: p.authors,
    journal: p.journal,
    published_date: p.publishedDate,
    indexed_date: p.indexedDate,
    preprint: p.preprint,
    publication_types: p.publicationTypes,
    url: p.url,
    abstract: p.abstract,
    abstract_license: p.abstractLicense,
    mesh_headings: p.meshHeadings,
    keywords: p.keywords,
    chemicals: p.chemicals,
    relevance: p.relevance,
    relevance_confidence: p.relevanceConfidence,
    newsworthiness: p.newsworthiness,
    study_type: p.studyType,
    study_type_confidence: p.studyTypeConfidence,
    topic: p.topic,
    topic_confidence: p.topicConfidence,
    promotional: p.promotional,
    judgement_model: p.judgementModel,
    judgement_prompt_version: p.judgementPromptVersion,
    judged_at: p.judgedAt,
    extracted_at: p.extractedAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  }
}

async function insertChunk(db: Db, chunk: PaperBundle[], ids: EntityIds, skipTriggers: boolean): Promise<void> {
  const storyRows: Row[] = []
  const heldRows: Row[] = []
  const entityRows: Row[] = []
  const claimRows: Row[] = []
  for (const { paper, story, entities, claims } of chunk) {
    if (story) {
      const row = {
        paper_id: story.paperId,
        headline: story.headline,
        dek: story.dek,
        body: story.body,
        why_it_matters: story.whyItMatters,
        caveats: story.caveats,
        support: story.support,
        model: story.model,
      }
      // A story its support puts at 1 or less is held back, as the analysis would (src/pipeline/stories/publish.ts).
      if (isPublishable(story.support)) storyRows.push({ ...row, published_at: story.publishedAt })
      else heldRows.push({ ...row, written_at: story.publishedAt, problems: SEED_HELD_PROBLEMS })
    }
    for (const e of entities) {
      entityRows.push({
        paper_id: paper.id,
        entity_id: ids(e.type, e.key),
        role: e.role,
        detail: e.detail,
        indexed_date: paper.indexedDate,
      })
    }
    for (const c of claims) {
      claimRows.push({
        paper_id: paper.id,
        subject_text: c.subjectText,
        subject_entity_id: c.subjectEntity ? ids(c.subjectEntity.type, c.subjectEntity.key) : null,
        relation: c.relation,
        object_text: c.objectText,
        object_entity_id: c.objectEntity ? ids(c.objectEntity.type, c.objectEntity.key) : null,
        organism: c.organism,
        context: c.context,
        direction: c.direction,
        magnitude: c.magnitude,
        evidence: c.evidence,
        confidence: c.confidence,
        created_at: c.createdAt,
      })
    }
  }
  await db.transaction(async (tx) => {
    if (skipTriggers) await tx.execute(sql`set local session_replication_role = replica`)
    await insertJson(tx, 'papers', PAPER_COLUMNS, chunk.map(paperRow))
    await insertJson(tx, 'stories', STORY_COLUMNS, storyRows)
    await insertJson(tx, 'held_stories', HELD_STORY_COLUMNS, heldRows)
    await insertJson(tx, 'paper_entities', PAPER_ENTITY_COLUMNS, entityRows)
    await insertJson(tx, 'claims', CLAIM_COLUMNS, claimRows)
  })
}

export async function insertBundles(
  db: Db,
  bundles: Iterable<PaperBundle>,
  ids: EntityIds,
  chunkSize: number,
  skipTriggers: boolean,
  onChunk?: ChunkDone,
): Promise<RowCounts> {
  const counts: RowCounts = { papers: 0, stories: 0, heldStories: 0, paperEntities: 0, claims: 0 }
  let chunk: PaperBundle[] = []
  const flush = async () => {
    if (chunk.length === 0) return
    await insertChunk(db, chunk, ids, skipTriggers)
    onChunk?.(chunk.length)
    chunk = []
  }
  for (const bundle of bundles) {
    chunk.push(bundle)
    counts.papers++
    if (bundle.story && isPublishable(bundle.story.support)) counts.stories++
    else if (bundle.story) counts.heldStories++
    counts.paperEntities += bundle.entities.length
    counts.claims += bundle.claims.length
    if (chunk.length >= chunkSize) await flush()
  }
  await flush()
  return counts
}
