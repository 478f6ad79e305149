/** System prompts and their versions. */
import { and, asc, desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts, promptVersions, prompts } from '../../db/schema'
import { DEFAULT_PROMPTS } from './defaults'

/** Adds version 1 of every default prompt that is missing; never touches edited prompts. */
export async function ensureDefaultPrompts(db: Db): Promise<number> {
  let added = 0
  for (const prompt of DEFAULT_PROMPTS) {
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(prompts)
        .values({ id: prompt.id, name: prompt.name, description: prompt.description, currentVersion: 1 })
        .onConflictDoNothing()
        .returning({ id: prompts.id })
      if (inserted.length === 0) return
      await tx.insert(promptVersions).values({ promptId: prompt.id, version: 1, body: prompt.body })
      added++
    })
  }
  return added
}

export type CurrentPrompt = { id: string; version: number; body: string }

/** The current version of a prompt, adding the defaults first if the table has not been seeded. */
export async function currentPrompt(db: Db, id: string): Promise<CurrentPrompt> {
  const read = () =>
    db
      .select({ version: prompts.currentVersion, body: promptVersions.body })
      .from(prompts)
      .innerJoin(
        promptVersions,
        and(eq(promptVersions.promptId, prompts.id), eq(promptVersions.version, prompts.currentVersion)),
      )
      .where(eq(prompts.id, id))
  let [row] = await read()
  if (!row) {
    await ensureDefaultPrompts(db)
    ;[row] = await read()
  }
  if (!row) throw new Error(`no prompt "${id}"`)
  return { id, version: row.version, body: row.body }
}

export type PromptSummary = {
  id: string
  name: string
  description: string
  version: number
  body: string
  updatedAt: Date
}
export type PromptVersion = {
  version: number
  body: string
  createdAt: Date
  createdBy: { id: number; username: string } | null
}

const summaryColumns = {
  id: prompts.id,
  name: prompts.name,
  description: prompts.description,
  version: prompts.currentVersion,
  body: promptVersions.body,
  updatedAt: prompts.updatedAt,
}
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

const currentVersionOf = and(
  eq(promptVersions.promptId, prompts.id),
  eq(promptVersions.version, prompts.currentVersion),
)

/** Every prompt at its current version, in id order. */
export async function listPrompts(db: Db): Promise<PromptSummary[]> {
  return db.select(summaryColumns).from(prompts).innerJoin(promptVersions, currentVersionOf).orderBy(asc(prompts.id))
}

export async function findPrompt(db: Db | Tx, id: string): Promise<PromptSummary | null> {
  const [row] = await db
    .select(summaryColumns)
    .from(prompts)
    .innerJoin(promptVersions, currentVersionOf)
    .where(eq(prompts.id, id))
  return row ?? null
}

/** Every version of a prompt, newest first, with who wrote it (null: the default, or a deleted account). */
export async function promptHistory(db: Db, id: string): Promise<PromptVersion[]> {
  const rows = await db
    .select({
      version: promptVersions.version,
      body: promptVersions.body,
      createdAt: promptVersions.createdAt,
      accountId: accounts.id,
      username: accounts.username,
    })
    .from(promptVersions)
    .leftJoin(accounts, eq(accounts.id, promptVersions.createdBy))
    .where(eq(promptVersions.promptId, id))
    .orderBy(desc(promptVersions.version))
  return rows.map(({ accountId, username, ...v }) => ({
    ...v,
    createdBy: accountId === null ? null : { id: accountId, username: username! },
  }))
}

/**
 * Makes `body` the prompt's next version, keeping the old ones; the next model call reads it (the
 * model tasks read the current version on every call). The same text as the current version adds
 * nothing. Null when there is no such prompt. Concurrent updates queue on the prompt's row.
 */
export async function updatePrompt(
  db: Db,
  id: string,
  body: string,
  accountId: number,
  now: Date,
): Promise<{ prompt: PromptSummary; changed: boolean } | null> {
  return db.transaction(async (tx) => {
    // Lock the prompt's row alone, then read its current text in a statement of its own. Locked
    // through the join, an edit that waited for another re-checked the join against the version
    // rows it saw before waiting, missed the one just written and answered 404;
    // this way concurrent edits queue and each becomes the next version.
    const [locked] = await tx
      .select({ version: prompts.currentVersion })
      .from(prompts)
      .where(eq(prompts.id, id))
      .for('update')
    if (!locked) return null
    const [current] = await tx
      .select({ version: prompts.currentVersion, body: promptVersions.body })
      .from(prompts)
      .innerJoin(promptVersions, currentVersionOf)
      .where(eq(prompts.id, id))
    if (!current) return null
    const changed = current.body !== body
    if (changed) {
      const version = current.version + 1
      await tx.insert(promptVersions).values({ promptId: id, version, body, createdBy: accountId, createdAt: now })
      await tx.update(prompts).set({ currentVersion: version, updatedAt: now }).where(eq(prompts.id, id))
    }
    // Read under the lock: the version this edit made, not one a later edit made after it.
    return { prompt: (await findPrompt(tx, id))!, changed }
  })
}
