/**
 * The "plain implementation" issue 15 measured the service against, rebuilt for scripts/bench-api.ts --plain:
 * Node's own HTTP server and postgres.js, one prepared SQL statement per request that checks the key and writes the
 * answer's JSON in PostgreSQL (json_build_object), no framework, cache, rate limit, ETag or access log.
 *   node scripts/bench/plain-server.mjs   (reads DATABASE_URL, PORT, PLAIN_CONSTANTS; PGAPPNAME names its backends)
 * PLAIN_CONSTANTS is JSON from the benchmark: { base, openLicenses, studyTypeLabels } (src/taxonomy.ts), so the
 * answers carry the same JSON as the service's (bench-api.ts compares them, parsed, before it measures).
 * Routes: /api/v1/papers/{id}, /api/v1/papers, /api/v1/claims and /api/v1/stories with limit and cursor. Cursors
 * are its own (the last row's sort key, base64url, unsigned): what such an implementation would write in a day.
 * Plain JavaScript so that it runs on Node as the original did (Fastify on Node; Node's http is the lighter of the two).
 * PLAIN_CAPTURE=FILE appends each statement it runs and its values to FILE as a JSON line (the benchmark replays them
 * with pgbench for this implementation's own ceiling; never set on the instance being measured).
 */
import { createHash } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { createServer } from 'node:http'
import postgres from 'postgres'

const { base, openLicenses, studyTypeLabels } = JSON.parse(process.env.PLAIN_CONSTANTS)
const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} })
const captureFile = process.env.PLAIN_CAPTURE
const run = (text, values) => {
  if (captureFile) appendFileSync(captureFile, `${JSON.stringify({ text, parameters: values })}\n`)
  return sql.unsafe(text, values, { prepare: true })
}

const literal = (text) => `'${String(text).replaceAll("'", "''")}'`
const OPEN = `(${openLicenses.map(literal).join(', ')})`
const LABEL = `case p.study_type ${Object.entries(studyTypeLabels).map(([k, v]) => `when ${literal(k)} then ${literal(v)}`).join(' ')} end`
const ts = (column) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

const PAPER_REF = `'id', p.id, 'source', p.source, 'doi', p.doi, 'title', p.title, 'authors', p.authors, 'journal', p.journal,
  'published_date', p.published_date, 'indexed_date', p.indexed_date, 'preprint', p.preprint, 'publication_types', p.publication_types,
  'url', p.url, 'site_url', ${literal(`${base}/papers/`)} || p.id,
  'abstract', case when p.abstract_license in ${OPEN} then p.abstract end, 'abstract_license', p.abstract_license,
  'judgement', case when p.relevance is not null and p.judged_at is not null then json_build_object(
    'relevance', p.relevance, 'relevance_confidence', p.relevance_confidence, 'newsworthiness', coalesce(p.newsworthiness, 0),
    'study_type', p.study_type, 'study_type_label', ${LABEL}, 'study_type_confidence', p.study_type_confidence,
    'topic', p.topic, 'topic_confidence', p.topic_confidence, 'promotional', p.promotional,
    'model', coalesce(p.judgement_model, 'unknown'), 'prompt_version', coalesce(p.judgement_prompt_version, 'unknown'),
    'judged_at', ${ts('p.judged_at')}) end`
const STORY = `'headline', s.headline, 'dek', s.dek, 'body', s.body, 'why_it_matters', s.why_it_matters, 'caveats', s.caveats,
  'support', s.support, 'model', s.model, 'published_at', ${ts('s.published_at')}, 'url', ${literal(`${base}/stories/`)} || s.paper_id`
const ENTITY = (e) => `case when ${e}.id is not null then json_build_object('type', ${e}.type, 'key', ${e}.key, 'name', ${e}.name) end`
const CLAIM = `'id', c.id, 'paper_id', c.paper_id, 'subject', json_build_object('text', c.subject_text, 'entity', ${ENTITY('se')}),
  'relation', c.relation, 'object', json_build_object('text', c.object_text, 'entity', ${ENTITY('oe')}), 'organism', c.organism,
  'context', case when c.context <> '{}'::jsonb then c.context end, 'direction', c.direction, 'magnitude', c.magnitude,
  'evidence', case when p.abstract_license in ${OPEN} then c.evidence end, 'confidence', c.confidence, 'created_at', ${ts('c.created_at')}`

// The key: its id and the SHA-256 of its secret, both parameters 1 and 2 of every statement.
const KEY = `(select exists (select from api_keys k join accounts a on a.id = k.account_id
  where k.id = $1 and k.secret_hash = $2 and k.revoked_at is null and (k.tier = 'pro' or a.membership = 'active' or a.role = 'admin')) as ok) key`

const detail = `select key.ok, (select json_build_object('data', json_build_object(${PAPER_REF},
    'story', (select json_build_object(${STORY}) from stories s where s.paper_id = p.id),
    'upvotes', (select count(*) from upvotes u where u.paper_id = p.id),
    'entities', coalesce((select json_agg(json_build_object('type', e.type, 'key', e.key, 'name', e.name, 'ids', e.ids, 'role', pe.role,
        'detail', nullif(case when p.abstract_license in ${OPEN} then pe.detail else pe.detail - 'mention' - 'description' end, '{}'::jsonb))
        order by e.type, e.key, pe.role)
      from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = p.id), '[]'),
    'claims', coalesce((select json_agg(json_build_object(${CLAIM}) order by c.created_at desc, c.id desc)
      from claims c left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id
      where c.paper_id = p.id), '[]')))::text
  from papers p where key.ok and p.id = upper($3)) as body from ${KEY}`

