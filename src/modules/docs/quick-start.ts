/**
 * The quick-start above the Data API reference: how to get a key, page, stay inside the limits and
 * read errors, and one copy-paste request per endpoint. Every path of the OpenAPI document has an
 * example here (test/docs/reference.test.ts holds the two lists together).
 */
import { escapeXml } from '../site/render'

/** One example request per Data API endpoint, as the path and query a reader would type. */

/** The change feed's first page from the beginning, as the quick-start shows it. */
const FEED_FROM_START = '/api/v1/papers?updated_since=1970-01-01T00:00:00Z&min_relevance=0&limit=100'
export const ENDPOINT_EXAMPLES: { path: string; example: string; says: string; body?: string }[] = [
  {
    path: '/api/v1/papers',
    example: '/api/v1/papers?topic=senescence&min_relevance=2&limit=5',
    says: 'Newest judged papers on a topic',
  },
  {
    path: '/api/v1/papers/{id}',
    example: '/api/v1/papers/MED-40000001',
    says: 'One paper with its judgement, story, entities and claims',
  },
  {
    path: '/api/v1/papers/doi:{doi}',
    example: '/api/v1/papers/doi:10.1038/s43587-024-00001-1',
    says: 'One paper by its DOI (pmid:N works the same way)',
  },
  {
    path: '/api/v1/papers/batch',
    example: '/api/v1/papers/batch',
    body: '{"ids":["MED-40000001","doi:10.1038/s43587-024-00001-1","pmid:40000002"]}',
    says: 'Up to 500 papers in one call, in the order asked (GET /api/v1/papers/batch?ids=a,b,c takes up to 100)',
  },
  {
    path: '/api/v1/papers/changes',
    example: '/api/v1/papers/changes?updated_since=2026-11-01T00:00:00Z&topic=senescence',
    says: 'Papers changed since a time, and tombstones (the same as /api/v1/papers?updated_since=)',
  },
  {
    path: '/api/v1/stories/changes',
    example: '/api/v1/stories/changes?updated_since=2026-11-01T00:00:00Z',
    says: 'Stories changed since a time, and tombstones',
  },
  {
    path: '/api/v1/claims/changes',
    example: '/api/v1/claims/changes?updated_since=2026-11-01T00:00:00Z&relation=extends',
    says: 'Claims changed since a time, and tombstones',
  },
  // fields=: the same path under /api/v1/sparse (its answer schema has nothing required), or the plain path with
  // fields=, the same bytes.
  {
    path: '/api/v1/sparse/papers',
    example: '/api/v1/sparse/papers?fields=id,title,judgement.topic&topic=senescence',
    says: 'Only the fields you name of each paper',
  },
  {
    path: '/api/v1/sparse/papers/{id}',
    example: '/api/v1/sparse/papers/MED-40000001?fields=id,title,claims.relation',
    says: 'Only the fields you name of one paper',
  },
  {
    path: '/api/v1/sparse/papers/doi:{doi}',
    example: '/api/v1/sparse/papers/doi:10.1038%2Fs43587-024-00001-1?fields=id,doi',
    says: 'Only some fields of a paper found by DOI',
  },
  {
    path: '/api/v1/sparse/papers/batch',
    example: '/api/v1/sparse/papers/batch?ids=MED-40000001,pmid:40000002&fields=id,title',
    says: 'Only some fields of many papers',
  },
  {
    path: '/api/v1/sparse/search',
    example: '/api/v1/sparse/search?q=senolytic&fields=id,score,title',
    says: 'Only some fields of each hit',
  },
  {
    path: '/api/v1/sparse/stories',
    example: '/api/v1/sparse/stories?fields=headline,url,paper.id',
    says: 'Only some fields of each story',
  },
  {
    path: '/api/v1/sparse/claims',
    example: '/api/v1/sparse/claims?subject=rapamycin&fields=id,relation,object.text',
    says: 'Only some fields of each claim',
  },
  {
    path: '/api/v1/sparse/entities',
    example: '/api/v1/sparse/entities?type=gene&fields=key,name',
    says: 'Only some fields of each entity',
  },
  {
    path: '/api/v1/sparse/entities/{type}/{key}',
    example: '/api/v1/sparse/entities/intervention/rapamycin?fields=name,papers.id',
    says: 'Only some fields of one entity and its papers',
  },
  {
    path: '/api/v1/sparse/topics',
    example: '/api/v1/sparse/topics?fields=slug,name',
    says: 'Only some fields of each topic',
  },
  {
    path: '/api/v1/stories',
    example: '/api/v1/stories?since=2026-01-01&limit=10',
    says: 'Published stories, newest first',
  },
  { path: '/api/v1/topics', example: '/api/v1/topics', says: 'The topics with their paper and story counts' },
  { path: '/api/v1/entities', example: '/api/v1/entities?type=gene&q=sirt', says: 'Entities, most-studied first' },
  {
    path: '/api/v1/entities/{type}/{key}',
    example: '/api/v1/entities/intervention/rapamycin?min_relevance=2&limit=10',
    says: 'One entity and the papers about it (paged)',
  },
  {
    path: '/api/v1/claims',
    example: '/api/v1/claims?subject=rapamycin&relation=extends',
    says: 'Claims extracted from papers',
  },
  {
    path: '/api/v1/evidence',
    example: '/api/v1/evidence?subject=rapamycin&object=lifespan',
    says: 'What the claims say about one question, by organism and direction',
  },
  {
    path: '/api/v1/changes',
    example: '/api/v1/changes?updated_since=2026-11-01T00:00:00Z&type=paper,claim',
    says: 'What changed since a time: one entry per changed item, deletions included',
  },
  { path: '/api/v1/stats', example: '/api/v1/stats', says: 'Corpus counts' },
  {
    path: '/api/v1/search',
    example: '/api/v1/search?q=%22senolytic%20therapy%22%20-review',
    says: 'Ranked full-text search',
  },
  {
    path: '/api/v1/exports',
    example: '/api/v1/exports',
    says: 'The nightly bulk export: one NDJSON.gz file per resource (and its CSV.gz), with counts, sizes and sha256',
  },
  {
    path: '/api/v1/exports/{file}',
    example: '/api/v1/exports/papers-20261124T023000000Z-1a2b3c4d.ndjson.gz',
    says: 'One export file, for pro keys (add -o papers.ndjson.gz to save it, -C - to resume; byte ranges are served)',
  },
]

