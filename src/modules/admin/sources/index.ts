/** /api/sources (operators): the RSS/Atom feeds the scraper reads. */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import type { AdminContext } from '../context'
import { documented, errors } from '../schemas'
import { pathId, pathIdParameters } from '../path-id'
import { DeletedSource, SourceAnswer, SourceList, newSourceBody, sourcePatchBody } from './model'
import { addSource, deleteSource, listSources, updateSource } from './service'

export const sourcesModule = ({ db, config }: AdminContext) =>
  new Elysia({ name: 'admin-sources' })
    .get('/api/sources', async () => ({ data: await listSources(db) }), {
      response: { 200: documented(SourceList), ...errors() },
      detail: {
        summary: 'List RSS sources',
        description:
          'Every source in id order (there are few), each with its last fetch, its status (never fetched, ok or ' +
          'failed), its last error and how many articles it has given.',
      },
    })
    .post(
      '/api/sources',
      async ({ request, body, set }) => {
        const source = await addSource(db, parseBody(request, body, newSourceBody), config.scrapeAllowPrivate)
        set.status = 201
        return { data: source }
      },
      {
        response: { 201: documented(SourceAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Add an RSS source',
          description:
            "The URL must be http or https and resolve only to public addresses (the scraper's own guard; " +
            'SCRAPE_ALLOW_PRIVATE=on lifts it). It is stored normalised and without a fragment; the same URL twice ' +
            'is a 409.',
          requestBody: openApiBody(newSourceBody) as never,
        },
      },
    )
    .patch(
      '/api/sources/:id',
      async ({ request, params, body }) => {
        const id = pathId(params.id)
        return { data: await updateSource(db, id, parseBody(request, body, sourcePatchBody)) }
      },
      {
        response: { 200: documented(SourceAnswer), ...errors(400, 404) },
        detail: {
          summary: 'Change an RSS source',
          description:
            'Enable or disable it, rename it or replace its tags; at least one field. To change its URL, add a new ' +
            'source.',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody(sourcePatchBody) as never,
        },
      },
    )
    .delete('/api/sources/:id', async ({ params }) => ({ data: await deleteSource(db, pathId(params.id)) }), {
      response: { 200: documented(DeletedSource), ...errors(400, 404) },
      detail: {
        summary: 'Delete an RSS source',
        description: 'With its articles and their analyses.',
        parameters: pathIdParameters('id'),
      },
    })
