/**
 * `fields=` pages of /api/v1/papers and /api/v1/stories written as JSON by PostgreSQL (issues 15,
 * 18): each row comes back as the finished JSON text of its item with only the selected keys, and
 * columns no selected key needs are not read (the story join goes when no story field is asked), so
 * `fields=id,title` costs a fraction of a full page on both sides. Full pages are read from the items
 * stored beside each paper (issue 39, src/documents/paper-items.ts), written here only for a row whose
 * item is stale: built in SQL for every row they cost PostgreSQL about twice the CPU they saved the
 * service (docs/benchmarks.md), and the database is the tier that does not scale out.
 *
 * The items are byte for byte what src/resources/papers/serialize.ts and
 * src/resources/stories/serialize.ts make of the same rows (scripts/compare-answers.ts checks it
 * against the JavaScript serializers; test/v1/json-text.test.ts checks the awkward values).
 */
import type { Db } from '../../db/client'
import { OPEN_LICENSES, STUDY_TYPE_LABELS } from '../../taxonomy'
import {
  jsonBoolean,
  jsonNumber,
  jsonObject,
  jsonString,
  jsonTimestamp,
  uriComponent,
  type FieldSelection,
  type JsonField,
} from '../../queries/json-text'
import { Conditions, runStatement, whereText } from '../../queries/prepared'
import { PAGE_WINDOW, windowedPage } from '../../queries/windowed-page'
import {
  DEFAULT_PAPER_SORT,
  PAPER_ORDERS,
  PAPER_SORTS,
  positionRanges,
  type PaperPosition,
  type PaperSort,
} from './paper-order'
import { paperDatesText, paperFilterText, papersInRange, type PaperFilters } from './queries'
import {
  storiesInRange,
  storyDatesText,
  storyFilterText,
  type StoryFilters,
  type StoryPosition,
} from '../stories/queries'

// The constants a statement may use, written $1..$5 here and renumbered by numberedStatement.
const LICENSES = '$1::text[]'
const STUDY_TYPE_KEYS = '$2::text[]'
const STUDY_TYPE_NAMES = '$3::text[]'
const PAPER_URL = '$4::text' // `"<base>/papers/` as JSON text: the opening quote and the escaped base
const STORY_URL = '$5::text'

const labelEntries = Object.entries(STUDY_TYPE_LABELS)
const constantsByBase = new Map<string, unknown[]>()
const constants = (base: string) => {
  let known = constantsByBase.get(base)
  if (!known) constantsByBase.set(base, (known = constantsOf(base)))
  return known
}
const constantsOf = (base: string) => [
  [...OPEN_LICENSES],
  labelEntries.map(([k]) => k),
  labelEntries.map(([, v]) => v),
  JSON.stringify(`${base}/papers/`).slice(0, -1),
  JSON.stringify(`${base}/stories/`).slice(0, -1),
]

/** PaperRef (serializePaperRef) of `p`. */
const paperRefFields: JsonField[] = [
  { key: 'id', value: jsonString('p.id', false) },
  { key: 'source', value: jsonString('p.source', false) },
  { key: 'doi', value: jsonString('p.doi') },
  { key: 'title', value: jsonString('p.title', false) },
  { key: 'authors', value: jsonString('p.authors', false) },
  { key: 'journal', value: jsonString('p.journal', false) },
  { key: 'published_date', value: jsonString('p.published_date::text') },
  { key: 'indexed_date', value: jsonString('p.indexed_date::text', false) },
  { key: 'preprint', value: jsonBoolean('p.preprint') },
  { key: 'publication_types', value: `coalesce(to_json(p.publication_types)::text, 'null')` },
  { key: 'url', value: jsonString('p.url', false) },
  { key: 'site_url', value: `${PAPER_URL} || ${uriComponent('p.id')} || '"'` },
  {
    key: 'abstract',
    value: `case when p.abstract_license = any(${LICENSES}) then ${jsonString('p.abstract')} else 'null' end`,
  },
  { key: 'abstract_license', value: jsonString('p.abstract_license') },
  {
    key: 'judgement',
    nullWhen: 'p.relevance is null or p.judged_at is null',
    fields: [
      { key: 'relevance', value: jsonNumber('p.relevance') },
      { key: 'relevance_confidence', value: jsonNumber('p.relevance_confidence') },
      { key: 'newsworthiness', value: jsonNumber('coalesce(p.newsworthiness, 0)') },
      { key: 'study_type', value: jsonString('p.study_type') },
      {
        key: 'study_type_label',
        value: jsonString(`(${STUDY_TYPE_NAMES})[array_position(${STUDY_TYPE_KEYS}, p.study_type)]`),
      },
      { key: 'study_type_confidence', value: jsonNumber('p.study_type_confidence') },
      { key: 'topic', value: jsonString('p.topic') },
      { key: 'topic_confidence', value: jsonNumber('p.topic_confidence') },
      { key: 'promotional', value: jsonNumber('p.promotional') },
      { key: 'model', value: jsonString(`coalesce(p.judgement_model, 'unknown')`, false) },
      // As serialize.ts: an editor's correction (model 'editor') has the prompt version 'editor'.
      {
        key: 'prompt_version',
        value: jsonString(
          `coalesce(p.judgement_prompt_version, case when p.judgement_model = 'editor' then 'editor' else 'unknown' ` +
            `end)`,
          false,
        ),
      },
      { key: 'judged_at', value: jsonTimestamp('p.judged_at') },
    ],
  },
]

