/**
 * Brings a database's entities in line with the lexicon it runs with, once per lexicon version (run
 * after the migrations by every process that opens the database, and by `cli lexicon apply`):
 * 1. re-keys entities still under a former key (generated/former-keys.json: HGNC:3942 is now
 *    NCBIGene:2475, fisetin is PUBCHEM.COMPOUND:5281614). When the new key has no row yet the row is
 *    renamed; when it has one, the two are merged: paper roles move over (a role the new row already
 *    has for that paper is kept once), claims point to the new row, the old row goes;
 * 2. merges entities keyed by a name a model produced ("sirt1") into the lexicon entry of the same
 *    type that name now resolves to;
 * 3. refreshes every known entity's name, ids and aliases from the lexicon.
 * Everything runs in one transaction under an advisory lock, so a crash leaves the old state and two
 * processes starting together do the work once. Nothing is lost: every paper role and every claim
 * reference survives on the entity it now belongs to (test/lexicon/apply.test.ts).
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Database, type Db } from '../db/client'
import { entityAliases } from './aliases'
import formerKeys from './generated/former-keys.json' with { type: 'json' }
import { LEXICON_VERSION, ENTITY_TYPES, entryByKey } from './lexicon'

export type ApplyResult = { version: string; applied: boolean; renamed: number; merged: number; refreshed: number }

const STATE = 'lexicon'
/** Bump when the way entities are brought in line changes (aliases, ids), so every database redoes it once. */
const RULES = 1
const stable = (o: Record<string, string>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)))

/** Moves every reference from entity `from` to entity `to` and deletes `from`. */
async function mergeEntity(tx: Db, from: number, to: number) {
  await tx.execute(sql`
    insert into paper_entities (paper_id, entity_id, role, detail, indexed_date)
    select paper_id, ${to}, role, detail, indexed_date from paper_entities where entity_id = ${from}
    on conflict (paper_id, entity_id, role) do nothing`)
  await tx.execute(sql`delete from paper_entities where entity_id = ${from}`)
  await tx.execute(sql`update claims set subject_entity_id = ${to} where subject_entity_id = ${from}`)
  await tx.execute(sql`update claims set object_entity_id = ${to} where object_entity_id = ${from}`)
  await tx.execute(sql`delete from entities where id = ${from}`)
}

type Row = { id: number; type: string; key: string; name: string }

async function findEntity(tx: Db, type: string, key: string): Promise<Row | undefined> {
  const [row] = await executeRows<Row>(
    tx,
    sql`select id, type, key, name from entities where type = ${type} and key = ${key}`,
  )
  return row
}

/** Moves entity `row` to `key`: a rename when nothing holds that key yet, else a merge into the holder. */
async function moveTo(tx: Db, row: Row, key: string): Promise<'renamed' | 'merged'> {
  const target = await findEntity(tx, row.type, key)
  if (!target) {
    await tx.execute(sql`update entities set key = ${key} where id = ${row.id}`)
    return 'renamed'
  }
  await mergeEntity(tx, row.id, target.id)
  return 'merged'
}

/**
 * Applies the lexicon when the database has not seen this version; `force` applies it anyway.
 * `resolveName` maps an unknown entity's name to a lexicon key of the same type (the matcher's
 * lookupTerm in production; injected so this module does not load the matcher for nothing).
 */
export async function applyLexicon(
  database: Database,
  resolveName: (type: string, name: string) => string | undefined,
  force = false,
): Promise<ApplyResult> {
  const result: ApplyResult = {
    version: `${LEXICON_VERSION}.${RULES}`,
    applied: false,
    renamed: 0,
    merged: 0,
    refreshed: 0,
  }
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x6765}, hashtext(${STATE}))`)
    const [state] = await executeRows<{ state: { version?: string } }>(
      tx,
      sql`select state from job_state where name = ${STATE}`,
    )
    if (!force && state?.state.version === result.version) return result
    result.applied = true

    // 1. Former keys, in file order (a key that changed twice follows its chain).
    const stale = await executeRows<Row>(
      tx,
      sql`
      select e.id, e.type, e.key, e.name from entities e
      join json_to_recordset(${JSON.stringify(formerKeys)}::json) as f(type text, "from" text) on f.type = e.type and
        f."from" = e.key`,
    )
    const staleByKey = new Map(stale.map((r) => [`${r.type}:${r.key}`, r]))
    for (const f of formerKeys) {
      const row = staleByKey.get(`${f.type}:${f.from}`)
      if (row) result[(await moveTo(tx, row, f.to)) === 'renamed' ? 'renamed' : 'merged']++
    }

    // 2. Entities of lexicon types under keys the lexicon does not have: resolve them by name.
    const types = ENTITY_TYPES as readonly string[]
    const rows = await executeRows<Row>(
      tx,
      sql`select id, type, key, name from entities where type = any(${sql.param([...types])}::text[]) order by id`,
    )
    for (const row of rows) {
      if (entryByKey(row.type, row.key)) continue
      const key = resolveName(row.type, row.name)
      if (key && key !== row.key) result[(await moveTo(tx, row, key)) === 'renamed' ? 'renamed' : 'merged']++
    }

    // 3. Names, ids and aliases of every entity, from the lexicon (the others answer to their own name and key).
    const current = await executeRows<Row & { ids: Record<string, string>; aliases: string[] }>(
      tx,
      sql`select id, type, key, name, ids, aliases from entities order by id`,
    )
    const updates = current.flatMap((r) => {
      const entry = types.includes(r.type) ? entryByKey(r.type, r.key) : undefined
      const name = entry?.name ?? r.name
      const ids = (entry?.ids as Record<string, string> | undefined) ?? r.ids
      const aliases = entityAliases(r.type, r.key, name)
      const same =
        name === r.name && stable(ids) === stable(r.ids) && aliases.join('\u0000') === (r.aliases ?? []).join('\u0000')
      return same ? [] : [{ id: r.id, name, ids, aliases }]
    })
    for (let i = 0; i < updates.length; i += 1000) {
      await tx.execute(sql`
        update entities e set name = v.name, ids = v.ids, aliases = array(select jsonb_array_elements_text(v.aliases))
        from jsonb_to_recordset(${JSON.stringify(updates.slice(i, i + 1000))}::jsonb) as v(id int, name text, ids jsonb,
          aliases jsonb)
        where e.id = v.id`)
    }
    result.refreshed = updates.length

    await tx.execute(sql`
      insert into job_state (name, state, updated_at) values (${STATE},
        ${JSON.stringify({ version: result.version })}::jsonb, now())
      on conflict (name) do update set state = excluded.state, updated_at = now()`)
    return result
  })
}