/** A list: its item's JSON, the sort key written into cursors, and the page's statement (first page, or after a key). */
const lists = {
  '/api/v1/papers': {
    item: `json_build_object(${PAPER_REF}, 'story', case when s.paper_id is not null then
      json_build_object('headline', s.headline, 'dek', s.dek, 'url', ${literal(`${base}/stories/`)} || p.id) end)::text`,
    from: 'papers p left join stories s on s.paper_id = p.id',
    where: 'p.relevance >= 2',
    keys: ['p.indexed_date::text', 'p.id'],
    // newest first, then id ascending: the first condition lets the index range start at the cursor's date
    after: 'p.indexed_date <= $4::date and (p.indexed_date < $4::date or p.id > $5)',
    order: 'p.indexed_date desc, p.id',
  },
  '/api/v1/stories': {
    item: `json_build_object(${STORY}, 'paper_id', s.paper_id, 'paper', json_build_object(${PAPER_REF}))::text`,
    from: 'stories s join papers p on p.id = s.paper_id',
    where: 'true',
    keys: ['s.published_at::text', 's.paper_id'],
    after: 's.published_at <= $4::timestamptz and (s.published_at < $4::timestamptz or s.paper_id > $5)',
    order: 's.published_at desc, s.paper_id',
  },
  '/api/v1/claims': {
    item: `json_build_object(${CLAIM}, 'paper', json_build_object('id', p.id, 'title', p.title, 'doi', p.doi, 'journal', p.journal,
      'published_date', p.published_date, 'preprint', p.preprint, 'url', p.url, 'site_url', ${literal(`${base}/papers/`)} || p.id))::text`,
    from: `claims c join papers p on p.id = c.paper_id left join entities se on se.id = c.subject_entity_id
      left join entities oe on oe.id = c.object_entity_id`,
    where: 'true',
    keys: [`c.created_at::text`, 'c.id::text'],
    after: '(c.created_at, c.id) < ($4::timestamptz, $5::int)',
    order: 'c.created_at desc, c.id desc',
  },
}
for (const list of Object.values(lists)) {
  const page = (after) => `select key.ok, page.j, page.k1, page.k2 from ${KEY} left join lateral (
    select ${list.item} as j, ${list.keys[0]} as k1, ${list.keys[1]} as k2 from ${list.from}
    where ${list.where}${after ? ` and ${list.after}` : ''} order by ${list.order} limit $3) page on key.ok`
  list.first = page(false)
  list.next = page(true)
}

const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
const error = (res, status, code, message) => send(res, status, JSON.stringify({ error: { code, message } }))

async function answer(req, res) {
  const token = /^Bearer\s+grk_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/.exec(req.headers.authorization ?? '')
  if (!token) return error(res, 401, 'invalid_key', 'the API key is malformed')
  const key = [token[1], createHash('sha256').update(token[2]).digest('hex')]
  const url = new URL(req.url, 'http://plain')
  const path = url.pathname
  if (path.startsWith('/api/v1/papers/')) {
    const [row] = await run(detail, [...key, decodeURIComponent(path.slice('/api/v1/papers/'.length))])
    if (!row.ok) return error(res, 401, 'invalid_key', 'the API key does not exist')
    return row.body ? send(res, 200, row.body) : error(res, 404, 'not_found', 'no such paper')
  }
  const list = lists[path]
  if (!list) return error(res, 404, 'not_found', 'no such endpoint')
  const limit = Number(url.searchParams.get('limit') ?? 25)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(res, 400, 'invalid_parameter', 'limit must be 1 to 100')
  const cursor = url.searchParams.get('cursor')
  let after = null
  if (cursor) {
    try {
      after = JSON.parse(Buffer.from(cursor, 'base64url').toString())
    } catch {
      after = null
    }
    if (!Array.isArray(after) || after.length !== 2) return error(res, 400, 'invalid_parameter', 'cursor is not a cursor')
  }
  const rows = await run(after ? list.next : list.first, after ? [...key, limit + 1, ...after] : [...key, limit + 1])
  if (!rows[0].ok) return error(res, 401, 'invalid_key', 'the API key does not exist')
  const items = rows[0].j === null ? [] : rows.slice(0, limit)
  const more = rows.length > limit
  const last = items.at(-1)
  const next = more ? Buffer.from(JSON.stringify([last.k1, last.k2])).toString('base64url') : null
  send(res, 200, `{"data":[${items.map((r) => r.j).join(',')}],"pagination":${JSON.stringify({ next_cursor: next, has_more: more, limit })}}`)
}

const server = createServer((req, res) => {
  answer(req, res).catch((e) => error(res, 500, 'internal', String(e.message)))
})
server.keepAliveTimeout = 60_000
server.listen(Number(process.env.PORT), '127.0.0.1')
process.on('SIGTERM', () => {
  server.close()
  sql.end({ timeout: 1 }).then(() => process.exit(0))
})
