/** Hand-made rows for contract tests: every field explicit, so expectations can be exact. */
import { accounts, apiKeys, claims, entities, paperEntities, papers, stories } from '../../src/db/schema'
import type { Db } from '../../src/db/client'
import { generateApiKey, hashSecret } from '../../src/accounts/key-format'

type NewPaper = typeof papers.$inferInsert

let serial = 0

export function paperRow(overrides: Partial<NewPaper> = {}): NewPaper {
  const n = ++serial
  return {
    id: `MED-${40000000 + n}`,
    source: 'MED',
    doi: `10.1000/test.${n}`,
    title: `Test paper ${n} on rapamycin and lifespan`,
    authors: 'Smith A, Jones B, Lee C, et al.',
    journal: 'Aging Cell',
    publishedDate: '2026-10-01',
    indexedDate: '2026-10-02',
    preprint: false,
    publicationTypes: ['Journal Article'],
    url: `https://doi.org/10.1000/test.${n}`,
    abstract: `Rapamycin extended median lifespan by 12% in male mice (paper ${n}).`,
    abstractLicense: 'cc by',
    relevance: 2.6,
    relevanceConfidence: 0.9,
    newsworthiness: 1,
    studyType: 'animal',
    studyTypeConfidence: 0.95,
    topic: 'mtor-rapamycin',
    topicConfidence: 0.8,
    promotional: 0.02,
    judgementModel: 'geroscope-builtin-1',
    judgementPromptVersion: 'judge-v1',
    judgedAt: new Date('2026-10-02T06:00:00Z'),
    extractedAt: new Date('2026-10-02T06:05:00Z'),
    ...overrides,
  }
}

export async function insertPapers(db: Db, rows: NewPaper[]) {
  if (rows.length) await db.insert(papers).values(rows)
  return rows
}

export async function insertStory(db: Db, paperId: string, overrides: Partial<typeof stories.$inferInsert> = {}) {
  const row = {
    paperId,
    headline: `Headline for ${paperId}`,
    dek: 'One sentence that says what was found.',
    body: 'First paragraph.\n\nSecond paragraph.',
    whyItMatters: 'It matters because aging is universal.',
    caveats: 'Animal study in mice.',
    support: 3,
    model: 'geroscope-builtin-1',
    publishedAt: new Date('2026-10-03T08:00:00Z'),
    ...overrides,
  }
  await db.insert(stories).values(row)
  return row
}

export async function insertEntity(db: Db, type: string, key: string, name: string, ids: Record<string, string> = {}) {
  const [row] = await db.insert(entities).values({ type, key, name, ids }).returning()
  return row
}

export async function linkEntity(
  db: Db,
  paperId: string,
  indexedDate: string,
  entityId: number,
  role: string,
  detail: Record<string, unknown> | null = null,
) {
  await db.insert(paperEntities).values({ paperId, entityId, role, detail, indexedDate })
}

export async function insertClaim(db: Db, values: Partial<typeof claims.$inferInsert> & { paperId: string }) {
  const [row] = await db
    .insert(claims)
    .values({
      subjectText: 'rapamycin',
      relation: 'extends_lifespan',
      objectText: 'lifespan',
      organism: 'Mus musculus',
      direction: 'increase',
      magnitude: '12%',
      evidence: 'Rapamycin extended median lifespan by 12% in male mice.',
      confidence: 0.8,
      createdAt: new Date('2026-10-02T06:05:00Z'),
      ...values,
    })
    .returning()
  return row
}

let accountSerial = 0

/** An account with one key; returns the plain key. */
export async function createTestKey(
  db: Db,
  options: {
    tier?: 'member' | 'pro'
    membership?: 'active' | 'lapsed'
    role?: 'admin' | 'member'
    revoked?: boolean
    accountId?: number // another key of this account, instead of a new account
  } = {},
) {
  const account =
    options.accountId !== undefined
      ? { id: options.accountId }
      : (
          await db
            .insert(accounts)
            .values({
              username: `user-${process.pid}-${++accountSerial}`,
              passwordHash: '!',
              role: options.role ?? 'member',
              membership: options.membership ?? 'active',
            })
            .returning()
        )[0]
  const { id, secret, key } = generateApiKey()
  await db.insert(apiKeys).values({
    id,
    accountId: account.id,
    tier: options.tier ?? 'pro',
    secretHash: hashSecret(secret),
    revokedAt: options.revoked ? new Date() : null,
  })
  return { key, keyId: id, accountId: account.id }
}

export const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
