/** Every response carries X-Request-Id: the caller's own when it is sane, else a new one. */
import { Elysia } from 'elysia'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/

export const requestIdPlugin = new Elysia({ name: 'request-id' }).onRequest(({ request, set }) => {
  const given = request.headers.get('x-request-id')
  set.headers['x-request-id'] = given && SANE.test(given) ? given : crypto.randomUUID()
})
