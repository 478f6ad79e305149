/**
 * Stores mapped papers idempotently, inside the caller's transaction:
 * - a new id is inserted, unjudged and unextracted, so analysis picks it up;
 * - a known id whose record changed is updated in place. If its text (title or abstract) changed,
 *   the judgement and extraction mark are cleared, because they described other words; if only
 *   metadata changed (dates, journal, licence, types, MeSH...), the judgement stays: re-judging
 *   unchanged text would cost an LLM call and give the same answer;
 * - an unchanged record writes nothing at all (updated_at included), so a repeated window is a no-op.
 * indexed_date never changes: it is the day the paper entered the service. A record saying the paper was
 * retracted or withdrawn takes the paper out instead (withdrawalOf, withdraw).
 * MeSH headings become `mesh` entities linked with role `indexed`; every written paper is queued for
 * search, and articles waiting for a paper with the same DOI are linked to it.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { papers, withdrawnPapers } from '../../../db/schema'
import { EDITOR_MODEL } from '../../judgements/judgement'
import { enqueueSearchSync } from '../../../search/outbox'
import { meshKey } from '../../../lexicon/mesh-key'
import type { MappedPaper } from './mapping'

export type StoreCounts = {
  inserted: number
  updated: number
  textChanged: number
  unchanged: number
  withdrawn: number
}

/**
 * Why a record says its paper is withdrawn at the source, or null: MEDLINE marks a retracted article
 * with the publication type "Retracted Publication" (the notice itself is a "Retraction of
 * Publication", an ordinary record), and PubMed and publishers prefix the title of a retracted or
 * withdrawn article ("RETRACTED:", "RETRACTED ARTICLE:", "WITHDRAWN:").
 */
export function withdrawalOf(p: Pick<MappedPaper, 'publicationTypes' | 'title'>): 'retracted' | 'withdrawn' | null {
  if (p.publicationTypes.includes('Retracted Publication')) return 'retracted'
  const prefix = /^\s*(retracted(?: article)?|withdrawn)\s*:/i.exec(p.title)
  if (!prefix) return null
  return prefix[1]!.toLowerCase().startsWith('retracted') ? 'retracted' : 'withdrawn'
}

/**
 * A withdrawn paper leaves the service with everything derived from it (its story, links and claims
 * go by cascade; the change feed records each as deleted) and its id is kept in withdrawn_papers, so
 * a later record of it is not stored again and the feed's tombstones say "withdrawn".
 */
async function withdraw(db: Db, withdrawn: { id: string; reason: string }[]): Promise<void> {
  const ids = withdrawn.map((w) => w.id)
  await db.execute(sql`
    insert into withdrawn_papers (id, reason)
    select id, reason from unnest(${sql.param(ids)}::text[], ${sql.param(withdrawn.map((w) => w.reason))}::text[]) as
      w(id, reason)
    on conflict (id) do nothing`)
  await db.execute(sql`delete from papers where id = any(${sql.param(ids)}::text[])`)
  await enqueueSearchSync(db, ids) // the search index drops them too
}

type Existing = Omit<MappedPaper, 'id' | 'source' | 'indexedDate'> & { id: string; indexedDate: string }

/** What the service keeps of a record, in a fixed order (jsonb does not keep key order). */
function fingerprint(p: Omit<MappedPaper, 'id' | 'source' | 'indexedDate'>): string {
  return JSON.stringify([
    p.doi,
    p.title,
    p.authors,
    p.journal,
    p.publishedDate,
    p.preprint,
    p.publicationTypes,
    p.url,
    p.abstract,
    p.abstractLicense,
    p.meshHeadings.map((m) => [m.descriptor, m.major, m.qualifiers]),
    p.keywords,
    p.chemicals.map((c) => [c.name, c.registry]),
  ])
}

