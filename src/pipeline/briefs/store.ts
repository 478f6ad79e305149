/** Stored briefs: insert, list newest first (by id), read one. */
import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { briefs } from '../../db/schema'

export type BriefRow = typeof briefs.$inferSelect
export type NewBrief = typeof briefs.$inferInsert

export async function insertBrief(db: Db, brief: NewBrief): Promise<BriefRow> {
  const [row] = await db.insert(briefs).values(brief).returning()
  return row!
}

export async function getBrief(db: Db, id: number): Promise<BriefRow | null> {
  const [row] = await db.select().from(briefs).where(eq(briefs.id, id))
  return row ?? null
}

/** Up to limit + 1 briefs before id `after`, newest first. */
export async function listBriefs(
  db: Db,
  f: { kinds?: string[] },
  limit: number,
  after: number | null,
): Promise<BriefRow[]> {
  const conditions: SQL[] = []
  if (f.kinds?.length) conditions.push(inArray(briefs.kind, f.kinds))
  if (after !== null) conditions.push(lt(briefs.id, after))
  return db
    .select()
    .from(briefs)
    .where(and(...conditions))
    .orderBy(desc(briefs.id))
    .limit(limit + 1)
}
