import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { articles } from '../../src/db/schema'
import { useAdminApp, type AdminApi } from '../support/admin'
import { replayServer, type ReplayServer } from '../support/replay-server'

const api = useAdminApp() // SCRAPE_ALLOW_PRIVATE off: the address guard applies
let operator: string
beforeAll(async () => {
  operator = (await api.operator()).token
})

const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const on =
  (app: AdminApi, token: () => string) =>
  (path: string, options: Parameters<AdminApi['call']>[1] = {}) =>
    app.call(path, { cookie: token(), ...options })
const call = on(api, () => operator)
const invalid = (message: string) => ({
  status: 400,
  body: { error: { status: 400, code: 'invalid_parameter', message } },
})

// Documentation addresses (RFC 5737): public to the guard, never fetched by these tests.
const PUBLIC_FEED = 'http://192.0.2.10/feed.xml'

describe('POST /api/sources', () => {
  test('adds a source, normalising its URL, with its status fields', async () => {
    const added = await json(
      await call('/api/sources', {
        body: {
          name: ' Aging journal ',
          url: 'HTTP://192.0.2.10/feed.xml#top',
          tags: ['journals', 'mice', 'journals'],
        },
      }),
    )
    expect(added).toEqual({
      status: 201,
      body: {
        data: {
          id: expect.any(Number),
          name: 'Aging journal',
          url: PUBLIC_FEED,
          enabled: true,
          tags: ['journals', 'mice'],
          created_at: expect.any(String),
          last_fetched_at: null,
          last_success_at: null,
          last_status: 'never',
          last_error: null,
          consecutive_failures: 0,
          article_count: 0,
        },
      },
    })
    const list = await json(await call('/api/sources'))
    expect(list.body.data).toContainEqual(added.body.data)
  })

  test('the same URL twice is a 409', async () => {
    await call('/api/sources', { body: { name: 'one', url: 'https://192.0.2.11/rss' } })
    expect(
      await json(
        await call('/api/sources', { body: { name: 'two', url: 'https://192.0.2.11/rss#again', enabled: false } }),
      ),
    ).toEqual({
      status: 409,
      body: {
        error: {
          status: 409,
          code: 'conflict',
          message: 'a source with the URL https://192.0.2.11/rss already exists',
        },
      },
    })
  })

  test.each([
    ['ftp://192.0.2.10/feed', 'url must use http or https (got ftp:)'],
    ['file:///etc/passwd', 'url must use http or https (got file:)'],
    ['not a url', 'url must be an absolute http or https URL (got "not a url")'],
    ['http://user:secret@192.0.2.10/feed', 'url must not contain a username or password'],
    [
      'http://127.0.0.1:3000/api/auth/me',
      'url is refused: 127.0.0.1: 127.0.0.1 is a private, loopback or link-local address',
    ],
    ['http://10.1.2.3/feed', 'url is refused: 10.1.2.3: 10.1.2.3 is a private, loopback or link-local address'],
    [
      'http://169.254.169.254/latest/meta-data',
      'url is refused: 169.254.169.254: 169.254.169.254 is a private, loopback or link-local address',
    ],
    ['http://[::1]:8080/feed', 'url is refused: ::1: ::1 is a private, loopback or link-local address'],
    [
      'http://[::ffff:192.168.0.1]/feed',
      'url is refused: ::ffff:c0a8:1: ::ffff:c0a8:1 is a private, loopback or link-local address',
    ],
    ['http://localhost:5432/', 'url is refused: localhost: 127.0.0.1 is a private, loopback or link-local address'],
    ['http://no-such-host.invalid/feed', 'url: the host no-such-host.invalid cannot be resolved'],
  ])('refuses %s', async (url, message) => {
    const response = await json(await call('/api/sources', { body: { name: 'x', url } }))
    if (url.startsWith('http://localhost')) {
      // localhost may resolve to ::1 first; either way it is refused as loopback.
      expect(response.status).toBe(400)
      expect(response.body.error.message).toMatch(
        /^url is refused: localhost: (127\.0\.0\.1|::1) is a private, loopback or link-local address$/,
      )
      return
    }
    expect(response).toEqual(invalid(message))
  })

  test.each([
    [{ name: 'x' }, 'missing field "url"'],
    [{ name: '', url: PUBLIC_FEED }, 'name must not be empty'],
    [{ name: 'x', url: PUBLIC_FEED, tags: 'journals' }, 'tags must be an array (got string)'],
    [
      { name: 'x', url: PUBLIC_FEED, tags: ['Journals'] },
      'tags[0] must be lowercase letters, digits and "-", starting with a letter or digit (got "Journals")',
    ],
    [
      { name: 'x', url: PUBLIC_FEED, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      'tags must have at most 20 items (got 21)',
    ],
    [{ name: 'x', url: PUBLIC_FEED, enabled: 'yes' }, 'enabled must be true or false (got string)'],
    [{ name: 'x', url: PUBLIC_FEED, etag: 'x' }, 'unknown field "etag"; this endpoint takes name, url, enabled, tags'],
    [
      { name: 'x', url: `http://192.0.2.10/${'a'.repeat(2048)}` },
      'url must be at most 2,048 characters long (got 2,066)',
    ],
  ])('refuses the body %p', async (body, message) => {
    expect(await json(await call('/api/sources', { body }))).toEqual(invalid(message))
  })
})

describe('PATCH and DELETE /api/sources/{id}', () => {
  test('disables, renames and retags a source; changes nothing else', async () => {
    const { body } = await json(
      await call('/api/sources', { body: { name: 'to change', url: 'http://192.0.2.12/feed' } }),
    )
    const id = body.data.id
    const disabled = await json(await call(`/api/sources/${id}`, { method: 'PATCH', body: { enabled: false } }))
    expect(disabled).toEqual({ status: 200, body: { data: { ...body.data, enabled: false } } })
    const renamed = await json(
      await call(`/api/sources/${id}`, { method: 'PATCH', body: { name: 'changed', tags: ['preprints'] } }),
    )
    expect(renamed.body.data).toEqual({ ...body.data, enabled: false, name: 'changed', tags: ['preprints'] })
    const cleared = await json(await call(`/api/sources/${id}`, { method: 'PATCH', body: { tags: [], enabled: true } }))
    expect(cleared.body.data).toMatchObject({ tags: [], enabled: true, name: 'changed' })
  })

  test('deletes a source with its articles', async () => {
    const { body } = await json(
      await call('/api/sources', { body: { name: 'to delete', url: 'http://192.0.2.13/feed' } }),
    )
    await api.database.db.insert(articles).values([
      { sourceId: body.data.id, guid: 'del-1', title: 'One' },
      { sourceId: body.data.id, guid: 'del-2', title: 'Two' },
    ])
    expect(
      (await json(await call('/api/sources'))).body.data.find((s: { id: number }) => s.id === body.data.id)
        .article_count,
    ).toBe(2)
    expect(await json(await call(`/api/sources/${body.data.id}`, { method: 'DELETE' }))).toEqual({
      status: 200,
      body: { data: { id: body.data.id, deleted: true, deleted_articles: 2 } },
    })
    const [left] = await api.database.db
      .select({ n: count() })
      .from(articles)
      .where(eq(articles.sourceId, body.data.id))
    expect(left.n).toBe(0)
    expect((await call(`/api/sources/${body.data.id}`, { method: 'DELETE' })).status).toBe(404)
  })

  test.each([
    ['PATCH', '/api/sources/999999', { enabled: false }, 404, 'no source with id 999999'],
    ['PATCH', '/api/sources/1', {}, 400, 'give at least one of name, enabled, tags'],
    [
      'PATCH',
      '/api/sources/1',
      { url: PUBLIC_FEED },
      400,
      'unknown field "url"; this endpoint takes name, enabled, tags',
    ],
    ['PATCH', '/api/sources/x', { enabled: false }, 400, 'id must be a positive integer (got "x")'],
    ['DELETE', '/api/sources/999999', undefined, 404, 'no source with id 999999'],
    ['DELETE', '/api/sources/-1', undefined, 400, 'id must be a positive integer (got "-1")'],
  ])('%s %s: %d', async (method, path, body, status, message) => {
    const response = await json(await call(path, { method, body }))
    expect(response).toEqual({
      status,
      body: { error: { status, code: status === 404 ? 'not_found' : 'invalid_parameter', message } },
    })
  })
})

describe('with SCRAPE_ALLOW_PRIVATE=on', () => {
  const open = useAdminApp({ SCRAPE_ALLOW_PRIVATE: 'on' })
  let token = ''
  let feeds: ReplayServer
  beforeAll(async () => {
    token = (await open.operator()).token
    feeds = replayServer((_, url) =>
      url.pathname === '/ok'
        ? new Response(
            '<rss version="2.0"><channel><item><title>A</title><link>https://a.test/1</link></item><item><title>B</title><link>https://a.test/2</link></item></channel></rss>',
          )
        : new Response('gone', { status: 410 }),
    )
  })
  afterAll(async () => {
    await feeds.stop()
  })
  const callOpen = on(open, () => token)

  test('a local feed is accepted, and after a scrape each source shows its last fetch, status, error and article count', async () => {
    const ok = (await json(await callOpen('/api/sources', { body: { name: 'ok', url: `${feeds.url}/ok` } }))).body.data
    const gone = (await json(await callOpen('/api/sources', { body: { name: 'gone', url: `${feeds.url}/gone` } }))).body
      .data
    expect((await callOpen('/api/scrape', { method: 'POST' })).status).toBe(200)
    const listed = (await json(await callOpen('/api/sources'))).body.data
    expect(listed.find((s: { id: number }) => s.id === ok.id)).toMatchObject({
      last_status: 'ok',
      last_error: null,
      article_count: 2,
      consecutive_failures: 0,
      last_fetched_at: expect.any(String),
      last_success_at: expect.any(String),
    })
    expect(listed.find((s: { id: number }) => s.id === gone.id)).toMatchObject({
      last_status: 'failed',
      last_error: 'HTTP 410',
      article_count: 0,
      consecutive_failures: 1,
      last_fetched_at: expect.any(String),
      last_success_at: null,
    })
  })
})