type PaperColumn = keyof typeof papers.$inferInsert
const METADATA: PaperColumn[] = [
  'doi',
  'title',
  'authors',
  'journal',
  'publishedDate',
  'preprint',
  'publicationTypes',
  'url',
  'abstract',
  'abstractLicense',
  'meshHeadings',
  'keywords',
  'chemicals',
]
const JUDGEMENT: PaperColumn[] = [
  'relevance',
  'relevanceConfidence',
  'newsworthiness',
  'studyType',
  'studyTypeConfidence',
  'topic',
  'topicConfidence',
  'promotional',
  'judgementModel',
  'judgementPromptVersion',
  'judgedAt',
  'extractedAt',
]
const column = (key: PaperColumn) => papers[key].name
const INSERTED = sql.raw(['id', 'source', 'indexedDate', ...METADATA].map((k) => column(k as PaperColumn)).join(', '))
const textChanged =
  '(papers.title is distinct from excluded.title or papers.abstract is distinct from excluded.abstract)'
// An editor's judgement (src/pipeline/judgements/correct.ts) outlives a new text: the editor read the paper,
// and the analysis never replaces it; entities and claims are still extracted again.
const judgementRedone = `${textChanged} and papers.judgement_model is distinct from '${EDITOR_MODEL}'`
// ON CONFLICT: new metadata; the judgement kept unless the text changed; indexed_date never moves.
const UPDATE_SET = sql.raw(
  [
    ...METADATA.map((k) => `${column(k)} = excluded.${column(k)}`),
    ...JUDGEMENT.map(
      (k) =>
        `${column(k)} = case when ${k === 'extractedAt' ? textChanged : judgementRedone} then null else ` +
        `papers.${column(k)} end`,
    ),
    'updated_at = now()',
  ].join(', '),
)

/**
 * One statement for the whole page, its rows passed as a single JSON parameter: with drizzle's
 * `values()` the ~17 bind parameters per row made this the slowest step of a harvest.
 */
async function upsertPapers(db: Db, rows: MappedPaper[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((p) => ({
      id: p.id,
      source: p.source,
      indexed_date: p.indexedDate,
      doi: p.doi,
      title: p.title,
      authors: p.authors,
      journal: p.journal,
      published_date: p.publishedDate,
      preprint: p.preprint,
      publication_types: p.publicationTypes,
      url: p.url,
      abstract: p.abstract,
      abstract_license: p.abstractLicense,
      mesh_headings: p.meshHeadings,
      keywords: p.keywords,
      chemicals: p.chemicals,
    })),
  )
  await db.execute(sql`insert into papers (${INSERTED})
    select ${INSERTED} from json_populate_recordset(null::papers, ${json}::json)
    on conflict (id) do update set ${UPDATE_SET}`)
}

const meshOf = (p: { meshHeadings: MappedPaper['meshHeadings'] }) =>
  JSON.stringify(p.meshHeadings.map((m) => [m.descriptor, m.major, m.qualifiers]))

type MeshLinks = { id: string; indexedDate: string; mesh: MappedPaper['meshHeadings']; isNew: boolean }

async function linkMesh(db: Db, written: MeshLinks[]) {
  const ids = written.filter((w) => !w.isNew).map((w) => w.id)
  if (ids.length)
    await db.execute(sql`
    delete from paper_entities pe using entities e
    where pe.entity_id = e.id and e.type = 'mesh' and pe.role = 'indexed' and pe.paper_id =
      any(${sql.param(ids)}::text[])`)
  const names = new Map<string, string>()
  const links: { paper: string; key: string; date: string; detail: string }[] = []
  for (const w of written) {
    const seen = new Set<string>()
    for (const m of w.mesh) {
      const key = meshKey(m.descriptor)
      if (!key || seen.has(key)) continue
      seen.add(key)
      if (!names.has(key)) names.set(key, m.descriptor)
      links.push({
        paper: w.id,
        key,
        date: w.indexedDate,
        detail: JSON.stringify({ major: m.major, qualifiers: m.qualifiers }),
      })
    }
  }
  if (links.length === 0) return
  await db.execute(sql`
    insert into entities (type, key, name)
    select 'mesh', k, n from unnest(${sql.param([...names.keys()])}::text[], ${sql.param([...names.values()])}::text[])
      as t(k, n)
    on conflict (type, key) do nothing`)
  await db.execute(sql`
    insert into paper_entities (paper_id, entity_id, role, detail, indexed_date)
    select l.paper_id, e.id, 'indexed', l.detail::jsonb, l.indexed_date::date
    from unnest(${sql.param(links.map((l) => l.paper))}::text[], ${sql.param(links.map((l) => l.key))}::text[],
                ${sql.param(links.map((l) => l.detail))}::text[], ${sql.param(links.map((l) => l.date))}::text[])
      as l(paper_id, key, detail, indexed_date)
    join entities e on e.type = 'mesh' and e.key = l.key
    on conflict do nothing`)
}

