/**
 * /api/accounts (operators): create, list, read and set the membership of accounts; list and create their keys;
 * disable and enable them, end their sessions and set their passwords.
 */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import { openApiParameters, parseParams } from '../../../http/params'
import { clearedSessionCookie, secureCookies } from '../auth/cookie'
import type { AdminContext } from '../context'
import { KeyList, NewKeyAnswer, accountKeyBody } from '../keys/model'
import { documented, errors } from '../schemas'
import { pathId, pathIdParameters } from '../path-id'
import { changeAccess, endAccountSessions, setAccountPassword } from './access'
import {
  AccessAnswer,
  AccountAnswer,
  AccountList,
  SessionsEndedAnswer,
  accountListParams,
  accountPatchBody,
  newAccountBody,
  passwordResetBody,
} from './model'
import { accountKeys, accountPage, addAccount, addAccountKey, changeMembership, getAccount } from './service'

export const accountsModule = ({ db, secret, config, now, caller }: AdminContext) =>
  new Elysia({ name: 'admin-accounts' })
    .get('/api/accounts', ({ request }) => accountPage(db, secret, parseParams(request.url, accountListParams)), {
      response: { 200: documented(AccountList), ...errors(400) },
      detail: {
        summary: 'List accounts',
        description: 'Accounts in id order, paged like the Data API.',
        parameters: openApiParameters(accountListParams),
      },
    })
    .post(
      '/api/accounts',
      async ({ request, body, set }) => {
        const account = await addAccount(db, parseBody(request, body, newAccountBody))
        set.status = 201
        return { data: account }
      },
      {
        response: { 201: documented(AccountAnswer), ...errors(400, 409) },
        detail: {
          summary: 'Create an account',
          description: 'An operator (role admin) or a member. A username taken in any letter case is a 409.',
          requestBody: openApiBody(newAccountBody) as never,
        },
      },
    )
    .get('/api/accounts/:id', async ({ params }) => ({ data: await getAccount(db, pathId(params.id)) }), {
      response: { 200: documented(AccountAnswer), ...errors(400, 404) },
      detail: { summary: 'Read an account', parameters: pathIdParameters('id') },
    })
    .patch(
      '/api/accounts/:id',
      async ({ request, params, body }) => {
        const id = pathId(params.id)
        const { membership } = parseBody(request, body, accountPatchBody)
        return { data: await changeMembership(db, id, membership) }
      },
      {
        response: { 200: documented(AccountAnswer), ...errors(400, 404) },
        detail: {
          summary: "Set an account's membership",
          description:
            "A lapsed membership makes the Data API refuse the account's member-tier keys within 2 " +
            "seconds, in every instance, and ends a member's sessions at once (the member may sign in again, to a " +
            'lapsed account).',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody(accountPatchBody) as never,
        },
      },
    )
    .get('/api/accounts/:id/keys', async ({ params }) => ({ data: await accountKeys(db, pathId(params.id)) }), {
      response: { 200: documented(KeyList), ...errors(400, 404) },
      detail: {
        summary: "List an account's keys",
        description: 'Revoke one with DELETE /api/keys/{id}.',
        parameters: pathIdParameters('id'),
      },
    })
    .post(
      '/api/accounts/:id/keys',
      async ({ request, params, body, set }) => {
        const id = pathId(params.id)
        const { tier, label } = parseBody(request, body, accountKeyBody)
        const created = await addAccountKey(db, id, tier ?? 'pro', label ?? null)
        set.status = 201
        return { data: created }
      },
      {
        response: { 201: documented(NewKeyAnswer), ...errors(400, 404, 409) },
        detail: {
          summary: 'Create a key for an account',
          description:
            'A pro key (or a member key, with tier) for any account; the plain key is in this answer only. At most ' +
            '10 active keys per account.',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody(accountKeyBody) as never,
        },
      },
    )
    .post(
      '/api/accounts/:id/disable',
      async ({ request, params, body }) => {
        const id = pathId(params.id)
        parseBody(request, body, {})
        return { data: await changeAccess(db, caller(request).account, id, true, now()) }
      },
      {
        response: { 200: documented(AccessAnswer), ...errors(400, 404, 409) },
        detail: {
          summary: 'Disable an account',
          description:
            'The account can no longer sign in (a login is the same 401 invalid_credentials as a wrong ' +
            'password), its sessions end at once, and the Data API refuses its API keys with 401 revoked_key within ' +
            '2 seconds in every instance. Its keys are not revoked: enabling the account makes them work again. ' +
            'Disabling a disabled account changes nothing. Your own account is a 409. Takes no body fields.',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody({}) as never,
        },
      },
    )
    .post(
      '/api/accounts/:id/enable',
      async ({ request, params, body }) => {
        const id = pathId(params.id)
        parseBody(request, body, {})
        return { data: await changeAccess(db, caller(request).account, id, false, now()) }
      },
      {
        response: { 200: documented(AccessAnswer), ...errors(400, 404) },
        detail: {
          summary: 'Enable an account again',
          description:
            'Undoes POST /api/accounts/{id}/disable: the account can sign in again and its unrevoked keys ' +
            'work (within 2 seconds). Sessions ended by the disabling stay ended. Enabling an enabled account ' +
            'changes nothing. Takes no body fields.',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody({}) as never,
        },
      },
    )
    .delete(
      '/api/accounts/:id/sessions',
      async ({ request, params, set }) => {
        const id = pathId(params.id)
        const own = caller(request).account.id === id
        const ended = await endAccountSessions(db, id)
        if (own) set.headers['set-cookie'] = clearedSessionCookie(secureCookies(request, config.publicBaseUrl))
        return { data: ended }
      },
      {
        response: { 200: documented(SessionsEndedAnswer), ...errors(400, 404) },
        detail: {
          summary: 'End all sessions of an account',
          description:
            'Signs the account out everywhere at once: every session cookie of it is refused with 401 from ' +
            'now on. It may sign in again. For your own account this ends the session making the request too.',
          parameters: pathIdParameters('id'),
        },
      },
    )
    .post(
      '/api/accounts/:id/password',
      async ({ request, params, body, set }) => {
        const id = pathId(params.id)
        const { new_password } = parseBody(request, body, passwordResetBody)
        const reset = await setAccountPassword(db, id, new_password)
        if (caller(request).account.id === id) {
          set.headers['set-cookie'] = clearedSessionCookie(secureCookies(request, config.publicBaseUrl))
        }
        return { data: reset }
      },
      {
        response: { 200: documented(SessionsEndedAnswer), ...errors(400, 404) },
        detail: {
          summary: "Set an account's password",
          description:
            'A reset by an operator: no current password is asked, and every session of the account ends, ' +
            'yours too when it is your own account (change your own with POST /api/auth/password instead, which ' +
            'keeps your session).',
          parameters: pathIdParameters('id'),
          requestBody: openApiBody(passwordResetBody) as never,
        },
      },
    )
