import { describe, test } from 'bun:test'
import { expectInvalidParameter } from '../../support/expect'
import { req, useTestApp } from '../../support/app'
import { bearer } from '../../support/fixtures'

const api = useTestApp()

describe('fields= refuses what the resource does not have, naming it', () => {
  test.each([
    [
      'an unknown field',
      '/api/v1/papers?fields=id,titel',
      'fields has unknown field "titel"; fields of a paper: id, source, doi, title',
    ],
    ['an unknown nested field', '/api/v1/papers?fields=judgement.topc', 'fields has unknown field "judgement.topc"'],
    ['a path into a scalar', '/api/v1/papers?fields=title.text', 'fields has unknown field "title.text"'],
    ['a detail-only field on a list', '/api/v1/papers?fields=claims', 'fields has unknown field "claims"'],
    ['an empty item', '/api/v1/papers?fields=id,,title', 'fields has an empty field name'],
    ['an empty value', '/api/v1/papers?fields=', 'fields has an empty field name'],
    ['a case that differs', '/api/v1/papers/MED-1?fields=ID', 'fields has unknown field "ID"'],
    ['a repeated fields', '/api/v1/stories?fields=headline&fields=dek', 'fields is given more than once'],
    [
      'a story field on claims',
      '/api/v1/claims?fields=headline',
      'fields has unknown field "headline"; fields of a claim',
    ],
    ['on an entity', '/api/v1/entities/gene/X?fields=nope', 'fields has unknown field "nope"; fields of an entity'],
    ['on search', '/api/v1/search?q=a&fields=nope', 'fields has unknown field "nope"; fields of a hit'],
    ['an overlong list', `/api/v1/papers?fields=${'id,'.repeat(700)}id`, 'fields must be at most 2000 characters'],
    ['__proto__', '/api/v1/papers?fields=__proto__', 'fields has unknown field "__proto__"'],
  ])('%s', async (_name, path, message) => {
    await expectInvalidParameter(await api.app.handle(req(path, bearer(api.key))), message)
  })
})
