import { openDatabase } from './src/db/client'
import { PostgresSearch } from './src/search/postgres'
import { sql } from 'drizzle-orm'
const d = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/geroscope_bench_seed', max: 1 })
const s = new PostgresSearch(d.db)
const built = s.query({ q: process.argv[2], filters: { minRelevance: 2 }, limit: 25, after: null }).toSQL()
const rows = await d.pg!.unsafe(`explain (analyze, buffers) ${built.sql}`, built.params as any[])
for (const r of rows) console.log(r['QUERY PLAN'])
await d.close()
