/**
 * Loads a synthetic corpus: creates the entities it refers to (the whole lexicon and the MeSH
 * vocabulary), streams the papers with their stories, entities and claims in chunks (COPY on
 * PostgreSQL, multi-row inserts on PGlite), then analyzes the tables and recounts
 * entities.paper_count in one statement.
 *
 * Safe to run against a database that already holds papers: entities are upserted by (type, key),
 * and paper ids never collide with real ones or with a corpus of another seed (see corpus.ts).
 * Each chunk commits whole (a paper with its story, entities and claims), so a failed or killed
 * load leaves complete papers only; loading the same corpus again adds just the papers missing,
 * and a corpus already complete is reported as such.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { entities } from '../db/schema'
import { entityAliases } from '../lexicon/aliases'
import { curatedLexicon as lexicon } from '../lexicon/lexicon'
import { generatePaper, validateOptions, type CorpusOptions, type PaperBundle } from './corpus'
import type { EntityIds } from './copy-format'
import { insertBundles } from './load-pglite'
import { copyBundles, type RowCounts } from './load-postgres'
import { MESH_VOCABULARY } from './mesh'
import { meshKey } from '../lexicon/mesh-key'
import { compactFacetCounts } from '../queries/facet-counts'

/** What this load added, the entities the corpus refers to, and its papers that were there before. */
export type CorpusCounts = RowCounts & { entities: number; alreadyLoaded: number }
export type LoadProgress = { papers: number; total: number | null; elapsedMs: number }
export type OnProgress = (progress: LoadProgress) => void
/** The steps of loadCorpus around the papers, each reported once done with the time it took. */
export type LoadStep = 'entities' | 'papers' | 'statistics'
export type OnStep = (step: LoadStep, elapsedMs: number) => void
/** chunk: papers per COPY or transaction (default 10,000 on PostgreSQL, 500 on PGlite). */
export type LoadOptions = { chunk?: number; total?: number; onProgress?: OnProgress }

/** Entity ids by type and key, for the entities a corpus can refer to. */
export type EntityIndex = { size: number; id: EntityIds }

/** Every entity the generator can reference, in a fixed order (so a fresh database numbers them alike). */
function corpusEntities() {
  return [
    ...lexicon.map((e) => ({
      type: e.type,
      key: e.key,
      name: e.name,
      ids: e.ids as Record<string, string>,
      aliases: entityAliases(e.type, e.key, e.name),
    })),
    ...MESH_VOCABULARY.map((descriptor) => ({
      type: 'mesh',
      key: meshKey(descriptor),
      name: descriptor,
      ids: {},
      aliases: entityAliases('mesh', meshKey(descriptor), descriptor),
    })),
  ]
}

/** Creates missing entities (existing ones are left as they are) and returns their ids. */
export async function ensureEntities(database: Database): Promise<EntityIndex> {
  const wanted = corpusEntities()
  for (let i = 0; i < wanted.length; i += 1000) {
    await database.db
      .insert(entities)
      .values(wanted.slice(i, i + 1000))
      .onConflictDoNothing({ target: [entities.type, entities.key] })
  }
  const pairs = JSON.stringify(wanted.map((e) => ({ type: e.type, key: e.key })))
  const rows = await database.rows<{ id: number; type: string; key: string }>(sql`
    select e.id, e.type, e.key from entities e
    join json_to_recordset(${pairs}::json) as w(type text, key text) on w.type = e.type and w.key = e.key`)
  const byKey = new Map(rows.map((r) => [`${r.type}\u0001${r.key}`, Number(r.id)]))
  for (const e of wanted) {
    if (!byKey.has(`${e.type}\u0001${e.key}`)) throw new Error(`entity ${e.type}:${e.key} was not created`)
  }
  return {
    size: wanted.length,
    id: (type, key) => {
      const id = byKey.get(`${type}\u0001${key}`)
      if (id === undefined) throw new Error(`bulk load: unknown entity ${type}:${key}`)
      return id
    },
  }
}

const CHILD_TABLES = ['stories', 'paper_entities', 'claims']

/**
 * Foreign-key checks are most of the cost of loading the child tables (two or three per row). They
 * can be skipped with `SET LOCAL session_replication_role = replica` when the role may set it
 * (superuser) and no user-defined trigger on those tables would be skipped with them (triggers
 * enabled ALWAYS, such as those keeping the facet counts, fire under replica as well). The loader
 * guarantees the references by construction: every entity exists before the first paper, and a
 * paper is committed (or inserted earlier in the same transaction) before its children. Being
 * LOCAL, the setting ends with each transaction, so no pooled connection keeps it.
 */
export async function canSkipTriggers(database: Database): Promise<boolean> {
  const tables = sql.join(
    CHILD_TABLES.map((t) => sql`${t}::regclass`),
    sql`, `,
  )
  const [row] = await database.rows<{ n: number }>(
    // Triggers enabled ALWAYS (the precomputed counts, drizzle/0016 and 0019) fire under replica too, so they do not
    // stand in the way.
    sql`select count(*)::int as n from pg_trigger where tgrelid in (${tables}) and not tgisinternal and tgenabled <>
      'A'`,
  )
  if (Number(row!.n) > 0) return false
  try {
    await database.db.transaction((tx) => tx.execute(sql`set local session_replication_role = replica`))
    return true
  } catch {
    return false // not allowed to change it
  }
}

