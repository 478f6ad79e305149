import { describe, expect, test } from 'bun:test'
import { expectInvalidParameter } from '../../support/expect'
import { req, useTestApp } from '../../support/app'
import { bearer } from '../../support/fixtures'

const api = useTestApp()

const post = (body: string, contentType = 'application/json') =>
  api.app.handle(
    req('/api/v1/papers/batch', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': contentType },
      body,
    }),
  )

describe('POST /api/v1/papers/batch refuses bad input with 400 invalid_parameter', () => {
  test.each([
    ['no ids field', '{}', 'missing field "ids"'],
    ['an unknown field', '{"ids":["MED-1"],"fields":"id"}', 'unknown field "fields"'],
    ['ids that are not an array', '{"ids":"MED-1"}', 'ids must be an array of strings'],
    ['an empty list', '{"ids":[]}', 'ids must have at least 1 item'],
    [
      '501 ids',
      JSON.stringify({ ids: Array.from({ length: 501 }, (_, i) => `MED-${i + 1}`) }),
      'ids must have at most 500 items (got 501)',
    ],
    ['an id that is not a string', '{"ids":["MED-1",2]}', 'ids[1] must be a string (got number)'],
    [
      'a malformed id',
      '{"ids":["MED-1","PMC123"]}',
      'ids[1] must be a paper id (MED-39172536, PPR-841231), doi:10.xxxx/... or pmid:39172536 (got "PMC123")',
    ],
    ['a DOI with no suffix', '{"ids":["doi:10.1000"]}', 'ids[0] must be a paper id'],
    ['a DOI without the 10. prefix', '{"ids":["doi:11.1000/x"]}', 'ids[0] must be a paper id'],
    ['a PMID that is not a number', '{"ids":["pmid:12a"]}', 'ids[0] must be a paper id'],
    ['a PMID of zero', '{"ids":["pmid:0"]}', 'ids[0] must be a paper id'],
    ['a body that is an array', '["MED-1"]', 'the body must be a JSON object (got array)'],
  ])('%s', async (_name, body, message) => {
    await expectInvalidParameter(await post(body), message)
  })

  test('a body that is not JSON', async () => {
    await expectInvalidParameter(await post('ids=MED-1', 'application/x-www-form-urlencoded'), 'the body must be JSON')
  })

  test('a query parameter', async () => {
    const response = await api.app.handle(
      req('/api/v1/papers/batch?limit=5', {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        body: '{"ids":["MED-1"]}',
      }),
    )
    await expectInvalidParameter(response, 'unknown parameter "limit"; this endpoint takes none')
  })
})

describe('GET /api/v1/papers?ids= refuses bad input', () => {
  test.each([
    [
      '101 ids',
      `?ids=${Array.from({ length: 101 }, (_, i) => `MED-${i + 1}`).join(',')}`,
      'ids must list at most 100 ids (got 101); POST /api/v1/papers/batch takes up to 500',
    ],
    ['an empty id', '?ids=MED-1,,MED-2', 'ids[1] must be a paper id'],
    ['ids with a filter', '?ids=MED-1&topic=senescence', 'ids cannot be combined with other parameters (got topic)'],
    ['ids with a limit', '?limit=5&ids=MED-1', 'ids cannot be combined with other parameters (got limit)'],
    ['an empty ids', '?ids=', 'ids[0] must be a paper id'],
  ])('%s', async (_name, query, message) => {
    await expectInvalidParameter(await api.app.handle(req(`/api/v1/papers${query}`, bearer(api.key))), message)
  })
})

describe('lookups by DOI and PMID refuse malformed ones', () => {
  test('a query parameter on /papers/doi:{doi} is refused', async () => {
    await expectInvalidParameter(
      await api.app.handle(req('/api/v1/papers/doi:10.1/x?limit=5', bearer(api.key))),
      'unknown parameter "limit"; this endpoint takes fields',
    )
  })

  test('a DOI path that is not UTF-8 is a 400', async () => {
    await expectInvalidParameter(
      await api.app.handle(req('/api/v1/papers/doi:10.1000/%ff', bearer(api.key))),
      'not valid percent-encoded UTF-8',
    )
  })

  test('a malformed DOI or PMID is a 404 like any id that names no paper', async () => {
    for (const path of ['/api/v1/papers/doi:nonsense/x', '/api/v1/papers/pmid:abc']) {
      expect((await api.app.handle(req(path, bearer(api.key)))).status).toBe(404)
    }
  })
})
