/**
 * The columns of the Data API's items as CSV: every field of the JSON item, nested objects
 * flattened into dotted names (judgement.topic, paper.title, subject.entity.key), in the JSON's own
 * field order. One list per list endpoint and export file, shared by the CSV answers
 * (src/modules/v1/csv) and the bulk export's CSV files (src/pipeline/exports), so the two agree.
 * test/v1/csv/columns.test.ts checks each list against the item's schema in the OpenAPI document:
 * a field added to an item without its column fails there.
 */

const JUDGEMENT = [
  'relevance',
  'relevance_confidence',
  'newsworthiness',
  'study_type',
  'study_type_label',
  'study_type_confidence',
  'topic',
  'topic_confidence',
  'promotional',
  'model',
  'prompt_version',
  'judged_at',
].map((field) => `judgement.${field}`)

/** PaperRef: every field of Paper but story. */
const PAPER_REF = [
  'id',
  'source',
  'doi',
  'title',
  'authors',
  'journal',
  'published_date',
  'indexed_date',
  'preprint',
  'publication_types',
  'url',
  'site_url',
  'abstract',
  'abstract_license',
  ...JUDGEMENT,
]

const PAPER = [...PAPER_REF, 'story.headline', 'story.dek', 'story.url']

const STORY_ITEM = [
  'headline',
  'dek',
  'body',
  'why_it_matters',
  'caveats',
  'support',
  'model',
  'published_at',
  'url',
  'paper_id',
  ...PAPER_REF.map((column) => `paper.${column}`),
]

const side = (name: string) => [`${name}.text`, `${name}.entity.type`, `${name}.entity.key`, `${name}.entity.name`]

const CLAIM_ITEM = [
  'id',
  'paper_id',
  ...side('subject'),
  'relation',
  ...side('object'),
  'organism',
  'context',
  'direction',
  'magnitude',
  'evidence',
  'confidence',
  'created_at',
  ...['id', 'title', 'doi', 'journal', 'published_date', 'preprint', 'url', 'site_url'].map((f) => `paper.${f}`),
]

const ENTITY = ['type', 'key', 'name', 'ids', 'paper_count', 'api_url']

/** The tables: one per list endpoint (/papers, /search, /stories, /claims, /entities). */
export const CSV_COLUMNS = {
  papers: PAPER,
  search: [...PAPER, 'score'],
  stories: STORY_ITEM,
  claims: CLAIM_ITEM,
  entities: ENTITY,
} as const satisfies Record<string, readonly string[]>

export type CsvTable = keyof typeof CSV_COLUMNS

/** How a JSON value becomes a cell, as the OpenAPI document and the README state it. */
export const CELL_RULES =
  'null is an empty cell; true and false as written; numbers as JSON writes them; a list ' +
  'of strings (publication_types) is joined with "; "; an object with open keys (an entity\'s ids, a claim\'s ' +
  'context) is its JSON text. Text is never altered (a spreadsheet may take a cell that begins with =, +, - or @ ' +
  'for a formula).'
