/** /api/accounts (operators): create, list, read and set the membership of accounts; list and create their keys. */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import { openApiParameters, parseParams } from '../../../http/params'
import type { AdminContext } from '../context'
import { KeyList, NewKeyAnswer, accountKeyBody } from '../keys/model'
import { documented, errors } from '../schemas'
import { pathId, pathIdParameters } from '../path-id'
import { AccountAnswer, AccountList, accountListParams, accountPatchBody, newAccountBody } from './model'
import { accountKeys, accountPage, addAccount, addAccountKey, changeMembership, getAccount } from './service'

export const accountsModule = ({ db, secret }: AdminContext) =>
  new Elysia({ name: 'admin-accounts' })
    .get('/api/accounts', ({ request }) => accountPage(db, secret, parseParams(request.url, accountListParams)), {
      response: { 200: documented(AccountList), ...errors(400) },
      detail: { summary: 'List accounts', description: 'Accounts in id order, paged like the Data API.', parameters: openApiParameters(accountListParams) },
    })
    .post('/api/accounts', async ({ request, body, set }) => {
      const account = await addAccount(db, parseBody(request, body, newAccountBody))
      set.status = 201
      return { data: account }
    }, {
      response: { 201: documented(AccountAnswer), ...errors(400, 409) },
      detail: {
        summary: 'Create an account',
        description: 'An operator (role admin) or a member. A username taken in any letter case is a 409.',
        requestBody: openApiBody(newAccountBody) as never,
      },
    })
    .get('/api/accounts/:id', async ({ params }) => ({ data: await getAccount(db, pathId(params.id)) }), {
      response: { 200: documented(AccountAnswer), ...errors(400, 404) },
      detail: { summary: 'Read an account', parameters: pathIdParameters('id') },
    })
    .patch('/api/accounts/:id', async ({ request, params, body }) => {
      const id = pathId(params.id)
      const { membership } = parseBody(request, body, accountPatchBody)
      return { data: await changeMembership(db, id, membership) }
    }, {
      response: { 200: documented(AccountAnswer), ...errors(400, 404) },
      detail: {
        summary: 'Set an account\'s membership',
        description: 'A lapsed membership makes the Data API refuse the account\'s member-tier keys within 2 seconds, in every instance.',
        parameters: pathIdParameters('id'),
        requestBody: openApiBody(accountPatchBody) as never,
      },
    })
    .get('/api/accounts/:id/keys', async ({ params }) => ({ data: await accountKeys(db, pathId(params.id)) }), {
      response: { 200: documented(KeyList), ...errors(400, 404) },
      detail: { summary: 'List an account\'s keys', description: 'Revoke one with DELETE /api/keys/{id}.', parameters: pathIdParameters('id') },
    })
    .post('/api/accounts/:id/keys', async ({ request, params, body, set }) => {
      const id = pathId(params.id)
      const { tier, label } = parseBody(request, body, accountKeyBody)
      const created = await addAccountKey(db, id, tier ?? 'pro', label ?? null)
      set.status = 201
      return { data: created }
    }, {
      response: { 201: documented(NewKeyAnswer), ...errors(400, 404, 409) },
      detail: {
        summary: 'Create a key for an account',
        description: 'A pro key (or a member key, with tier) for any account; the plain key is in this answer only. At most 10 active keys per account.',
        parameters: pathIdParameters('id'),
        requestBody: openApiBody(accountKeyBody) as never,
      },
    })