/** Paper (serializeListedPaper): a PaperRef and its story's summary from the left join `s`. */
const listedPaperFields: JsonField[] = [
  ...paperRefFields,
  {
    key: 'story',
    nullWhen: 's.paper_id is null',
    fields: [
      { key: 'headline', value: jsonString('s.headline', false) },
      { key: 'dek', value: jsonString(`coalesce(s.dek, '')`, false) },
      { key: 'url', value: `${STORY_URL} || ${uriComponent('p.id')} || '"'` },
    ],
  },
]

/** Story (serializeStory) of `s`. */
const storyFields: JsonField[] = [
  { key: 'headline', value: jsonString('s.headline', false) },
  { key: 'dek', value: jsonString('s.dek', false) },
  { key: 'body', value: jsonString('s.body', false) },
  { key: 'why_it_matters', value: jsonString('s.why_it_matters', false) },
  { key: 'caveats', value: jsonString('s.caveats', false) },
  { key: 'support', value: jsonNumber('s.support') },
  { key: 'model', value: jsonString('s.model', false) },
  { key: 'published_at', value: jsonTimestamp('s.published_at') },
  { key: 'url', value: `${STORY_URL} || ${uriComponent('s.paper_id')} || '"'` },
]

/** StoryItem (serializeStoryItem): the story `s`, its paper's id, the paper `p` as a PaperRef. */
const storyItemFields: JsonField[] = [
  ...storyFields,
  { key: 'paper_id', value: jsonString('s.paper_id', false) },
  { key: 'paper', nullWhen: null, fields: paperRefFields },
]

/**
 * A statement's text with the constants it uses numbered first ($1, $2, ...: PostgreSQL cannot type
 * a parameter the text never names, so a selection that needs no licence gets no licence value),
 * then its `$?` in order; `constants` are the indexes (0..4) of the constants to pass first.
 */
type Statement = { text: string; constants: number[] }

function numberedStatement(text: string): Statement {
  const used = [1, 2, 3, 4, 5].filter((n) => text.includes(`$${n}::`))
  let fixed = text.replace(/\$([1-5])::/g, (_, n: string) => `$${used.indexOf(Number(n)) + 1}::`)
  let next = used.length
  fixed = fixed.replace(/\$\?/g, () => `$${++next}`)
  return { text: fixed, constants: used.map((n) => n - 1) }
}

/**
 * Statement texts by selection and conditions. Selections are the caller's choice, so only the
 * first MAX_PREPARED texts of each family are kept and prepared (on every pooled connection, each
 * with its plan: 64 bounds that memory); any further one is built and run unprepared
 * (src/queries/prepared.ts runStatement).
 */
const MAX_PREPARED = 64

class Texts {
  private readonly texts = new Map<string, Statement | null>()

  get(key: string, make: () => Statement | null): { statement: Statement | null; prepare: boolean } {
    const known = this.texts.get(key)
    if (known !== undefined) return { statement: known, prepare: true }
    const statement = make()
    if (this.texts.size < MAX_PREPARED) {
      this.texts.set(key, statement)
      return { statement, prepare: true }
    }
    return { statement, prepare: false }
  }
}

const selectionKey = (selection: FieldSelection | undefined, stored: StoredItem | undefined) =>
  (selection ? JSON.stringify(selection) : '*') + (stored ? stored.column : '')
const usesStory = (selection: FieldSelection | undefined) => !selection || 'story' in selection

/**
 * An item stored as JSON text beside its row (src/documents/paper-items.ts): `column`, its SQL text (null where
 * there is none fresh), read from what `join(<the row's paper id>)` joins. A page that reads it gets the stored text as
 * `stored` and writes `json` only for a row without one.
 */
export type StoredItem = { column: string; join: (paperId: string) => string }

/**
 * sortKey: the row's key in an order other than the default (src/resources/papers/paper-order.ts), as text. With a
 * StoredItem, exactly one of `stored` (with the base's mark) and `json` is not null.
 */
