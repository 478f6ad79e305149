/**
 * Editors' corrections as hand-judged labels (`cli labels export`), in the format of the
 * hand-labelled set (scripts/eval/hand-labelled/*.json, read by scripts/eval/hand-labelled.ts):
 * one entry per paper whose current judgement is an editor's, with the label an editor would write
 * (integer relevance and newsworthiness 0-3) and a rationale (the correction's note). Corrected
 * papers are not fixture records, so each carries its record (what the analyzer reads) inline.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import type { MeshHeading } from '../../db/schema'
import { EDITOR_MODEL } from './judgement'

export const LABELS_SOURCE = 'editor-corrections'

export type ExportedLabel = {
  id: string
  relevance: 0 | 1 | 2 | 3
  study_type: string
  topic: string
  newsworthiness: 0 | 1 | 2 | 3
  rationale: string
  record: {
    title: string
    abstract: string | null
    journal: string
    publication_types: string[]
    mesh_headings: MeshHeading[]
    keywords: string[]
  }
}

export type LabelsFile = { source: typeof LABELS_SOURCE; exported_at: string; papers: ExportedLabel[] }

type Row = {
  id: string
  relevance: number
  study_type: string | null
  topic: string | null
  newsworthiness: number | null
  note: string | null
  title: string
  abstract: string | null
  journal: string
  publication_types: string[]
  mesh_headings: MeshHeading[] | string
  keywords: string[]
}

/** A 0-3 level: the nearest integer, clamped (relevance is stored in hundredths). */
const level = (x: number | null) => Math.min(3, Math.max(0, Math.round(x ?? 0))) as 0 | 1 | 2 | 3

/** Every paper an editor's judgement stands on, in id order, with the note of that correction. */
export async function editorLabels(db: Db, now: Date): Promise<LabelsFile> {
  const rows = await executeRows<Row>(
    db,
    sql`
    select p.id, p.relevance, p.study_type, p.topic, p.newsworthiness, latest.note, p.title, p.abstract, p.journal,
      p.publication_types,
      p.mesh_headings, p.keywords
    from papers p
    left join lateral (
      select v.note from judgement_versions v where v.paper_id = p.id and v.model = ${EDITOR_MODEL} order by v.id desc
        limit 1
    ) latest on true
    where p.judgement_model = ${EDITOR_MODEL} and p.relevance is not null
    order by p.id`,
  )
  return {
    source: LABELS_SOURCE,
    exported_at: now.toISOString(),
    papers: rows.map((r) => ({
      id: r.id,
      relevance: level(r.relevance),
      study_type: r.study_type ?? 'other',
      topic: r.topic ?? 'other',
      newsworthiness: level(r.newsworthiness),
      rationale: r.note?.trim() ? r.note : 'editor correction',
      record: {
        title: r.title,
        abstract: r.abstract,
        journal: r.journal,
        publication_types: r.publication_types,
        mesh_headings: typeof r.mesh_headings === 'string' ? JSON.parse(r.mesh_headings) : r.mesh_headings,
        keywords: r.keywords,
      },
    })),
  }
}
