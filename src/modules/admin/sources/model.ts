/** Bodies and answers of /api/sources (operators). */
import { t } from 'elysia'
import { booleanField, listField, optional, stringField } from '../../../http/json-body'
import { DateTime, Enum, Integer, Nullable } from '../schemas'

const name = stringField('A name for the feed, shown to operators.', { max: 200 })
const tags = listField(
  'Labels for tag-based briefs: lowercase letters, digits and "-", up to 40 characters each; duplicates are dropped.',
  stringField('A tag.', {
    max: 40,
    pattern: /^[a-z0-9][a-z0-9-]*$/,
    patternRule: 'must be lowercase letters, digits and "-", starting with a letter or digit',
    example: 'journals',
  }),
  { max: 20 },
)
const enabled = booleanField('Whether the scheduled and the bare POST /api/scrape runs fetch it.')

export const MAX_URL_LENGTH = 2048

export const newSourceBody = {
  name,
  url: stringField(
    'The RSS or Atom feed: an http or https URL, on the public internet (unless SCRAPE_ALLOW_PRIVATE=on).',
    { max: MAX_URL_LENGTH, example: 'https://www.nature.com/nataging.rss' },
  ),
  enabled: optional(enabled),
  tags: optional(tags),
}

export const sourcePatchBody = { name: optional(name), enabled: optional(enabled), tags: optional(tags) }

export const SourceItem = t.Object({
  id: Integer({ minimum: 1 }),
  name: t.String(),
  url: t.String({ format: 'uri' }),
  enabled: t.Boolean(),
  tags: t.Array(t.String()),
  created_at: DateTime,
  last_fetched_at: Nullable(DateTime),
  last_success_at: Nullable(DateTime),
  last_status: Enum(['never', 'ok', 'failed'] as const),
  last_error: Nullable(t.String()),
  consecutive_failures: Integer({ minimum: 0 }),
  article_count: Integer({ minimum: 0 }),
})

export const SourceAnswer = t.Object({ data: SourceItem })
export const SourceList = t.Object({ data: t.Array(SourceItem) })
export const DeletedSource = t.Object({
  data: t.Object({ id: Integer({ minimum: 1 }), deleted: t.Literal(true), deleted_articles: Integer({ minimum: 0 }) }),
})
