/** Bodies, parameters and answers of POST /api/scrape, POST /api/analyze and GET /api/jobs (operators). */
import { t } from 'elysia'
import { booleanField, integerField, listField, optional, stringField } from '../../../http/json-body'
import { listParam, pagingParams, stringParam } from '../../../http/params'
import { DateTime, Enum, Integer, Nullable, Pagination } from '../schemas'

export const MAX_NAMED = 500

const wait = optional(
  booleanField(
    'Default true: answer when the run has ended, with what it did. false: answer at once (202) with the ' +
      'run as GET /api/jobs/runs/{id} shows it, and let it go on; follow it there (progress, elapsed time) and stop ' +
      'it with POST /api/jobs/runs/{id}/cancel.',
  ),
)

export const scrapeBody = {
  source_ids: optional(
    listField(
      'Only these sources, enabled or not; default: every enabled source.',
      integerField('A source id.', 1, 2_147_483_647),
      { min: 1, max: MAX_NAMED },
    ),
  ),
  wait,
}

export const MAX_ANALYZE_LIMIT = 10_000

export const analyzeBody = {
  paper_ids: optional(
    listField(
      'Analyse exactly these papers (again, if already analysed) instead of the pending ones.',
      stringField('A paper id, case-insensitive.', {
        max: 20,
        pattern: /^(MED|PPR)-[0-9]{1,12}$/i,
        patternRule: 'must be a paper id like MED-39172536',
        example: 'MED-39172536',
      }),
      { min: 1, max: MAX_NAMED },
    ),
  ),
  article_ids: optional(
    listField(
      'Analyse exactly these feed articles (again, if already analysed) instead of the pending ones.',
      integerField('An article id.', 1, 2_147_483_647),
      { min: 1, max: MAX_NAMED },
    ),
  ),
  limit: optional(
    integerField(
      'At most this many papers, and this many articles, in the run. Default: 50 with a model (LLM_*), 1,000 with ' +
        'the built-in analyzer.',
      1,
      MAX_ANALYZE_LIMIT,
    ),
  ),
  stale: optional(
    booleanField('Also redo papers judged with an older version of the judge prompt (pending mode only).'),
  ),
  wait,
}

export const exportBody = { wait }

const FailureCount = Integer({
  minimum: 0,
  description: 'How many things the run failed at and went on past: the sum of its `failed` and `*_failed` counts.',
})

const RunTimes = {
  run_id: Integer({ minimum: 1, description: 'The job_runs row of this run (GET /api/jobs).' }),
  job: t.String(),
  status: Enum(['ok', 'partial', 'cancelled'] as const, {
    description:
      '`partial` when some of the work failed (failure_count of it) and the run went on with the rest; `cancelled` ' +
      'when an operator stopped it (POST /api/jobs/runs/{id}/cancel) while it ran: it ended at a unit, with the ' +
      'counts of what it did.',
  }),
  failure_count: FailureCount,
  started_at: DateTime,
  finished_at: DateTime,
  duration_ms: Integer({ minimum: 0 }),
}

export const ScrapeAnswer = t.Object({
  data: t.Object({
    ...RunTimes,
    counts: t.Object({
      sources: Integer({ minimum: 0 }),
      failed: Integer({ minimum: 0 }),
      not_modified: Integer({ minimum: 0 }),
      items: Integer({ minimum: 0 }),
      added: Integer({ minimum: 0 }),
      linked: Integer({ minimum: 0 }),
      skipped: Integer({
        minimum: 0,
        description: 'Items left out: no usable link, guid or DOI, or text that cannot be stored.',
      }),
      links_refused: Integer({
        minimum: 0,
        description: 'Links that were not absolute http(s) URLs (javascript:, data:, relative...), dropped.',
      }),
    }),
    sources: t.Array(
      t.Object({
        id: Integer({ minimum: 1 }),
        name: t.String(),
        not_modified: t.Boolean(),
        items: Integer({ minimum: 0 }),
        added: Integer({ minimum: 0 }),
        linked: Integer({ minimum: 0 }),
        skipped: Integer({ minimum: 0 }),
        links_refused: Integer({ minimum: 0 }),
        error: Nullable(t.String()),
      }),
    ),
  }),
})

export const AnalyzeAnswer = t.Object({
  data: t.Object({
    ...RunTimes,
    analyzer: t.String({ description: "The model, or the built-in analyzer's name." }),
    counts: t.Record(t.String(), Integer({ minimum: 0 })),
    failures: t.Array(t.String(), { description: 'What failed, one line each (the first 50).' }),
  }),
})

export const ExportAnswer = t.Object({
  data: t.Object({
    ...RunTimes,
    counts: t.Record(t.String(), Integer({ minimum: 0 }), {
      description:
        'Items written per resource (papers, stories, entities, claims), bytes of the files, and removed: older ' +
        'files deleted.',
    }),
  }),
})

/** `partial`: the run ended but failed at some of its work (papers, articles, sources); `failed`: it stopped. */
export const JOB_STATUSES = ['running', 'ok', 'partial', 'failed', 'cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export const jobListParams = {
  job: stringParam('Only runs of this job (harvest, scrape, analyze, refresh, search-sync, ...).', 50),
  status: listParam('Only runs with these statuses.', JOB_STATUSES),
  ...pagingParams,
}

export const JobRun = t.Object({
  id: Integer({ minimum: 1 }),
  job: t.String(),
  status: Enum(JOB_STATUSES, {
    description:
      'running; ok; partial: ended, but failed at some of its work (failure_count) and went on ' +
      'with the rest; failed: stopped by an error (error), or its process died (closed at the next start-up); ' +
      'cancelled: ' +
      "stopped at a unit's end because an operator asked (POST /api/jobs/runs/{id}/cancel) or the service stopped, " +
      'with the ' +
      'counts of what it did (error says who and how far).',
  }),
  failure_count: FailureCount,
  started_at: DateTime,
  finished_at: Nullable(DateTime),
  duration_ms: Nullable(Integer({ minimum: 0 })),
  elapsed_ms: Integer({
    minimum: 0,
    description: "How long it has run so far (the duration once ended), by the service's clock.",
  }),
  progress: Nullable(
    t.Object(
      {
        done: Integer({
          minimum: 0,
          description: 'Units done; written as the run goes, at most every quarter second.',
        }),
        total: Integer({ minimum: 0, description: 'Units the run set out to do.' }),
        unit: t.String({
          description:
            'What a unit is: sources (scrape), items (analyze: papers and feed articles), resources (export: a file ' +
            'pair each).',
        }),
      },
      { description: 'How far the run is, for jobs that report it (scrape, analyze, export); null for the others.' },
    ),
  ),
  cancellable: t.Boolean({
    description: 'Whether POST /api/jobs/runs/{id}/cancel can stop it now: a running scrape, analyze or export.',
  }),
  cancel_requested_at: Nullable(
    t.String({
      format: 'date-time',
      description: 'When a cancel was asked for; a running run stops at its next unit.',
    }),
  ),
  cancel_requested_by: Nullable(t.String({ description: 'The operator who asked.' })),
  counts: t.Record(t.String(), t.Number(), {
    description: 'What the run did, by snake_case name: the same names as the answer of the POST that started it.',
  }),
  error: Nullable(t.String()),
})

export const JobList = t.Object({ data: t.Array(JobRun), pagination: Pagination })

export const JobRunAnswer = t.Object({ data: JobRun })
