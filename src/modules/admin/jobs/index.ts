/**
 * POST /api/scrape, POST /api/analyze, POST /api/export, GET /api/jobs, and one run's progress and
 * cancel: GET /api/jobs/runs/{id}, POST /api/jobs/runs/{id}/cancel (operators).
 */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import { openApiParameters, parseParams } from '../../../http/params'
import type { AdminContext } from '../context'
import { pathId, pathIdParameters } from '../path-id'
import { documented, errors } from '../schemas'
import {
  AnalyzeAnswer,
  ExportAnswer,
  JobList,
  JobRunAnswer,
  ScrapeAnswer,
  analyzeBody,
  exportBody,
  jobListParams,
  scrapeBody,
} from './model'
import { analyzeNow, cancelRun, exportNow, jobRun, jobRunPage, scrapeNow } from './service'

const BUSY =
  'A run of the same job already going (scheduled, from the command line or another request, in any instance) is a ' +
  '409 conflict; nothing runs twice.'
const WAIT =
  ' With `wait: false` it answers at once, 202 with the run (GET /api/jobs/runs/{id}): follow its progress there, ' +
  'and stop it with POST /api/jobs/runs/{id}/cancel.'

export const jobsModule = ({ database, config, secret, caller }: AdminContext) =>
  new Elysia({ name: 'admin-jobs' })
    .post(
      '/api/scrape',
      async ({ request, body, status }) => {
        const { source_ids, wait } = parseBody(request, body, scrapeBody)
        const run = await scrapeNow(database, config, source_ids, wait ?? true)
        return run.status === 202 ? status(202, { data: run.data }) : { data: run.data }
      },
      {
        response: { 200: documented(ScrapeAnswer), 202: documented(JobRunAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Scrape RSS sources now',
          description:
            'Fetches every enabled source (or the ones named) once, as the half-hourly job does, and answers when ' +
            'done with ' +
            "the counts and each source's outcome; a failing feed records its error on its source and the others " +
            'carry on. ' +
            BUSY +
            WAIT +
            ' A cancelled scrape starts no further source; the sources being fetched finish and are stored.',
          requestBody: openApiBody(scrapeBody) as never,
        },
      },
    )
    .post(
      '/api/analyze',
      async ({ request, body, status }) => {
        const run = await analyzeNow(database, config, parseBody(request, body, analyzeBody))
        return run.status === 202 ? status(202, { data: run.data }) : { data: run.data }
      },
      {
        response: { 200: documented(AnalyzeAnswer), 202: documented(JobRunAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Analyse papers and articles now',
          description:
            'Judges, extracts and writes stories for papers not yet analysed and analyses feed articles not yet ' +
            'analysed, as the five-minute job does (with the model when LLM_* is set, else the built-in analyzer), ' +
            'bounded by `limit`; or exactly the papers and articles named. Answers when done with the counts and ' +
            'what failed. ' +
            BUSY +
            WAIT +
            ' A cancelled analysis starts no further paper or article; those in progress are stored, each in its own ' +
            'transaction.',
          requestBody: openApiBody(analyzeBody) as never,
        },
      },
    )
    .post(
      '/api/export',
      async ({ request, body, status }) => {
        const { wait } = parseBody(request, body, exportBody)
        const run = await exportNow(database, config, wait ?? true)
        return run.status === 202 ? status(202, { data: run.data }) : { data: run.data }
      },
      {
        response: { 200: documented(ExportAnswer), 202: documented(JobRunAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Write the bulk export now',
          description:
            'Writes the bulk export served by /api/v1/exports (every resource to NDJSON.gz and CSV.gz, then the ' +
            'manifest), as the nightly job does. ' +
            BUSY +
            WAIT +
            ' A cancelled export writes no manifest and deletes the files of the run, so the ' +
            'last complete export stays served.',
          requestBody: openApiBody(exportBody) as never,
        },
      },
    )
    .get('/api/jobs', ({ request }) => jobRunPage(database.db, secret, parseParams(request.url, jobListParams)), {
      response: { 200: documented(JobList), ...errors(400) },
      detail: {
        summary: 'Recent job runs',
        description:
          'Every run of every job (scheduled, command line, or asked for here), newest first, with its status, ' +
          'counts, duration and error.',
        parameters: openApiParameters(jobListParams),
      },
    })
    .get('/api/jobs/runs/:id', async ({ params }) => ({ data: await jobRun(database.db, pathId(params.id)) }), {
      response: { 200: documented(JobRunAnswer), ...errors(400, 404) },
      detail: {
        summary: 'One job run and its progress',
        description:
          'A run, running or ended, in whichever instance it runs: status, units done of its total (scrape, analyze ' +
          'and export report them as they go), elapsed time, whether a cancel was asked for, and its counts once ' +
          'ended.',
        parameters: pathIdParameters('id'),
      },
    })
    .post(
      '/api/jobs/runs/:id/cancel',
      async ({ request, params, body, set }) => {
        const id = pathId(params.id)
        parseBody(request, body, {})
        set.status = 202
        return { data: await cancelRun(database.db, id, caller(request).account.username) }
      },
      {
        response: { 202: documented(JobRunAnswer), ...errors(400, 404, 409) },
        detail: {
          summary: 'Cancel a running job run',
          description:
            'Asks a running scrape, analyze or export to stop, in whichever instance it runs (the request is kept in ' +
            'the database; the run reads it at each unit). It stops at its next unit: the source, paper, article or ' +
            'export resource in progress finishes, nothing is left half-written, and the run is recorded as ' +
            '`cancelled` with the counts of what it did. Answers 202 with the run as it is now (still running, ' +
            '`cancel_requested_at` set); asking again is harmless. 404: no such run; 409: it already ended, or it is ' +
            'a job that does not stop part-way.',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody({}, 'No body: an empty JSON object at most.') as never,
        },
      },
    )
