/**
 * /api/stories (operators): the stories the support check held back (scored 1 or less: they overstate or contradict
 * the abstract or the paper's judgement), which no published view shows, and rewriting a paper's story from its
 * current judgement (after a correction).
 */
import { Elysia } from 'elysia'
import { integerParam, openApiParameters, parseParams } from '../../../http/params'
import { paperPathId } from '../path-id'
import { openApiBody, parseBody } from '../../../http/json-body'
import { invalidParameter, notFound, quoted } from '../../../http/errors'
import { normalisePaperId } from '../../../resources/papers/queries'
import { listHeldStories } from '../../../pipeline/stories/held'
import { rewriteStory } from '../../../pipeline/stories/rewrite'
import type { StudyType } from '../../../taxonomy'
import type { AdminContext } from '../context'
import { documented, errors } from '../schemas'
import { HeldStoryList, RewriteAnswer } from './model'

const heldParams = { limit: integerParam('How many, newest first.', 1, 500, 100) }
const PAPER_ID = { paper_id: 'The paper id (MED-… or PPR-…, case-insensitive).' }

export const storiesModule = ({ db, now }: AdminContext) =>
  new Elysia({ name: 'admin-stories' })
    .get(
      '/api/stories/held',
      async ({ request }) => {
        const { limit } = parseParams(request.url, heldParams)
        const { rows, total } = await listHeldStories(db, limit ?? 100)
        return {
          data: rows.map((r) => ({
            paper_id: r.paperId,
            title: r.title,
            study_type: r.studyType as StudyType | null,
            headline: r.headline,
            dek: r.dek,
            body: r.body,
            why_it_matters: r.whyItMatters,
            caveats: r.caveats,
            support: r.support,
            problems: r.problems,
            model: r.model,
            written_at: r.writtenAt.toISOString(),
          })),
          total,
        }
      },
      {
        response: { 200: documented(HeldStoryList), ...errors(400) },
        detail: {
          summary: 'List held-back stories',
          description:
            'Stories the support check scored 1 or less (1 overstates, 0 contradicts: a number, an organism, a ' +
            'design or a ' +
            "population the abstract or the paper's judgement does not state, a finding in the wrong direction, " +
            "hype), newest first, with the check's reasons. They are not published: /api/v1 (stories, papers, " +
            "changes, exports), the site, its feeds and search never show them. A paper's story is published or " +
            'held, never both; a re-analysis or a rewrite that scores above 1 ' +
            'publishes it. total counts them all.',
          parameters: openApiParameters(heldParams),
        },
      },
    )
    .post(
      '/api/stories/:paper_id/rewrite',
      async ({ request, params, body }) => {
        parseParams(request.url, {})
        parseBody(request, body, {})
        // The router hands an id whose percent-encoding is not UTF-8 (%80) as null: a 400 naming it, as on every admin
        // path.
        const raw = paperPathId(params.paper_id, 'paper_id')
        const id = normalisePaperId(raw)
        if (!id)
          throw invalidParameter(`paper_id must be a paper id like MED-39172536 or PPR-841231 (got ${quoted(raw)})`)
        const result = await rewriteStory(db, id, now())
        if (result.status === 'none' && result.reason === 'unknown paper') throw notFound(`no paper with id ${id}`)
        return {
          data:
            result.status === 'none'
              ? { paper_id: id, status: result.status, support: null, problems: [], reason: result.reason }
              : {
                  paper_id: id,
                  status: result.status,
                  support: result.support,
                  problems: result.problems,
                  reason: null,
                },
        }
      },
      {
        response: { 200: documented(RewriteAnswer), ...errors(400, 404) },
        detail: {
          summary: "Rewrite a paper's story",
          description:
            "Rewrites the paper's story (published or held) from its current judgement and record with the built-in " +
            'writer, ' +
            'as re-analysis does when it changes a judgement: design, population and organism words come from the ' +
            'study type and the organism it allows. The support check then publishes it (status published, above 1; ' +
            'a story published before keeps its published_at) or holds it (status held). A paper without a story ' +
            'gets one only when it is due (newsworthiness 2 or more, ageing relevance, an abstract); otherwise ' +
            'status is none with the reason. Unknown paper: 404.',
          parameters: openApiParameters({}, PAPER_ID),
          requestBody: openApiBody({}, 'No body: an empty JSON object at most.') as never,
        },
      },
    )
