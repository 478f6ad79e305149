/** System prompts and their versions. */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { promptVersions, prompts } from '../db/schema'
import { DEFAULT_PROMPTS } from './defaults'

/** Adds version 1 of every default prompt that is missing; never touches edited prompts. */
export async function ensureDefaultPrompts(db: Db): Promise<number> {
  let added = 0
  for (const prompt of DEFAULT_PROMPTS) {
    await db.transaction(async (tx) => {
      const inserted = await tx.insert(prompts)
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
  const read = () => db.select({ version: prompts.currentVersion, body: promptVersions.body }).from(prompts)
    .innerJoin(promptVersions, and(eq(promptVersions.promptId, prompts.id), eq(promptVersions.version, prompts.currentVersion)))
    .where(eq(prompts.id, id))
  let [row] = await read()
  if (!row) {
    await ensureDefaultPrompts(db)
    ;[row] = await read()
  }
  if (!row) throw new Error(`no prompt "${id}"`)
  return { id, version: row.version, body: row.body }
}