const curl = (base: string, path: string, body?: string) =>
  body
    ? `curl -H "Authorization: Bearer $GEROSCOPE_KEY" -H 'Content-Type: application/json' -d '${body}' '${base}${path}'`
    : `curl -H "Authorization: Bearer $GEROSCOPE_KEY" '${base}${path}'`

/** The quick-start section as HTML (server-rendered, readable without the script-driven reference below it). */
export function quickStartHtml(base: string): string {
  const examples = ENDPOINT_EXAMPLES.map(
    (e) =>
      `<li><p>${escapeXml(e.says)}: <code>${e.body ? 'POST' : 'GET'} ${escapeXml(e.path)}</code></p>` +
      `<pre tabindex="0"><code>${escapeXml(curl(base, e.example, e.body))}</code></pre></li>`,
  ).join('\n')
  return (
    `<section aria-labelledby="quick-start">
<h2 id="quick-start">Quick start</h2>
<h3>1. Get a key</h3>
<p>Sign in to your account and create a key with <code>POST /api/keys</code>` +
    ` (members; the plain key is shown once), or ask the
operator for a pro key. A fresh local install prints a demo member key at start-up. Keys look like
<code>grk_</code> + 8-character id + <code>_</code> + 32-character secret. Keep them secret: send them only in the
<code>Authorization</code> header, never in a public page.</p>
<pre tabindex="0"><code>export GEROSCOPE_KEY=grk_XXXXXXXX_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX
${escapeXml(curl(base, '/api/v1/stats'))}</code></pre>
<h3>2. Page through lists</h3>
<p>Lists answer <code>{ "data": [...], "pagination": { "next_cursor": ... } }</code>. Repeat the request with
<code>cursor</code> set to <code>next_cursor</code> and the same other parameters (<code>limit</code>` +
    `, 1 to 100, default 25,
may change) until <code>next_cursor</code> is null. Cursors are opaque and signed.</p>
<pre tabindex="0"><code>${escapeXml(curl(base, '/api/v1/papers?topic=senescence&limit=100'))}
${escapeXml(curl(base, '/api/v1/papers?topic=senescence&limit=100&cursor=<next_cursor>'))}</code></pre>
<h3>3. Stay inside the limits</h3>
<table><caption class="meta">Allowances (UTC minutes and days)</caption>
<thead><tr><th scope="col">Tier</th><th scope="col">Per minute</th><th scope="col">Per day</th></tr></thead>
<tbody><tr><td>Member</td><td>60, shared by the account's keys</td><td>1,000</td></tr><tr><td>Pro</td><td>` +
    `600 per key</td><td>50,000</td></tr></tbody></table>
<p>Every answer to a usable key carries <code>X-RateLimit-Limit</code>, <code>-Remaining</code>, <code>-Reset</code>,
<code>-Used</code> and <code>X-RateLimit-Minute-Limit</code>, <code>-Remaining</code>, <code>-Reset</code>` +
    `. Over the limit the
answer is 429 with <code>Retry-After</code> (seconds). Answers may be cached privately for 60 seconds.</p>
<h3>4. Read errors</h3>
<p>Every error is <code>{ "error": { "status", "code", "message" } }</code>; the message names the parameter at fault.
Codes: <code>missing_key</code>, <code>invalid_key</code>, <code>revoked_key</code> (401), <code>plan_required</code>` +
    ` (403),
<code>invalid_parameter</code> (400), <code>not_found</code> (404), <code>rate_limited</code> (429),
<code>unavailable</code> (503, retry with backoff), <code>internal_error</code> (500: quote the <code>` +
    `X-Request-Id</code> header).</p>
<h3>5. Keep a copy in sync</h3>
<p>Add <code>updated_since</code> (an ISO 8601 timestamp with <code>Z</code> or an offset) to <code>` +
    `/api/v1/papers</code>,
<code>/api/v1/stories</code> or <code>/api/v1/claims</code> and the list becomes a change feed (documented, with its ` +
    `own answer
schema, as <code>/api/v1/papers/changes</code>, <code>/api/v1/stories/changes</code> and <code>` +
    `/api/v1/claims/changes</code>, which answer the same): every item changed since then
(new, edited, re-judged, re-extracted, its story written or taken down), once each at its latest change, in change ` +
    `order, in the
list's own shape. What must leave your copy comes as a tombstone: <code>` +
    `{ "id", "deleted": true, "reason", "changed_at" }</code>
(stories: <code>paper_id</code> instead of <code>id</code>); <code>reason</code> is <code>deleted</code>, or <code>` +
    `excluded</code>
when the item still exists but no longer matches your filters (for example re-judged below <code>min_relevance</code>` +
    `). The other
filters apply as in the list; <code>q</code>, <code>ids</code>, <code>fields</code>, <code>count</code> and <code>` +
    `group_by</code>
do not combine with it. Follow <code>next_cursor</code> to the end, keep <code>pagination.resume_cursor</code>` +
    `, and next time send
it as <code>cursor</code> with the same parameters: you get exactly what changed since, nothing skipped even when ` +
    `changes commit
out of order. Tombstones are kept 31 days and cursors last 30; an older cursor is a 400 <code>` +
    `invalid_parameter</code> saying it
expired, and you start again from an empty copy with <code>updated_since=1970-01-01T00:00:00Z</code>.
<code>/api/v1/changes</code> lists the same changes across all three as light entries.</p>
<pre tabindex="0">` +
    `<code>${escapeXml(curl(base, FEED_FROM_START))}
${escapeXml(curl(base, `${FEED_FROM_START}&cursor=<resume_cursor>`))}</code></pre>
<h3>6. One request per endpoint</h3>
<ul class="items">${examples}</ul>
<p>The contract as OpenAPI 3.1: <a href="${escapeXml(base)}/api/v1/openapi.json">${escapeXml(base)}/api/v1/openapi.js` +
    `on</a> (no key needed),
ready for client generators such as <code>openapi-typescript</code>.</p>
</section>`
  )
}
