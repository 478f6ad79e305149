/** TypeBox schemas of the change feed: tombstones, /changes entries and the feed's pagination. */
import { t } from 'elysia'
import { Enum, Integer, Pagination } from '../model'

const DateTime = t.String({ format: 'date-time' })

export const FeedPagination = t.Object(
  {
    ...Pagination.properties,
    resume_cursor: t.String({
      description:
        'Where to continue later: pass it as cursor, with the same parameters, to get only what changed after this ' +
        'page. Equal to next_cursor while has_more; on the last page it points past everything seen so far. Valid ' +
        'for 30 days.',
    }),
  },
  { description: 'Pagination of a change feed (with updated_since): the usual fields plus resume_cursor.' },
)

/** A changed item that a mirror of the list should drop. */
export const tombstone = (
  key: 'id' | 'paper_id',
  id: ReturnType<typeof t.String> | ReturnType<typeof Integer>,
  what: string,
) =>
  t.Object(
    {
      [key]: id,
      deleted: t.Literal(true),
      reason: t.UnionEnum(['deleted', 'excluded', 'withdrawn'], {
        default: undefined,
        description:
          `deleted: the ${what} no longer exists (a paper removed, a story taken down, claims replaced by ` +
          `re-extraction). ` +
          `withdrawn: the ${what} no longer exists because its paper was retracted or withdrawn at the source; such ` +
          `a paper is not stored again. ` +
          `excluded: the ${what} exists but, after this change, no longer matches the request's filters (e.g. ` +
          `re-judged below min_relevance). ` +
          'A deleted item cannot be matched against filters any more, so deletions are reported whatever the filters.',
      }),
      changed_at: t.String({ format: 'date-time', description: 'When the change was made (UTC, microseconds).' }),
    },
    { description: `A ${what} that changed and is no longer in the list the request describes.` },
  )

export const ChangeEntry = t.Object(
  {
    type: Enum(['paper', 'story', 'claim'] as const),
    id: t.Union([t.String(), Integer()], {
      description: 'Paper id for paper and story (a story is keyed by its paper), claim id (integer) for claim.',
    }),
    deleted: t.Boolean({ description: 'True when the item no longer exists.' }),
    changed_at: DateTime,
  },
  {
    description:
      'One item that changed: read its current state from /papers/{id}, /papers/{id} (story) or /claims?paper_id=…, ' +
      'or use updated_since on the list.',
  },
)
