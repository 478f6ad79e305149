/**
 * The Meilisearch backend asks Meilisearch what PostgreSQL would be asked: src/search/websearch.ts
 * reads a query as geroscope_tsquery parses it (geroscope_tsquery_parsed, before the readings of
 * other spellings are merged in). Each reading is rebuilt here as a tsquery, operand by operand (&&
 * for AND, || for OR, !! for each minus), and must equal what PostgreSQL makes of the whole query,
 * on PGlite and on PostgreSQL alike. Each operand also carries PostgreSQL's other readings of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { searchableReading } from '../../src/search/syntax'
import { operandQuery, type WebsearchQuery } from '../../src/search/websearch'
import { freshDatabase, type TestDatabase } from '../support/database'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(() => database.close())

function rebuilt(query: WebsearchQuery): SQL {
  const alternatives = query.map((and) =>
    sql.join(
      and.map((o) => {
        let operand = sql`websearch_to_tsquery('geroscope'::regconfig, ${operandQuery(o)})`
        for (let n = 0; n < o.negations; n++) operand = sql`(!! ${operand})`
        return operand
      }),
      sql` && `,
    ),
  )
  return sql.join(
    alternatives.map((a) => sql`(${a})`),
    sql` || `,
  )
}

const postgresReading = async (q: string) =>
  (await database.rows<{ t: string }>(sql`select geroscope_tsquery_parsed(${q})::text as t`))[0].t

describe("the Meilisearch reading of a query is PostgreSQL's", () => {
  test.each([
    'rapamycin mice OR metformin worms',
    'aging rapamycin OR metformin OR worms mice',
    'rapamycin or metformin',
    'rapamycin Or metformin',
    'rapamycin oR metformin',
    '- klotho',
    '-klotho aging',
    'senolytic - cocktail',
    'senolytic<->cocktail',
    'senolytic (-cocktail)',
    '"cell culture"-free',
    'senolytic -"cell culture" OR mice',
    'rapamycin -mice OR metformin',
    'rapamycin OR -mice',
    '--mice rapamycin',
    'mice -- rat',
    'NAD+ OR GLP-1 & | ! :*',
    'rapamycin "or" mice',
    '"rapamycin OR mice"',
    'rapamycin OR the',
    'the OR rapamycin',
    'rapamycin mice OR',
    'OR rapamycin',
    'rapamycin OR OR metformin',
    'mice OR -OR rat',
    'rapamycin | or metformin',
    'rapamycin "mice"or worms',
    'a:b rapamycin',
    'rapamycin!mice',
    'rapamycin OR-mice',
    'rapamycin or(mice)',
    'rapamycin "mice',
    'senolytic -',
    'C. elegans',
    'p16INK4a-positive cells',
    'IL-6 OR IL-1',
    'anti-aging',
    'naïve T cells',
    'oregon orcas ORmice',
    'klotho-',
    'effect of rapamycin on mice',
    'the mice OR "of the"',
    'mice OR ""',
    'x_-y mice',
    'rapamycin OR\tmetformin',
  ])('%s', async (q) => {
    const reading = await searchableReading(database.db, q)
    expect(reading).not.toBeNull()
    const [row] = await database.rows<{ t: string }>(sql`select (${rebuilt(reading!)})::text as t`)
    expect(row.t).toBe(await postgresReading(q))
  })

  // Random mixes of words, stop words and syntax, the same every run: the hand-picked cases above
  // cannot think of everything.
  test('300 generated queries', async () => {
    const parts = [
      'rapamycin',
      'mice',
      'the',
      'or',
      'OR',
      'Or',
      '-',
      '"',
      '(',
      ')',
      '<',
      '>',
      '!',
      '&',
      '|',
      ':',
      '*',
      ',',
      ' ',
      ' ',
      ' ',
      '\t',
      'GLP-1',
      'a-1-2',
      'orx',
      'or-',
      'é',
      '_',
      '+',
      '.',
      '\u00a0',
      '/',
      'tumours',
      'haem',
    ]
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let k = 0; k < 300; k++) {
      const q = Array.from(
        { length: 1 + Math.floor(random() * 8) },
        () => parts[Math.floor(random() * parts.length)],
      ).join('')
      const expected = await postgresReading(q)
      const reading = await searchableReading(database.db, q).catch(() => [])
      const [row] =
        reading && reading.length
          ? await database.rows<{ t: string }>(sql`select (${rebuilt(reading)})::text as t`)
          : [{ t: '' }]
      expect({ q, reading: row.t }).toEqual({ q, reading: expected })
    }
  })

  test('each operand carries the readings PostgreSQL merges into the query', async () => {
    const reading = await searchableReading(database.db, 'Rapamycin "tumours in mice" -haem OR AMPK/mTOR')
    expect(reading).toEqual([
      [
        { text: 'Rapamycin', phrase: false, negations: 0, variants: ['Rapamycin'] },
        {
          text: 'tumours in mice',
          phrase: true,
          negations: 0,
          variants: ['tumours in mice', 'tumors in mice', 'tumours in mouse'],
        },
        { text: 'haem', phrase: false, negations: 1, variants: ['haem', 'heme'] },
      ],
      [{ text: 'AMPK;mTOR', phrase: false, negations: 0, variants: ['AMPK;mTOR'] }],
    ])
    const [row] = await database.rows<{ t: string }>(
      sql`select geroscope_tsquery(${'Rapamycin "tumours in mice" -haem OR AMPK/mTOR'})::text as t`,
    )
    expect(row.t).toBe(
      "'rapamycin' & ( 'tumour' | 'tumor' ) <2> ( 'mice' | 'mous' ) & !( 'haem' | 'heme' ) | 'ampk' <-> 'mtor'",
    )
  })

  test.each(['-', 'OR', '"', '- -', 'the of and', '*', '""', 'or or', '-the'])(
    '%s has no searchable words, for Meilisearch as for PostgreSQL',
    async (q) => {
      expect(await postgresReading(q)).toBe('')
      await expect(searchableReading(database.db, q)).rejects.toThrow('q has no searchable words')
    },
  )
})
