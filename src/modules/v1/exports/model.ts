/** The shapes of /api/v1/exports: one entry per file of the latest complete export. */
import { t } from 'elysia'
import { Enum, Integer } from '../model'
import { EXPORT_RESOURCES } from '../../../pipeline/exports/resources'

export const ExportFile = t.Object({
  resource: Enum(EXPORT_RESOURCES),
  file: t.String({ description: 'The file name, as in url' }),
  content_type: t.Literal('application/x-ndjson'),
  content_encoding: t.Literal('gzip'),
  count: Integer({ minimum: 0, description: 'Items in the file, one JSON object per line' }),
  bytes: Integer({ minimum: 0, description: 'Size of the .gz file' }),
  sha256: t.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the .gz file, hex' }),
  generated_at: t.String({
    format: 'date-time',
    description: 'The moment the export read the database: every file of one export describes this moment',
  }),
  url: t.String({ format: 'uri' }),
  csv: t.Union([
    t.Object(
      {
        file: t.String({ description: 'The file name, as in url' }),
        content_type: t.Literal('text/csv'),
        content_encoding: t.Literal('gzip'),
        bytes: Integer({ minimum: 0, description: 'Size of the .gz file' }),
        sha256: t.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the .gz file, hex' }),
        url: t.String({ format: 'uri' }),
      },
      {
        description:
          'The same items as gzip-compressed CSV: a header line, then one row per item in the columns of the ' +
          "list endpoint's format=csv answer",
      },
    ),
    t.Null(),
  ]),
})
