/** The `sort` parameter of /api/v1/papers: which order the list is read in (src/resources/papers/paper-order.ts). */
import { invalidParameter, quoted } from '../../../http/errors'
import type { Param } from '../../../http/params'
import { PAPER_SORTS, type PaperSort } from '../../../resources/papers/paper-order'

export const sortParam: Param<PaperSort> = {
  description:
    'The order of the list, each then by id ascending so that equal values page in one stable order: ' +
    'indexed_date (the default), newest indexed first; published_date, newest published first, papers without a ' +
    'publication date last; newsworthiness, judgement.newsworthiness highest first, papers without one last. ' +
    'A cursor pages only in the order it was made in: under another sort it is refused.',
  schema: { type: 'string', enum: [...PAPER_SORTS], default: 'indexed_date' },
  parse: (raw, name) => {
    if ((PAPER_SORTS as readonly string[]).includes(raw)) return raw as PaperSort
    throw invalidParameter(`${name} has unknown value ${quoted(raw)}; allowed: ${PAPER_SORTS.join(', ')}`)
  },
}
