/** System prompts and their versions. */
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
