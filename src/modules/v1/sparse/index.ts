/**
 * GET /api/v1/sparse/...: the answer of the same path without /sparse, for requests with fields=.
 *
 * A fields= answer leaves out what was not asked for, so it cannot match the schema of the full answer,
 * whose fields are all required (the contract: "every field listed in a resource is always present").
 * OpenAPI gives an operation one 200 schema, so the fields= answers are documented here, one operation
 * per endpoint that takes fields=, with a sparse schema (the same fields, none required); the plain
 * operations keep their strict schemas for generated clients. The plain paths go on answering fields=
 * byte for byte as before (docs/contract-decisions.md, "fields= answers").
 *
 * The request is answered in process by the path without /sparse, not counted again (the gate counted
 * this one), and its answer is handed on: a 200 as its bytes (this module's ETag, 304 and compression
 * apply as on any answer), an error as the same error.
 */
import { Elysia } from 'elysia'
import { ApiError, invalidParameter, type ErrorCode } from '../../../http/errors'
import { EncodedAnswer } from '../../../http/compression'
import { queryEntries } from '../../../http/percent-decoding'
import { PermanentRedirect, orRedirect } from '../../../http/redirect'
import { internalRequests } from '../internal-requests'
import type { Handle } from '../mcp'

export const SPARSE_PREFIX = '/api/v1/sparse'

/** Request headers the inner request keeps: the key, and what the answer's form depends on. */
const KEPT = ['authorization', 'accept', 'x-request-id']

export const sparseModule = (handle: () => Handle) =>
  new Elysia({ name: 'v1-sparse' }).get(
    `${SPARSE_PREFIX}/*`,
    ({ request, set }) =>
      orRedirect(async () => {
        const url = new URL(request.url)
        const inner = `/api/v1${url.pathname.slice(SPARSE_PREFIX.length)}`
        if (!queryEntries(request.url).some((e) => e.name === 'fields')) {
          throw invalidParameter(`fields is required on ${SPARSE_PREFIX}/…; without it, ask ${inner}`)
        }
        if (inner.startsWith(`${SPARSE_PREFIX}/`)) throw invalidParameter(`${SPARSE_PREFIX} cannot be nested`)
        const headers = new Headers()
        for (const name of KEPT) {
          const value = request.headers.get(name)
          if (value !== null) headers.set(name, value)
        }
        const forwarded = new Request(`${url.origin}${inner}${url.search}`, { headers })
        internalRequests.add(forwarded)
        const answer = await handle()(forwarded)
        const body = new Uint8Array(await answer.arrayBuffer())
        const location = answer.headers.get('location')
        // An entity asked for by another of its names: the redirect, to the same place under /sparse.
        if (answer.status === 308 && location)
          throw new PermanentRedirect(location.replace('/api/v1/', `${SPARSE_PREFIX}/`))
        if (answer.status !== 200) {
          const envelope = JSON.parse(new TextDecoder().decode(body)) as { error: { code: ErrorCode; message: string } }
          throw new ApiError(envelope.error.code, envelope.error.message, {}, answer.status)
        }
        const link = answer.headers.get('link')
        if (link) set.headers['link'] = link.replace(`/api/v1/`, `${SPARSE_PREFIX}/`)
        // What the inner answer varies on besides encoding (Accept, for the CSV lists); the encoding is added on the
        // way out.
        const vary = (answer.headers.get('vary') ?? '')
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v && v.toLowerCase() !== 'accept-encoding')
        if (vary.length > 0) set.headers['vary'] = vary.join(', ')
        return new EncodedAnswer(body, answer.headers.get('content-type') ?? 'application/json')
      }),
    { detail: { hide: true } },
  )
