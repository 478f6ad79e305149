/** POST /api/scrape, POST /api/analyze and GET /api/jobs (operators). */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import { openApiParameters, parseParams } from '../../../http/params'
import type { AdminContext } from '../context'
import { documented, errors } from '../schemas'
import { AnalyzeAnswer, JobList, ScrapeAnswer, analyzeBody, jobListParams, scrapeBody } from './model'
import { analyzeNow, jobRunPage, scrapeNow } from './service'

const BUSY = 'A run of the same job already going (scheduled, from the command line or another request, in any instance) is a 409 conflict; nothing runs twice.'

export const jobsModule = ({ database, config, secret }: AdminContext) =>
  new Elysia({ name: 'admin-jobs' })
    .post('/api/scrape', async ({ request, body }) => {
      const { source_ids } = parseBody(request, body, scrapeBody)
      return { data: await scrapeNow(database, config, source_ids) }
    }, {
      response: { 200: documented(ScrapeAnswer), ...errors(400, 409) },
      detail: {
        summary: 'Scrape RSS sources now',
        description: 'Fetches every enabled source (or the ones named) once, as the half-hourly job does, and answers when done with ' +
          'the counts and each source\'s outcome; a failing feed records its error on its source and the others carry on. ' + BUSY,
        requestBody: openApiBody(scrapeBody) as never,
      },
    })
    .post('/api/analyze', async ({ request, body }) => ({ data: await analyzeNow(database, config, parseBody(request, body, analyzeBody)) }), {
      response: { 200: documented(AnalyzeAnswer), ...errors(400, 409) },
      detail: {
        summary: 'Analyse papers and articles now',
        description: 'Judges, extracts and writes stories for papers not yet analysed and analyses feed articles not yet analysed, ' +
          'as the five-minute job does (with the model when LLM_* is set, else the built-in analyzer), bounded by `limit`; or ' +
          'exactly the papers and articles named. Answers when done with the counts and what failed. ' + BUSY,
        requestBody: openApiBody(analyzeBody) as never,
      },
    })
    .get('/api/jobs', ({ request }) => jobRunPage(database.db, secret, parseParams(request.url, jobListParams)), {
      response: { 200: documented(JobList), ...errors(400) },
      detail: {
        summary: 'Recent job runs',
        description: 'Every run of every job (scheduled, command line, or asked for here), newest first, with its status, counts, duration and error.',
        parameters: openApiParameters(jobListParams),
      },
    })