export type PaperJsonRow = { indexedDate: string; sortKey?: string; id: string; json: string; stored?: string | null }

/** The head's item columns: the JSON `object` alone, or the stored item and `object` only where it is missing. */
const itemColumns = (object: string, stored: StoredItem | undefined) =>
  stored
    ? `${stored.column} as stored, case when ${stored.column} is null then ${object} end as json`
    : `${object} as json`

/** Which statement of a list page: the walk of a range, a window of its newest rows filtered, or every match sorted. */
type Window = number | 'sorted' | null

/**
 * How a list's page statements are written: the selected JSON, the table walked (and its alias), what it joins, its
 * orders.
 */
type ListShape = { head: string; table: string; alias: string; join: string; newest: string; sorted: string }

/**
 * A page's statement (src/queries/windowed-page.ts): over `range` alone, the walk of the list's index; with
 * `filters`, a window of the range's newest `window` rows filtered, with the range again outside (so a date it
 * fixes leaves the window's order usable, as in src/resources/papers/queries.ts, paperWindows); or ('sorted') every row
 * the filters pass, sorted by an expression no index gives. Values: the range's, the filters', and for a window
 * the range's again.
 */
function pageStatement(shape: ListShape, range: string[], filters: string[], window: Window): Statement {
  const { head, table, alias, join, newest, sorted } = shape
  const source =
    typeof window === 'number'
      ? `(select * from ${table} ${alias} where ${whereText(range)} ${newest} limit ${window})`
      : table
  const where = window === null ? range : typeof window === 'number' ? [...filters, ...range] : [...range, ...filters]
  return numberedStatement(
    `${head}\nfrom ${source} ${alias} ${join}\nwhere ${whereText(where)}\n${window === 'sorted' ? sorted : newest} ` +
      `limit $limit`,
  )
}

type JsonPage = {
  /** The range the page reads (its position and the filter's dates), and the filter's other conditions. */
  range: Conditions
  filtered: Conditions
  /** The same conditions written for a page planned for its values. */
  sortedFilter: Conditions
  dearTest: boolean
  rangeRows: (cap: number) => Promise<number>
}

/**
 * A `fields=` page of `n` rows, read as windowedPage reads a list: its statements by selection, range and
 * filters from `texts`, the windows planned once, the sorted page for its values; null when the selection
 * cannot be built in SQL.
 */
async function windowedJsonPage<Row>(
  db: Db,
  base: string,
  texts: Texts,
  selection: FieldSelection | undefined,
  stored: StoredItem | undefined,
  pageText: (range: string[], filters: string[], window: Window) => Statement | null,
  page: JsonPage,
  n: number,
): Promise<Row[] | null> {
  const lead = constants(base)
  const run = (filtered: Conditions, window: Window) => {
    const { range } = page
    const key = [
      selectionKey(selection, stored),
      window,
      range.fragments.join('\u0000'),
      filtered.fragments.join('\u0000'),
    ].join('\u0001')
    const { statement, prepare } = texts.get(key, () => pageText(range.fragments, filtered.fragments, window))
    if (statement === null) return null
    const values = [
      ...statement.constants.map((i) => lead[i]),
      ...range.values,
      ...filtered.values,
      ...(typeof window === 'number' ? range.values : []),
      n,
    ]
    return runStatement<Row>(
      db,
      statement.text,
      values,
      prepare,
      window === 'sorted' ? { customPlan: true } : { genericPlan: true },
    )
  }
  if (page.filtered.fragments.length === 0) return run(page.filtered, null)
  const first = await run(page.filtered, PAGE_WINDOW)
  if (first === null) return null // a selection the SQL cannot build
  return windowedPage(
    n,
    async (rows) => (rows === PAGE_WINDOW ? first : ((await run(page.filtered, rows)) ?? [])),
    async () => (await run(page.sortedFilter, 'sorted')) ?? [],
    page,
  )
}

const paperTexts = Object.fromEntries(PAPER_SORTS.map((sort) => [sort, new Texts()])) as Record<PaperSort, Texts>

function paperPageText(
  selection: FieldSelection | undefined,
  stored: StoredItem | undefined,
  range: string[],
  filters: string[],
  window: Window,
  sort: PaperSort,
): Statement | null {
  let object = jsonObject(listedPaperFields, selection)
  if (object === null) return null
  const order = PAPER_ORDERS[sort]
  // The default order's key is the indexed date the row already names; another order's key comes as text.
  const key = sort === 'indexed_date' ? '' : `(${order.key})::text as "sortKey", `
  const storyJoin = usesStory(selection) ? 'left join stories s on s.paper_id = p.id' : ''
  // Beside stored items the story is read only for the rows written here: a subquery the CASE runs for them alone.
  if (stored && storyJoin) object = `(select ${object} from (select 1) one ${storyJoin})`
  return pageStatement(
    {
      head: `select p.indexed_date::text as "indexedDate", ${key}p.id, ${itemColumns(object, stored)}`,
      table: 'papers',
      alias: 'p',
      join: stored ? stored.join('p.id') : storyJoin,
      newest: order.newest,
      sorted: order.sorted,
    },
    range,
    filters,
    window,
  )
}

