/** TypeBox schemas of the briefs: statements with citations, sections, the stored brief and its list item. */
import { t } from 'elysia'
import { Enum, Integer, Nullable, Pagination } from '../schemas'

const DateString = t.String({ format: 'date' })
const Url = t.String({ format: 'uri' })

export const BRIEF_KINDS = ['comprehensive', 'tag_based'] as const

const Statement = t.Object({
  text: t.String(),
  citations: t.Array(t.String(), { minItems: 1, description: 'refs of the citations this statement rests on' }),
})

export const Citation = t.Object({
  ref: t.String({ description: 'P<n> for a paper, A<n> for a feed article, C<n> for a contradiction between papers' }),
  type: Enum(['paper', 'article', 'contradiction']),
  paper_id: Nullable(t.String({ description: 'The paper, or the paper a feed article is about' })),
  article_id: Nullable(Integer()),
  title: t.String(),
  source: t.String({ description: 'Journal, preprint server or feed' }),
  date: Nullable(DateString),
  url: Nullable(t.String({ description: 'The paper or article; for a contradiction, its group in the admin API' })),
  site_url: Nullable(Url),
  contradiction_id: Nullable(
    t.String({
      description: 'The contradiction group a contradiction citation links (GET /api/intelligence/contradictions/{id})',
    }),
  ),
})

const Filters = t.Object({
  topics: t.Array(t.String()),
  entities: t.Array(t.String()),
  source_tags: t.Array(t.String()),
})
const Window = t.Object({ since: DateString, until: DateString })

const summaryFields = {
  id: Integer({ minimum: 1 }),
  kind: Enum(BRIEF_KINDS),
  title: t.String(),
  window: Window,
  filters: Filters,
  counts: t.Record(t.String(), Integer({ minimum: 0 }), {
    description:
      'papers_in_window, papers_considered, articles_considered, notices (feed items that are events, calls, jobs or ' +
      'press notices, set apart), statements, citations, dropped_citations (citations a model made to items it was ' +
      'not given), dropped_statements (model statements their cited items do not support)',
  }),
  model: t.String({ description: 'The model that wrote it, or geroscope-builtin-1 for the built-in analyzer' }),
  prompt_version: Nullable(t.String()),
  created_at: t.String({ format: 'date-time' }),
  created_by: Nullable(Integer()),
  url: Url,
}

export const BriefSummary = t.Object(summaryFields)

export const Brief = t.Object({
  ...summaryFields,
  summary: t.Array(Statement),
  sections: t.Array(t.Object({ heading: t.String(), statements: t.Array(Statement) })),
  citations: t.Array(Citation),
  content: t.String({ description: 'Plain-text rendering: summary, sections, then the sources by ref' }),
})

export const BriefOne = t.Object({ data: Brief })
export const BriefList = t.Object({ data: t.Array(BriefSummary), pagination: Pagination })