export async function storePapers(db: Db, batch: MappedPaper[]): Promise<StoreCounts> {
  const byId = new Map(batch.map((p) => [p.id, p])) // a page repeating an id keeps its last version
  const counts: StoreCounts = { inserted: 0, updated: 0, textChanged: 0, unchanged: 0, withdrawn: 0 }
  if (byId.size === 0) return counts
  const gone = await db
    .select({ id: withdrawnPapers.id })
    .from(withdrawnPapers)
    .where(sql`${withdrawnPapers.id} = any(${sql.param([...byId.keys()])}::text[])`)
  const withdrawn: { id: string; reason: string }[] = []
  for (const paper of byId.values()) {
    const reason = withdrawalOf(paper)
    if (reason) withdrawn.push({ id: paper.id, reason })
  }
  for (const { id } of [...gone, ...withdrawn]) byId.delete(id) // withdrawn once, out for good
  if (withdrawn.length) {
    await withdraw(db, withdrawn)
    counts.withdrawn = withdrawn.length
  }
  if (byId.size === 0) return counts
  const existing = new Map<string, Existing>()
  const rows = await db
    .select({
      id: papers.id,
      doi: papers.doi,
      title: papers.title,
      authors: papers.authors,
      journal: papers.journal,
      publishedDate: papers.publishedDate,
      indexedDate: papers.indexedDate,
      preprint: papers.preprint,
      publicationTypes: papers.publicationTypes,
      url: papers.url,
      abstract: papers.abstract,
      abstractLicense: papers.abstractLicense,
      meshHeadings: papers.meshHeadings,
      keywords: papers.keywords,
      chemicals: papers.chemicals,
    })
    .from(papers)
    .where(sql`${papers.id} = any(${sql.param([...byId.keys()])}::text[])`) // one parameter, however long the page
  for (const row of rows) existing.set(row.id, row)

  const toWrite: MappedPaper[] = []
  const written: MeshLinks[] = []
  for (const paper of byId.values()) {
    const old = existing.get(paper.id)
    if (!old) counts.inserted++
    else if (fingerprint(old) === fingerprint(paper)) {
      counts.unchanged++
      continue
    } else {
      counts.updated++
      if (old.title !== paper.title || old.abstract !== paper.abstract) counts.textChanged++
    }
    toWrite.push(paper)
    if (!old || meshOf(old) !== meshOf(paper))
      written.push({
        id: paper.id,
        indexedDate: old?.indexedDate ?? paper.indexedDate,
        mesh: paper.meshHeadings,
        isNew: !old,
      })
  }
  if (toWrite.length === 0) return counts

  await upsertPapers(db, toWrite)
  if (written.length) await linkMesh(db, written)
  const ids = toWrite.map((p) => p.id)
  await enqueueSearchSync(db, ids)
  await db.execute(sql`
    update articles a set paper_id = p.id from papers p
    where p.id = any(${sql.param(ids)}::text[]) and p.doi is not null and a.doi = p.doi and a.paper_id is null`)
  return counts
}
