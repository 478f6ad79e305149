/**
 * The versions of a paper's judgement (judgement_versions): written by the analysis in the same
 * statement as the judgement (src/pipeline/analysis/store.ts), by an editor's correction (correct.ts), and
 * read newest first by GET /api/papers/{id}/judgement/history.
 */
import { eq, sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import { isoTimestamp, type Timestamp } from '../../queries/prepared'
import type { StudyType, TopicSlug } from '../../taxonomy'
import { papers } from '../../db/schema'
import { judgementOf, paperJudgementColumns, type Judgement } from './judgement'

/**
 * Records the paper's current judgement as a version unless it already is the latest one: papers
 * judged before versions were kept (or loaded by the seed) get their judgement into the history
 * before an editor replaces it, so the history says what the editor corrected.
 */
export async function recordCurrentJudgement(db: Db, paperId: string): Promise<void> {
  await db.execute(sql`
    insert into judgement_versions (paper_id, relevance, relevance_confidence, study_type, study_type_confidence, topic,
      topic_confidence,
      newsworthiness, model, prompt_version, judged_at)
    select p.id, p.relevance, p.relevance_confidence, p.study_type, p.study_type_confidence, p.topic,
      p.topic_confidence,
      p.newsworthiness, coalesce(p.judgement_model, 'unknown'), p.judgement_prompt_version, p.judged_at
    from papers p
    where p.id = ${paperId} and p.relevance is not null and p.judged_at is not null
      and not exists (
        select 1 from (select v.judged_at, v.model from judgement_versions v where v.paper_id = p.id order by v.id desc
          limit 1) latest
        where latest.judged_at = p.judged_at and latest.model = coalesce(p.judgement_model, 'unknown'))`)
}

export type JudgementVersion = {
  version: number
  judgement: Judgement
  note: string | null
  by: { id: number; username: string } | null
  at: string
}

type VersionRow = {
  version: number
  relevance: number
  relevance_confidence: number | null
  study_type: string | null
  study_type_confidence: number | null
  topic: string | null
  topic_confidence: number | null
  newsworthiness: number | null
  model: string
  prompt_version: string | null
  judged_at: Timestamp
  note: string | null
  account_id: number | null
  username: string | null
}

/**
 * Every version of the paper's judgement, newest first (version 1 is the oldest kept), or null when
 * there is no such paper. A current judgement written before versions were kept, or by a writer
 * that keeps none (the seed), is listed as the newest version, as an editor's correction would
 * record it (recordCurrentJudgement).
 */
export async function judgementHistory(db: Db, paperId: string): Promise<JudgementVersion[] | null> {
  const [current] = await db.select(paperJudgementColumns).from(papers).where(eq(papers.id, paperId))
  if (!current) return null
  const rows = await executeRows<VersionRow>(
    db,
    sql`
    select (row_number() over (order by v.id))::int as version, v.relevance, v.relevance_confidence, v.study_type,
      v.study_type_confidence,
      v.topic, v.topic_confidence, v.newsworthiness, v.model, v.prompt_version, v.judged_at, v.note, a.id as account_id,
        a.username
    from judgement_versions v left join accounts a on a.id = v.account_id
    where v.paper_id = ${paperId}
    order by v.id desc`,
  )
  const versions = rows.map((r): JudgementVersion => {
    const at = isoTimestamp(r.judged_at)
    return {
      version: Number(r.version),
      judgement: {
        relevance: Number(r.relevance),
        relevance_confidence: num(r.relevance_confidence),
        study_type: r.study_type as StudyType | null,
        study_type_confidence: num(r.study_type_confidence),
        topic: r.topic as TopicSlug | null,
        topic_confidence: num(r.topic_confidence),
        newsworthiness: num(r.newsworthiness),
        model: r.model,
        prompt_version: r.prompt_version,
        judged_at: at,
      },
      note: r.note,
      by: r.account_id === null ? null : { id: Number(r.account_id), username: r.username! },
      at,
    }
  })
  const judgement = judgementOf(current)
  const latest = versions[0]?.judgement
  if (judgement && !(latest && latest.judged_at === judgement.judged_at && latest.model === judgement.model)) {
    versions.unshift({ version: versions.length + 1, judgement, note: null, by: null, at: judgement.judged_at })
  }
  return versions
}

const num = (x: number | null) => (x === null ? null : Number(x))
