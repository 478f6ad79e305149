/**
 * Editors in the loop (operators): GET /api/review, PUT /api/papers/{id}/judgement and
 * GET /api/papers/{id}/judgement/history. The gate has already refused members (403), callers
 * without a session (401) and cross-site writes (403).
 */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import { openApiParameters, parseParams } from '../../../http/params'
import type { AdminContext } from '../context'
import { paperPathId, paperPathIdParameters } from '../path-id'
import { documented, errors } from '../schemas'
import { CorrectionAnswer, HistoryAnswer, ReviewList, correctionBody, reviewParams } from './model'
import { correctPaperJudgement, paperJudgementHistory, reviewPage } from './service'

export const reviewModule = ({ db, secret, config, caller, now, dataChanged }: AdminContext) =>
  new Elysia({ name: 'admin-review' })
    .get(
      '/api/review',
      ({ request }) => reviewPage(db, secret, config.reviewConfidenceThreshold, parseParams(request.url, reviewParams)),
      {
        response: { 200: documented(ReviewList), ...errors(400) },
        detail: {
          summary: 'List judgements to review',
          description:
            'Judged papers whose judgement an editor has not corrected and that most need a human: first those whose ' +
            'lowest confidence is below REVIEW_CONFIDENCE_THRESHOLD (default 0.6; reason low_confidence), least ' +
            'confident first, then id; then a stable audit sample of about 2% of the others, chosen by a hash of the ' +
            'paper id (reason audit), in id order. A correction (PUT /api/papers/{id}/judgement) takes the paper out ' +
            'at once. Paged like the Data API.',
          parameters: openApiParameters(reviewParams),
        },
      },
    )
    .put(
      '/api/papers/:id/judgement',
      async ({ request, params, body }) => {
        const id = paperPathId(params.id)
        const fields = parseBody(request, body, correctionBody)
        const answer = await correctPaperJudgement(db, id, fields, caller(request).account.id, now())
        dataChanged() // committed: the next /api/v1 request here reads the correction
        return answer
      },
      {
        response: { 200: documented(CorrectionAnswer), ...errors(400, 404) },
        detail: {
          summary: 'Correct a judgement',
          description:
            'Sets any of relevance, study_type, topic and newsworthiness (at least one), with an optional note; the ' +
            'others ' +
            'keep their values (a paper never judged needs relevance, study_type and topic). The corrected judgement ' +
            "is the editor's: " +
            'model "editor", prompt_version null, every confidence 1, judged_at now. Re-analysis never overwrites ' +
            'it; it leaves the review queue, shows at once on /api/v1 (cached answers are dropped) and in its change ' +
            'feed, and is a new version in the history. Answers the new judgement and the one it replaced.',
          parameters: paperPathIdParameters,
          requestBody: openApiBody(correctionBody) as never,
        },
      },
    )
    .get('/api/papers/:id/judgement/history', async ({ params }) => paperJudgementHistory(db, paperPathId(params.id)), {
      response: { 200: documented(HistoryAnswer), ...errors(400, 404) },
      detail: {
        summary: "List a judgement's versions",
        description:
          "Every version of the paper's judgement, newest first: by the analysis (by: null) or by an editor, with " +
          'the note.',
        parameters: paperPathIdParameters,
      },
    })
