/**
 * The CSV columns (src/csv/columns.ts) against the served OpenAPI document: each table is exactly
 * the flattening of its item's schema (every scalar field, nested objects as dotted names, in field
 * order), and each CSV list documents text/csv with those columns and the Link header.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { CSV_COLUMNS, type CsvTable } from '../../../src/csv/columns'
import { CSV_LISTS } from '../../../src/modules/v1/openapi/csv'
import { req, useTestApp } from '../../support/app'

const api = useTestApp()
let doc: any // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  doc = await (await api.app.handle(req('/api/v1/openapi.json'))).json()
})

/** Dotted leaf paths of a schema: objects with properties are walked into (through $ref and nullable unions). */
function flatten(schema: any, prefix = ''): string[] {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const resolve = (node: any): any => (node?.$ref ? resolve(doc.components.schemas[node.$ref.split('/').pop()]) : node)
  const node = resolve(schema)
  const object = node.properties ? node : node.anyOf?.map(resolve).find((s: { properties?: object }) => s.properties)
  if (!object) return [prefix.slice(0, -1)]
  return Object.entries(object.properties).flatMap(([name, child]) => flatten(child, `${prefix}${name}.`))
}

describe('CSV columns', () => {
  test.each(Object.keys(CSV_LISTS) as CsvTable[])('%s: the flattened fields of its item schema, in order', (table) => {
    expect([...CSV_COLUMNS[table]]).toEqual(flatten({ $ref: `#/components/schemas/${CSV_LISTS[table].item}` }))
  })

  const tables = Object.keys(CSV_LISTS) as CsvTable[]
  test.each(tables)('%s: text/csv is documented with every column and the Link header', (table) => {
    const ok = doc.paths[CSV_LISTS[table].path].get.responses['200']
    const description: string = ok.content['text/csv'].schema.description
    for (const column of CSV_COLUMNS[table]) expect(description).toContain(` ${column} (`)
    expect(ok.headers.Link).toEqual({ $ref: '#/components/headers/Link' })
    expect(ok.content['application/json']).toBeDefined()
    const format = doc.paths[CSV_LISTS[table].path].get.parameters.find((p: { name: string }) => p.name === 'format')
    expect(format.schema.enum).toEqual(['json', 'csv'])
  })

  test('the document stays valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
  })
})
