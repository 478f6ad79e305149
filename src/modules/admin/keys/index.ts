/** POST /api/keys, GET /api/keys, DELETE /api/keys/{id}: a signed-in caller's own API keys. */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import type { AdminContext } from '../context'
import { pathText } from '../path-id'
import { documented, errors } from '../schemas'
import { KeyAnswer, KeyList, NewKeyAnswer, ownKeyBody } from './model'
import { createOwnKey, listAccountKeys, revokeCallersKey } from './service'

export const keysModule = ({ db, caller }: AdminContext) =>
  new Elysia({ name: 'admin-keys' })
    .post(
      '/api/keys',
      async ({ request, body, set }) => {
        const { label } = parseBody(request, body, ownKeyBody)
        const created = await createOwnKey(db, caller(request).account, label ?? null)
        set.status = 201
        return { data: created }
      },
      {
        response: { 201: documented(NewKeyAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Create an API key',
          description:
            'A member-tier key for the signed-in account; members need an active membership (else 403). The plain ' +
            'key is in this answer only. At most 10 active keys per account (else 409): members share one allowance ' +
            'across all their keys.',
          requestBody: openApiBody(ownKeyBody) as never,
        },
      },
    )
    .get('/api/keys', async ({ request }) => ({ data: await listAccountKeys(db, caller(request).account.id) }), {
      response: { 200: documented(KeyList), ...errors() },
      detail: {
        summary: 'List your API keys',
        description: "The signed-in account's keys, revoked ones included, oldest first.",
      },
    })
    .delete(
      '/api/keys/:id',
      async ({ request, params }) => ({
        data: await revokeCallersKey(db, caller(request).account, pathText(params.id, 'id', 64)),
      }),
      {
        response: { 200: documented(KeyAnswer), ...errors(400, 404) },
        detail: {
          summary: 'Revoke an API key',
          description:
            "Members revoke their own keys (another account's key is a 404); operators any key. The Data API refuses " +
            'the key within 2 seconds in every instance. Revoking a revoked key changes nothing and answers the same.',
        },
      },
    )