/** Writes bundles with the driver's fastest path; the entities they name must exist already. */
export async function loadBundles(
  database: Database,
  bundles: Iterable<PaperBundle>,
  index: EntityIndex,
  options: LoadOptions = {},
): Promise<RowCounts> {
  const started = performance.now()
  let done = 0
  const onChunk = (papers: number) => {
    done += papers
    options.onProgress?.({ papers: done, total: options.total ?? null, elapsedMs: performance.now() - started })
  }
  const skip = await canSkipTriggers(database)
  const counts = database.pg
    ? await copyBundles(database.pg, bundles, index.id, options.chunk ?? 10_000, skip, onChunk)
    : await insertBundles(database.db, bundles, index.id, options.chunk ?? 500, skip, onChunk)
  await compactFacetCounts(database)
  return counts
}

const PAPER_COUNTS = `
  update entities e set paper_count = c.n
  from (select entity_id, count(distinct paper_id)::int as n from paper_entities group by entity_id) c
  where e.id = c.entity_id and e.paper_count <> c.n`

/**
 * entities.paper_count = distinct papers per entity, recomputed for every entity that has any.
 * The whole of paper_entities is read anyway, so on PostgreSQL a sequential scan and an in-memory
 * sort beat walking the entity index, which fetches every heap row in random order (29 s against
 * 10 s at 8 million rows).
 */
export async function refreshPaperCounts(database: Database): Promise<void> {
  if (!database.pg) {
    await database.db.execute(sql.raw(PAPER_COUNTS))
    return
  }
  await database.pg.begin(async (tx) => {
    await tx.unsafe(`set local work_mem = '256MB'`)
    await tx.unsafe(`set local enable_indexscan = off`)
    await tx.unsafe(`set local enable_indexonlyscan = off`)
    await tx.unsafe(`set local enable_bitmapscan = off`)
    await tx.unsafe(PAPER_COUNTS)
  })
}

/**
 * What autovacuum would do after a while, done at once because a bulk load outruns it: planner
 * statistics, and a visibility map so index-only scans (the search walk, the counts) need not visit
 * the table. PGlite is skipped: it would be a sixth of the demo load, and plans over a few thousand
 * rows are fast anyway.
 */
async function vacuumAnalyze(database: Database): Promise<void> {
  if (!database.pg) return
  for (const table of ['papers', 'stories', 'paper_entities', 'claims', 'entities'])
    await database.pg.unsafe(`vacuum (analyze) ${table}`)
}

/** Where the numbers of a seed's paper ids start: paper k is number base + 2k or base + 2k + 1 (corpus.ts). */
const idBase = (seed: number) => 1_000_000_000 + (seed % 900) * 10_000_000

/**
 * The indexes of the corpus's papers already in the database. Each is checked against the paper the
 * generator makes for it, because two seeds equal modulo 900 share ids: loading one over the other
 * must be refused, not taken for a resume.
 */
async function loadedPapers(database: Database, o: Required<CorpusOptions>): Promise<Set<number>> {
  const base = idBase(o.seed)
  const end = base + 2 * o.papers
  // Ids of this form are 14 characters, so the text range walks the primary key in number order;
  // ':' sorts after '9' for a range ending at 10^10. The length check keeps shorter real ids out.
  const [from, to] = [String(base), end < 10_000_000_000 ? String(end) : ':']
  const rows = await database.rows<{ id: string }>(sql`
    select id from papers
    where length(id) = 14 and ((id >= ${`MED-${from}`} and id < ${`MED-${to}`}) or (id >= ${`PPR-${from}`} and id <
      ${`PPR-${to}`}))`)
  const loaded = new Set<number>()
  let sample: { id: string; index: number } | null = null
  for (const { id } of rows) {
    const offset = Number(id.slice(4)) - base
    if (!(offset >= 0 && offset < 2 * o.papers)) continue
    loaded.add(Math.floor(offset / 2))
    sample ??= { id, index: Math.floor(offset / 2) }
  }
  if (sample) {
    const expected = generatePaper(sample.index, o).paper
    const [stored] = await database.rows<{ title: string }>(sql`select title from papers where id = ${sample.id}`)
    if (expected.id !== sample.id || expected.title !== stored?.title) {
      throw new Error(
        `paper ${sample.id} is in the database but is not part of the corpus of seed ${o.seed}: ` +
          'seeds equal modulo 900 share paper ids, so choose another --seed',
      )
    }
  }
  return loaded
}

function* missingBundles(o: Required<CorpusOptions>, loaded: Set<number>): Generator<PaperBundle> {
  for (let index = 0; index < o.papers; index++) if (!loaded.has(index)) yield generatePaper(index, o)
}

/**
 * onProgress follows the papers chunk by chunk; onStep says when each step (entities, papers, then the
 * statistics: planner statistics and entities.paper_count) is done and how long it took.
 */
export async function loadCorpus(
  database: Database,
  options: CorpusOptions & { chunk?: number },
  onProgress?: OnProgress,
  onStep?: OnStep,
): Promise<CorpusCounts> {
  const o = validateOptions(options)
  let mark = performance.now()
  const done = (step: LoadStep) => {
    const now = performance.now()
    onStep?.(step, now - mark)
    mark = now
  }
  const index = await ensureEntities(database)
  done('entities')
  const loaded = await loadedPapers(database, o)
  if (loaded.size === o.papers)
    return {
      papers: 0,
      stories: 0,
      heldStories: 0,
      paperEntities: 0,
      claims: 0,
      entities: index.size,
      alreadyLoaded: loaded.size,
    }
  const counts = await loadBundles(database, missingBundles(o, loaded), index, {
    chunk: options.chunk,
    total: o.papers - loaded.size,
    onProgress,
  })
  done('papers')
  await vacuumAnalyze(database)
  await refreshPaperCounts(database)
  done('statistics')
  return { ...counts, entities: index.size, alreadyLoaded: loaded.size }
}
