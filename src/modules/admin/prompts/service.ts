/** The admin view of the system prompts (src/pipeline/prompts/service.ts holds them and their versions). */
import type { Db } from '../../../db/client'
import { notFound } from '../../../http/errors'
import {
  ensureDefaultPrompts,
  findPrompt,
  listPrompts,
  promptHistory,
  updatePrompt,
  type PromptSummary,
} from '../../../pipeline/prompts/service'

const serializePrompt = (p: PromptSummary) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  version: p.version,
  text: p.body,
  updated_at: p.updatedAt.toISOString(),
})

/**
 * Runs `read`; when it finds nothing, adds the default prompts (start-up does, but a database made
 * otherwise may lack them, as the model tasks also allow) and reads again.
 */
async function withDefaults<T>(db: Db, read: () => Promise<T>, found: (value: T) => boolean): Promise<T> {
  const first = await read()
  if (found(first)) return first
  return (await ensureDefaultPrompts(db)) > 0 ? read() : first
}

export const allPrompts = async (db: Db) =>
  (
    await withDefaults(
      db,
      () => listPrompts(db),
      (l) => l.length > 0,
    )
  ).map(serializePrompt)

export async function promptWithHistory(db: Db, id: string) {
  const prompt = await withDefaults(
    db,
    () => findPrompt(db, id),
    (p) => p !== null,
  )
  if (!prompt) throw notFound(`no prompt "${id.slice(0, 100)}"`)
  const versions = await promptHistory(db, id)
  return {
    ...serializePrompt(prompt),
    versions: versions.map((v) => ({
      version: v.version,
      text: v.body,
      created_at: v.createdAt.toISOString(),
      created_by: v.createdBy,
    })),
  }
}

export async function editPrompt(db: Db, id: string, text: string, accountId: number, now: Date) {
  const result = await withDefaults(
    db,
    () => updatePrompt(db, id, text, accountId, now),
    (r) => r !== null,
  )
  if (!result) throw notFound(`no prompt "${id.slice(0, 100)}"`)
  return { ...serializePrompt(result.prompt), changed: result.changed }
}