/**
 * listPapers (src/resources/papers/queries.ts) with each row as its Paper's JSON text, cut to `selection`;
 * null when the selection cannot be built in SQL (the caller serializes in JavaScript then). With `stored` (and no
 * selection), each row's stored item where there is one (PaperJsonRow).
 */
export async function listPapersJson(
  db: Db,
  base: string,
  filters: PaperFilters,
  limit: number,
  after: PaperPosition | null,
  selection?: FieldSelection,
  sort: PaperSort = DEFAULT_PAPER_SORT,
  stored?: StoredItem,
): Promise<PaperJsonRow[] | null> {
  const texts = paperTexts[sort]
  const fetch = (position: () => Conditions, n: number) =>
    windowedJsonPage<PaperJsonRow>(
      db,
      base,
      texts,
      selection,
      stored,
      (range, fragments, window) => paperPageText(selection, stored, range, fragments, window, sort),
      {
        range: paperDatesText(filters, position(), sort),
        filtered: paperFilterText(filters, undefined, true, sort), // q's tsquery built once per run in the windows
        sortedFilter: paperFilterText(filters, undefined, false, sort),
        dearTest: Boolean(filters.q),
        rangeRows: (cap) => papersInRange(db, () => paperDatesText(filters, position(), sort), cap),
      },
      n,
    )
  if (!after) return fetch(() => new Conditions(), limit + 1)
  // Two index ranges (src/queries/keyset.ts), as listPapers.
  const [tiedRange, restRange] = positionRanges(PAPER_ORDERS[sort], after)
  const tied = await fetch(tiedRange, limit + 1)
  if (tied === null || tied.length > limit) return tied
  const rest = await fetch(restRange, limit + 1 - tied.length)
  return rest && tied.concat(rest)
}

export type StoryJsonRow = { publishedAtText: string; paperId: string; json: string; stored?: string | null }

const storyTexts = new Texts()

function storyPageText(
  selection: FieldSelection | undefined,
  stored: StoredItem | undefined,
  range: string[],
  filters: string[],
  window: Window,
): Statement | null {
  const object = jsonObject(storyItemFields, selection)
  if (object === null) return null
  return pageStatement(
    {
      head: `select to_char(s.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "publishedAtText",
  s.paper_id as "paperId", ${itemColumns(object, stored)}`,
      table: 'stories',
      alias: 's',
      join: `join papers p on p.id = s.paper_id${stored ? ` ${stored.join('s.paper_id')}` : ''}`,
      newest: 'order by s.published_at desc, s.paper_id asc',
      sorted: `order by s.published_at + interval '0 s' desc, s.paper_id asc`,
    },
    range,
    filters,
    window,
  )
}

/**
 * listStories (src/resources/stories/queries.ts) with each row as its StoryItem's JSON text, cut to `selection`; null
 * and `stored` as listPapersJson.
 */
export async function listStoriesJson(
  db: Db,
  base: string,
  filters: StoryFilters,
  limit: number,
  after: StoryPosition | null,
  selection?: FieldSelection,
  stored?: StoredItem,
): Promise<StoryJsonRow[] | null> {
  const fetch = (position: () => Conditions, n: number) =>
    windowedJsonPage<StoryJsonRow>(
      db,
      base,
      storyTexts,
      selection,
      stored,
      (range, fragments, window) => storyPageText(selection, stored, range, fragments, window),
      {
        range: storyDatesText(filters, position()),
        filtered: storyFilterText(filters),
        sortedFilter: storyFilterText(filters),
        // a story's filter is its paper's judgement, tested through a join (src/resources/stories/queries.ts)
        dearTest: true,
        rangeRows: (cap) => storiesInRange(db, () => storyDatesText(filters, position()), cap),
      },
      n,
    )
  if (!after) return fetch(() => new Conditions(), limit + 1)
  const tied = await fetch(
    () =>
      new Conditions().add('s.published_at = $?::timestamptz', after.publishedAt).add('s.paper_id > $?', after.paperId),
    limit + 1,
  )
  if (tied === null || tied.length > limit) return tied
  const rest = await fetch(
    () => new Conditions().add('s.published_at < $?::timestamptz', after.publishedAt),
    limit + 1 - tied.length,
  )
  return rest && tied.concat(rest)
}
