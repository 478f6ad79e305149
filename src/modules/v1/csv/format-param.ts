/**
 * The `format` parameter of the list endpoints that answer CSV too (/papers, /search, /stories,
 * /claims, /entities): declared in each route's parameters, so it is parsed, refused when wrong and
 * documented like any other; src/modules/v1/csv/answer.ts acts on it.
 */
import { invalidParameter, quoted } from '../../../http/errors'
import type { Param } from '../../../http/params'
import { CELL_RULES } from '../../../csv/columns'

export const FORMATS = ['json', 'csv'] as const
export type Format = (typeof FORMATS)[number]

/** Answers that are not one flat list of items: no CSV for them. */
export const NOT_A_LIST = 'ids (a batch answer), updated_since (a change feed with tombstones), count=true or group_by'

export const formatParam: Param<Format> = {
  description:
    'json (the default) or csv: the page as text/csv, one header line then one line per item, nested ' +
    `fields flattened into dotted column names (judgement.topic); ${CELL_RULES} The next page's URL is in the Link ` +
    'header (rel="next"), absent on the last page; fields= keeps only the columns of the fields named; errors stay ' +
    `JSON. Accept: text/csv asks for the same. format=csv cannot be combined with ${NOT_A_LIST}; with those, ` +
    'Accept: text/csv is ignored and the answer is JSON.',
  schema: { type: 'string', enum: [...FORMATS], default: 'json' },
  parse: (raw, name) => {
    if ((FORMATS as readonly string[]).includes(raw)) return raw as Format
    throw invalidParameter(`${name} must be json or csv (got ${quoted(raw)})`)
  },
}
