/**
 * The whole database schema, in one place. Both drivers (PGlite and postgres.js) share it and the
 * migrations that drizzle-kit generates from it into `drizzle/`.
 *
 * Indexes follow the contract's sort orders so every list pages by keyset (never OFFSET):
 * papers (indexed_date desc, id asc), stories (published_at desc, paper_id asc),
 * claims (created_at desc, id desc), entities (paper_count desc, type, key).
 */
import { sql } from 'drizzle-orm'
import {
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  smallint,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
  type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const tstz = (name: string) => timestamp(name, { withTimezone: true })

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

export type MeshHeading = { descriptor: string; major: boolean; qualifiers: string[] }
export type Chemical = { name: string; registry: string | null }

// ---------------------------------------------------------------------------------------------
// Papers, with the current judgement. The judgement lives on the paper row because every list
// filter (relevance, topic, study type) must sit in the same index as the sort key to page fast.
// ---------------------------------------------------------------------------------------------
/** The three confidences of a paper's judgement, in the order the review queue's index takes their least. */
const confidences = (t: {
  relevanceConfidence: AnyPgColumn
  studyTypeConfidence: AnyPgColumn
  topicConfidence: AnyPgColumn
}) => [t.relevanceConfidence, t.studyTypeConfidence, t.topicConfidence]

/** A paper judged by a model (not yet corrected by an editor): the review queue's indexes hold only these. */
const judgedNotByEditor = (t: { judgedAt: AnyPgColumn; relevance: AnyPgColumn; judgementModel: AnyPgColumn }) => {
  const byModel = sql`${t.judgementModel} is distinct from 'editor'`
  return sql`${t.judgedAt} is not null and ${t.relevance} is not null and ${byModel}`
}

export const papers = pgTable(
  'papers',
  {
    id: text('id').primaryKey(), // '<source>-<number>', e.g. MED-39172536, PPR-841231
    source: text('source').notNull(), // MED | PPR
    doi: text('doi'), // lowercase, no resolver prefix
    title: text('title').notNull(),
    authors: text('authors').notNull(), // first three, then "et al."
    journal: text('journal').notNull(), // journal or preprint server
    publishedDate: date('published_date', { mode: 'string' }),
    indexedDate: date('indexed_date', { mode: 'string' }).notNull(), // Europe PMC firstIndexDate
    preprint: boolean('preprint').notNull().default(false),
    publicationTypes: text('publication_types').array().notNull().default(sql`'{}'::text[]`),
    url: text('url').notNull(),
    abstract: text('abstract'), // always stored; served only when the licence allows reuse
    abstractLicense: text('abstract_license'), // lowercase, null = all rights reserved
    meshHeadings: jsonb('mesh_headings').$type<MeshHeading[]>().notNull().default([]),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    chemicals: jsonb('chemicals').$type<Chemical[]>().notNull().default([]),

    relevance: doublePrecision('relevance'), // 0..3; null = not judged yet
    relevanceConfidence: doublePrecision('relevance_confidence'),
    newsworthiness: doublePrecision('newsworthiness'),
    studyType: text('study_type'),
    studyTypeConfidence: doublePrecision('study_type_confidence'),
    topic: text('topic'),
    topicConfidence: doublePrecision('topic_confidence'),
    promotional: doublePrecision('promotional'),
    judgementModel: text('judgement_model'),
    judgementPromptVersion: text('judgement_prompt_version'),
    judgedAt: tstz('judged_at'),

    extractedAt: tstz('extracted_at'), // when entities and claims were extracted; null = not yet
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),

    // Full-text search over title and abstract, as the contract says (functions in drizzle/0001 and
    // the search migrations after it): the title weighs most (A), then the abstract (C). Keywords and
    // MeSH are not matched: a reader could not see why such a hit matched. Generated, so every writer
    // keeps them.
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(sql`setweight(geroscope_tsvector(title), 'A')
    || setweight(geroscope_tsvector(abstract), 'C')`),
    // The title alone, so title matches are found by index before anything is ranked.
    titleVector: tsvector('title_vector').notNull().generatedAlwaysAs(sql`geroscope_tsvector(title)`),
  },
  (t) => [
    index('papers_indexed_idx').on(t.indexedDate.desc().nullsFirst(), t.id),
    index('papers_search_idx').using('gin', t.searchVector),
    index('papers_title_search_idx').using('gin', t.titleVector),
    // Search ranks a bounded set of candidates taken in this order (src/search/postgres.ts); the
    // title vector rides along so title candidates are found by index-only scan, without the heap.
    // INCLUDE (title_vector): drizzle/0003
    index('papers_relevance_idx').on(t.relevance.desc().nullsLast(), t.indexedDate.desc().nullsFirst(), t.id),
    // Live counts of a relevance range (an off-grain min_relevance's band, src/modules/v1/facets/papers.ts) by
    // index-only scan: every filter column rides along, so no heap page is read. INCLUDE: drizzle/0020.
    index('papers_relevance_facets_idx').on(t.relevance), // INCLUDE (topic, study_type, preprint, indexed_date, id)
    index('papers_topic_indexed_idx').on(t.topic, t.indexedDate.desc().nullsFirst(), t.id),
    index('papers_study_type_indexed_idx').on(t.studyType, t.indexedDate.desc().nullsFirst(), t.id),
    index('papers_preprint_indexed_idx').on(t.preprint, t.indexedDate.desc().nullsFirst(), t.id),
    index('papers_doi_idx').on(t.doi),
    // The other orders of /api/v1/papers (src/resources/papers/paper-order.ts: the expressions must stay as it writes
    // them, or the planner cannot match them): newest published first and most newsworthy first, each then by id.
    index('papers_published_order_idx').on(sql`coalesce(${t.publishedDate}, '-infinity'::date) desc`, t.id),
    index('papers_newsworthiness_order_idx').on(sql`coalesce(${t.newsworthiness}, -1) desc`, t.id),
    // The search score (src/search/score.ts) packs relevance in thousandths; a finer value would
    // order differently there than in papers_relevance_idx. Writers round to hundredths.
    check(
      'papers_relevance_grain',
      sql`${t.relevance} between 0 and 3 and ${t.relevance} = round(${t.relevance}::numeric, 3)::float8`,
    ),
    // The review queue (src/pipeline/judgements/queue.ts): judgements an editor has not corrected, by their lowest
    // confidence, so the least certain are read first from the index instead of sorting every judged
    // paper; and the stable audit sample in id order. The expressions must stay as the queue writes them, or the
    // planner cannot match them (drizzle/0025). Written in parts to keep lines short; drizzle-kit renders them as one
    // text, the text of the migration (a line break inside would read as a change of index to drizzle-kit).
    index('papers_review_queue_idx')
      .on(
        sql`least(${sql.join(
          confidences(t).map((c) => sql`coalesce(${c}, 0)`),
          sql`, `,
        )})`,
        t.id,
      )
      .where(judgedNotByEditor(t)),
    index('papers_review_audit_idx')
      .on(t.id)
      .where(sql`${judgedNotByEditor(t)} and geroscope_review_audit(${t.id})`),
  ],
)

// Every version of a paper's judgement, as written by the analysis (account null) or an editor
// (PUT /api/papers/{id}/judgement, with the editor's note). A paper's version number is its row's
// rank among the paper's rows in id order.
export const judgementVersions = pgTable(
  'judgement_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paperId: text('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    relevance: doublePrecision('relevance').notNull(),
    relevanceConfidence: doublePrecision('relevance_confidence'),
    studyType: text('study_type'),
    studyTypeConfidence: doublePrecision('study_type_confidence'),
    topic: text('topic'),
    topicConfidence: doublePrecision('topic_confidence'),
    newsworthiness: doublePrecision('newsworthiness'),
    model: text('model').notNull(),
    promptVersion: text('prompt_version'),
    judgedAt: tstz('judged_at').notNull(),
    note: text('note'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
  },
  (t) => [index('judgement_versions_paper_idx').on(t.paperId, t.id)],
)

export const stories = pgTable(
  'stories',
  {
    paperId: text('paper_id')
      .primaryKey()
      .references(() => papers.id, { onDelete: 'cascade' }),
    headline: text('headline').notNull(),
    dek: text('dek').notNull(),
    body: text('body').notNull(), // plain-text paragraphs separated by blank lines
    whyItMatters: text('why_it_matters').notNull(),
    caveats: text('caveats').notNull(),
    support: doublePrecision('support'), // 0..3, independent faithfulness check
    model: text('model').notNull(),
    publishedAt: tstz('published_at').notNull(),
  },
  (t) => [index('stories_published_idx').on(t.publishedAt.desc().nullsFirst(), t.paperId)],
)

/**
 * Stories the support check scored 1 or less (they overstate or contradict the abstract or the judgement): kept out
 * of every published view (/api/v1, feeds, the site, exports, search) until a rewrite scores 2 or more, and shown to
 * operators (GET /api/stories/held). A paper has its story in `stories` or here, never in both.
 */
export const heldStories = pgTable(
  'held_stories',
  {
    paperId: text('paper_id')
      .primaryKey()
      .references(() => papers.id, { onDelete: 'cascade' }),
    headline: text('headline').notNull(),
    dek: text('dek').notNull(),
    body: text('body').notNull(),
    whyItMatters: text('why_it_matters').notNull(),
    caveats: text('caveats').notNull(),
    support: doublePrecision('support').notNull(), // 0..1 here: what held it back
    problems: jsonb('problems').$type<string[]>().notNull().default([]), // the check's reasons, for the operator
    model: text('model').notNull(),
    writtenAt: tstz('written_at').notNull(),
  },
  (t) => [index('held_stories_written_idx').on(t.writtenAt.desc().nullsFirst(), t.paperId)],
)

export const upvotes = pgTable(
  'upvotes',
  {
    paperId: text('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.paperId, t.accountId] })],
)

// ---------------------------------------------------------------------------------------------
// Knowledge: entities, their roles in papers, and claims.
// ---------------------------------------------------------------------------------------------
export const entities = pgTable(
  'entities',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    // one scheme per type (NCBIGene:2475, CHEBI:9168, NCBITaxon:10090, GO:0006914), else a slug
    key: text('key').notNull(),
    name: text('name').notNull(),
    ids: jsonb('ids').$type<Record<string, string>>().notNull().default({}),
    // Every name the entity answers to, normalised (src/lexicon/normalize.ts): "p16", "p16ink4a" and "cdkn2a" for
    // CDKN2A, "sirolimus" for rapamycin, "mice" for the mouse. Filled from the lexicon; looked up with @> (GIN).
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    paperCount: integer('paper_count').notNull().default(0), // refreshed every minute, not per request
  },
  (t) => [
    uniqueIndex('entities_type_key_idx').on(t.type, t.key),
    index('entities_aliases_idx').using('gin', t.aliases),
    // Exact look-ups of entities the lexicon does not know (MeSH headings, model-named entities) by name or key.
    index('entities_lower_name_idx').on(sql`lower(${t.name})`),
    index('entities_lower_key_idx').on(sql`lower(${t.key})`),
    index('entities_rank_idx').on(t.paperCount.desc().nullsFirst(), t.type, t.key),
    index('entities_type_rank_idx').on(t.type, t.paperCount.desc().nullsFirst(), t.key),
  ],
)

export const paperEntities = pgTable(
  'paper_entities',
  {
    paperId: text('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    entityId: integer('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    role: text('role').notNull(), // studied, mechanism, outcome, model, context, target, mentioned, indexed
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    // Copy of papers.indexed_date (which never changes) so an entity's papers page by keyset.
    indexedDate: date('indexed_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paperId, t.entityId, t.role] }),
    index('paper_entities_entity_idx').on(t.entityId, t.indexedDate.desc().nullsFirst(), t.paperId),
  ],
)

export const claims = pgTable(
  'claims',
  {
    id: serial('id').primaryKey(),
    paperId: text('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    subjectText: text('subject_text').notNull(),
    subjectEntityId: integer('subject_entity_id').references(() => entities.id, { onDelete: 'set null' }),
    relation: text('relation').notNull(),
    objectText: text('object_text').notNull(),
    objectEntityId: integer('object_entity_id').references(() => entities.id, { onDelete: 'set null' }),
    organism: text('organism'),
    context: jsonb('context').$type<Record<string, unknown>>(),
    direction: text('direction'), // increase | decrease | no_change | mixed
    magnitude: text('magnitude'),
    evidence: text('evidence'), // quote from the abstract; served only when its licence allows
    confidence: doublePrecision('confidence'),
    createdAt: createdAt(),
  },
  (t) => [
    index('claims_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('claims_paper_idx').on(t.paperId),
    // An entity's claims, newest first, without walking every claim for an entity with none or few.
    index('claims_subject_entity_idx').on(t.subjectEntityId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('claims_object_entity_idx').on(t.objectEntityId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('claims_relation_idx').on(t.relation, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // An organism filter's claims, newest first, one walk per (relation, organism) value the counts hold
    // (src/resources/claims/queries.ts): a rare pair no longer walks its whole relation.
    index('claims_relation_organism_idx').on(
      t.relation,
      t.organism,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Substring filters of /claims (subject, object, organism): a rare value's claims from a trigram index rather than
    // a walk of every claim newest first (src/resources/claims/queries.ts). A value naming an entity looks only at the
    // sides no entity was resolved for (a tenth of them): their own, smaller indexes.
    index('claims_subject_text_trgm_idx').using('gin', sql`${t.subjectText} gin_trgm_ops`),
    index('claims_object_text_trgm_idx').using('gin', sql`${t.objectText} gin_trgm_ops`),
    index('claims_unresolved_subject_trgm_idx')
      .using('gin', sql`${t.subjectText} gin_trgm_ops`)
      .where(sql`${t.subjectEntityId} is null`),
    index('claims_unresolved_object_trgm_idx')
      .using('gin', sql`${t.objectText} gin_trgm_ops`)
      .where(sql`${t.objectEntityId} is null`),
    index('claims_organism_trgm_idx').using('gin', sql`${t.organism} gin_trgm_ops`),
    // The unresolved sides newest first, for a page whose value names an entity: its text branch walks these until it
    // has a page of matches, where a walk of every claim read nine rows in ten for nothing (drizzle/0022).
    index('claims_unresolved_subject_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.subjectEntityId} is null`),
    index('claims_unresolved_object_created_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.objectEntityId} is null`),
  ],
)

// ---------------------------------------------------------------------------------------------
// Precomputed counts for count= and group_by=: one row per combination of the list
// filters' values, kept exact and transactional by triggers (drizzle/0016_facet_counts.sql) on
// papers, paper_entities, entities and claims, so every writer is covered. A read sums the rows
// its filters select instead of counting a million papers. relevance_band is floor(relevance * 2)
// (0..6; null = unjudged), so min_relevance at a multiple of 0.5 is answered from these rows.
// Rows whose n falls to 0 stay (readers skip them).
// ---------------------------------------------------------------------------------------------
const paperDims = () => ({
  indexedDate: date('indexed_date', { mode: 'string' }).notNull(),
  topic: text('topic'),
  studyType: text('study_type'),
  preprint: boolean('preprint').notNull(),
  relevanceBand: smallint('relevance_band'),
})

/** Papers by their filter values. */
export const paperFacetCounts = pgTable(
  'paper_facet_counts',
  {
    ...paperDims(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_facet_counts_key')
      .on(t.indexedDate, t.topic, t.studyType, t.preprint, t.relevanceBand)
      .nullsNotDistinct(),
  ],
)

/** Papers by their filter values and organism name (each paper once per name, whatever its roles). */
export const paperOrganismCounts = pgTable(
  'paper_organism_counts',
  {
    ...paperDims(),
    organism: text('organism').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_organism_counts_key')
      .on(t.indexedDate, t.topic, t.studyType, t.preprint, t.relevanceBand, t.organism)
      .nullsNotDistinct(),
  ],
)

/** Papers by their filter values and the relation of a claim they have (each paper once per relation). */
export const paperRelationCounts = pgTable(
  'paper_relation_counts',
  {
    ...paperDims(),
    relation: text('relation').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_relation_counts_key')
      .on(t.indexedDate, t.topic, t.studyType, t.preprint, t.relevanceBand, t.relation)
      .nullsNotDistinct(),
  ],
)

// The same counts by month (indexed_month, the first day), kept from the daily changes by triggers on them:
// a request without dates, or with whole months between its dates, sums a twentieth as many rows.
const monthDims = () => ({
  indexedMonth: date('indexed_month', { mode: 'string' }).notNull(),
  topic: text('topic'),
  studyType: text('study_type'),
  preprint: boolean('preprint').notNull(),
  relevanceBand: smallint('relevance_band'),
})

export const paperFacetCountsMonthly = pgTable(
  'paper_facet_counts_monthly',
  {
    ...monthDims(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_facet_counts_monthly_key')
      .on(t.indexedMonth, t.topic, t.studyType, t.preprint, t.relevanceBand)
      .nullsNotDistinct(),
  ],
)

export const paperOrganismCountsMonthly = pgTable(
  'paper_organism_counts_monthly',
  {
    ...monthDims(),
    organism: text('organism').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_organism_counts_monthly_key')
      .on(t.indexedMonth, t.topic, t.studyType, t.preprint, t.relevanceBand, t.organism)
      .nullsNotDistinct(),
  ],
)

export const paperRelationCountsMonthly = pgTable(
  'paper_relation_counts_monthly',
  {
    ...monthDims(),
    relation: text('relation').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('paper_relation_counts_monthly_key')
      .on(t.indexedMonth, t.topic, t.studyType, t.preprint, t.relevanceBand, t.relation)
      .nullsNotDistinct(),
  ],
)

const claimDims = () => ({
  relation: text('relation').notNull(),
  organism: text('organism'),
  topic: text('topic'),
  studyType: text('study_type'),
  preprint: boolean('preprint').notNull(),
  indexedMonth: date('indexed_month', { mode: 'string' }).notNull(),
})

/** Claims by relation, organism text and their paper's topic, study type, preprint and month (first day). */
export const claimFacetCounts = pgTable(
  'claim_facet_counts',
  {
    ...claimDims(),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('claim_facet_counts_key')
      .on(t.relation, t.organism, t.topic, t.studyType, t.preprint, t.indexedMonth)
      .nullsNotDistinct(),
    // /claims?organism= finds its (relation, organism) values here: a contains match, or for a lexicon organism
    // ("mice") also any of its names (src/resources/claims/queries.ts, organismMatchesText); each side reads its own
    // index.
    index('claim_facet_counts_organism_trgm_idx').using('gin', sql`${t.organism} gin_trgm_ops`),
    index('claim_facet_counts_organism_lower_idx').on(sql`lower(${t.organism})`),
  ],
)

// What writers add to the counts above: every write appends its aggregated change to the `_pending` table
// beside the count (plain inserts, so concurrent writers never wait for one another on a shared count row,
// nor deadlock over two of them), and readers sum both. facet_counts_compact() (drizzle/0019) moves
// pending changes into the counts, one compaction at a time: after every job run (src/jobs/run-job.ts) and
// in the bulk loader after each chunk. A change's own transaction writes it, so counts stay exact.
const pending = <T extends Record<string, PgColumnBuilderBase>>(name: string, columns: T) =>
  pgTable(`${name}_pending`, columns)
export const paperFacetCountsPending = pending('paper_facet_counts', { ...paperDims(), n: integer('n').notNull() })
export const paperOrganismCountsPending = pending('paper_organism_counts', {
  ...paperDims(),
  organism: text('organism').notNull(),
  n: integer('n').notNull(),
})
export const paperRelationCountsPending = pending('paper_relation_counts', {
  ...paperDims(),
  relation: text('relation').notNull(),
  n: integer('n').notNull(),
})
export const paperFacetCountsMonthlyPending = pending('paper_facet_counts_monthly', {
  ...monthDims(),
  n: integer('n').notNull(),
})
export const paperOrganismCountsMonthlyPending = pending('paper_organism_counts_monthly', {
  ...monthDims(),
  organism: text('organism').notNull(),
  n: integer('n').notNull(),
})
export const paperRelationCountsMonthlyPending = pending('paper_relation_counts_monthly', {
  ...monthDims(),
  relation: text('relation').notNull(),
  n: integer('n').notNull(),
})
export const claimFacetCountsPending = pending('claim_facet_counts', { ...claimDims(), n: integer('n').notNull() })

// ---------------------------------------------------------------------------------------------
// Accounts and credentials. Secrets are never stored, only their hashes.
// ---------------------------------------------------------------------------------------------
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(), // slow hash (argon2id / bcrypt)
    role: text('role').notNull(), // admin | member
    membership: text('membership').notNull().default('active'), // active | lapsed
    createdAt: createdAt(),
    // Set while an operator has disabled the account: no login, no session, its API keys refused (src/accounts/).
    disabledAt: tstz('disabled_at'),
  },
  (t) => [uniqueIndex('accounts_username_idx').on(sql`lower(${t.username})`)],
)

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(), // the 8-character public key id inside the key
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tier: text('tier').notNull(), // member | pro
    secretHash: text('secret_hash').notNull(), // sha-256 of the 32-character secret
    label: text('label'),
    createdAt: createdAt(),
    revokedAt: tstz('revoked_at'),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId)],
)

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(), // sha-256 of the cookie's random token
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(), // the absolute end: login time + SESSION_MAX_HOURS
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(), // idle expiry counts from here (SESSION_IDLE_MINUTES)
    // The account's membership when the session last saw it: a member's session that saw it active ends once it lapsed.
    membership: text('membership').notNull().default('active'),
  },
  (t) => [
    index('sessions_account_idx').on(t.accountId),
    index('sessions_expires_idx').on(t.expiresAt), // the hourly purge of ended sessions
  ],
)

/**
 * Failed logins per username as submitted (lower-cased), whether or not an account has it, so the
 * answer never tells which names exist; shared by every instance. The login
 * route keeps it (src/accounts/login-budget.ts).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    username: text('username').primaryKey(), // lower-cased, at most 64 characters (the login body's limit)
    failures: integer('failures').notNull(), // failed logins in a row, counted afresh after an hour without one
    lastFailureAt: tstz('last_failure_at').notNull(),
    lockedUntil: tstz('locked_until'), // no login for this name before then, whatever the password
  },
  (t) => [
    index('login_failures_last_idx').on(t.lastFailureAt), // the hourly purge of old rows
  ],
)

// ---------------------------------------------------------------------------------------------
// Early signals: RSS/Atom sources, their articles, analyses and briefs.
// ---------------------------------------------------------------------------------------------
export const rssSources = pgTable('rss_sources', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  url: text('url').notNull().unique(),
  enabled: boolean('enabled').notNull().default(true),
  etag: text('etag'), // for conditional GET
  lastModified: text('last_modified'),
  lastFetchedAt: tstz('last_fetched_at'),
  lastSuccessAt: tstz('last_success_at'),
  lastError: text('last_error'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  // operator's labels (lowercase slugs), for tag-based briefs
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
})

/**
 * Feed articles. A source never holds the same guid or link twice; another source may: each keeps
 * its own text, so a feed that names a real article's link first cannot put its words under it
 * (src/pipeline/ingest/rss/store.ts). A later source's copy points at the first one (copy_of).
 */
export const articles = pgTable(
  'articles',
  {
    id: serial('id').primaryKey(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => rssSources.id, { onDelete: 'cascade' }),
    guid: text('guid'),
    link: text('link'),
    doi: text('doi'),
    title: text('title').notNull(),
    summary: text('summary'),
    author: text('author'),
    publishedAt: tstz('published_at'),
    fetchedAt: tstz('fetched_at').notNull().defaultNow(),
    paperId: text('paper_id').references(() => papers.id, { onDelete: 'set null' }), // same DOI
    analysedAt: tstz('analysed_at'),
    // The first stored article, from another source, with the same guid, link or DOI; null for a first copy.
    copyOf: integer('copy_of').references((): AnyPgColumn => articles.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Guid (or link) first: the same index finds a source's own item and every source's copies.
    uniqueIndex('articles_guid_source_idx').on(t.guid, t.sourceId).where(sql`${t.guid} is not null`),
    uniqueIndex('articles_link_source_idx').on(t.link, t.sourceId).where(sql`${t.link} is not null`),
    index('articles_copy_of_idx').on(t.copyOf),
    index('articles_doi_idx').on(t.doi),
    index('articles_fetched_idx').on(t.fetchedAt.desc().nullsFirst(), t.id),
  ],
)

export const articleAnalyses = pgTable('article_analyses', {
  articleId: integer('article_id')
    .primaryKey()
    .references(() => articles.id, { onDelete: 'cascade' }),
  summary: text('summary').notNull(),
  keyPoints: jsonb('key_points').$type<string[]>().notNull().default([]),
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  entities: jsonb('entities').$type<unknown[]>().notNull().default([]),
  claims: jsonb('claims').$type<unknown[]>().notNull().default([]),
  model: text('model').notNull(),
  promptVersion: text('prompt_version').notNull(),
  createdAt: createdAt(),
})

/** A statement of a brief and the citations (refs into the brief's citations) it rests on. */
export type BriefStatement = { text: string; citations: string[] }
export type BriefSection = { heading: string; statements: BriefStatement[] }
export type BriefCitation = {
  ref: string
  type: 'paper' | 'article' | 'contradiction'
  paper_id: string | null
  article_id: number | null
  title: string
  source: string
  date: string | null
  url: string | null
  // a contradiction group (type contradiction); absent in briefs stored before they were cited
  contradiction_id?: string | null
}

export const briefs = pgTable(
  'briefs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(), // comprehensive | tag_based
    title: text('title').notNull(),
    content: text('content').notNull(), // plain-text rendering with numbered citations
    summary: jsonb('summary').$type<BriefStatement[]>().notNull().default([]),
    sections: jsonb('sections').$type<BriefSection[]>().notNull().default([]),
    citations: jsonb('citations').$type<BriefCitation[]>().notNull().default([]),
    windowStart: date('window_start', { mode: 'string' }),
    windowEnd: date('window_end', { mode: 'string' }),
    filters: jsonb('filters').$type<Record<string, string[]>>().notNull().default({}), // topics, entities, source_tags
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    paperIds: text('paper_ids').array().notNull().default(sql`'{}'::text[]`), // papers the brief was written from
    articleIds: integer('article_ids').array().notNull().default(sql`'{}'::integer[]`),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    model: text('model').notNull(),
    promptVersion: text('prompt_version'), // brief-v<n> when a model wrote it
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('briefs_created_idx').on(t.createdAt.desc().nullsFirst())],
)

// ---------------------------------------------------------------------------------------------
// Intelligence: contradictions and knowledge gaps, computed from the claims by the intelligence
// job (src/pipeline/intelligence/refresh.ts) and replaced whole at each run; its state row in job_state
// ('intelligence') says when. Ids are stable hashes, so links and cursors survive a refresh.
// ---------------------------------------------------------------------------------------------
export const contradictionGroups = pgTable(
  'contradiction_groups',
  {
    id: text('id').primaryKey(), // 'c' + 16 hex digits of md5(subject_key|object_key)
    subjectKey: text('subject_key').notNull(), // 'type:key' of the resolved entity, else 'text:<normalised text>'
    subjectLabel: text('subject_label').notNull(),
    subjectEntityId: integer('subject_entity_id'),
    objectKey: text('object_key').notNull(),
    objectLabel: text('object_label').notNull(),
    objectEntityId: integer('object_entity_id'),
    score: doublePrecision('score').notNull(), // 0..1, see src/pipeline/intelligence/scoring.ts
    papersIncrease: integer('papers_increase').notNull(),
    papersDecrease: integer('papers_decrease').notNull(),
    claimsIncrease: integer('claims_increase').notNull(),
    claimsDecrease: integer('claims_decrease').notNull(),
    organismKeys: text('organism_keys').array().notNull(),
    organisms: text('organisms').array().notNull(), // display names, in organism_keys order
    topics: text('topics').array().notNull(),
    entityKeys: text('entity_keys').array().notNull(), // the resolved sides, as 'type:key'
    latestDate: date('latest_date', { mode: 'string' }).notNull(), // newest indexed_date among its papers
  },
  (t) => [index('contradiction_groups_rank_idx').on(t.score.desc(), t.id.desc())],
)

/** The best pair of claims for each two comparable condition sets of a group (see refresh.ts). */
export const contradictionPairs = pgTable(
  'contradiction_pairs',
  {
    groupId: text('group_id').notNull(),
    score: doublePrecision('score').notNull(),
    organismKey: text('organism_key').notNull(),
    organism: text('organism').notNull(),
    conditions: jsonb('conditions').$type<Record<string, string>>().notNull(), // what both claims state alike
    increaseClaimId: integer('increase_claim_id').notNull(),
    decreaseClaimId: integer('decrease_claim_id').notNull(),
    increaseWeight: doublePrecision('increase_weight').notNull(),
    decreaseWeight: doublePrecision('decrease_weight').notNull(),
    topics: text('topics').array().notNull(), // of the two papers
    latestDate: date('latest_date', { mode: 'string' }).notNull(), // the newer paper's indexed_date
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.increaseClaimId, t.decreaseClaimId] }),
    index('contradiction_pairs_rank_idx').on(t.groupId, t.score.desc()),
  ],
)

/**
 * Papers per period, oldest first; the last `recent_periods` make up the recent window the gap compares with the rest.
 */
export type GapSeries = {
  period_days: number
  recent_periods: number
  periods: { start: string; end: string; papers: number }[]
}

export const knowledgeGaps = pgTable(
  'knowledge_gaps',
  {
    id: text('id').primaryKey(), // 'g' + 16 hex digits of md5(kind|what)
    // no_human_trial | single_paper | single_organism | declining_attention | disputed_finding
    kind: text('kind').notNull(),
    score: doublePrecision('score').notNull(),
    subjectKey: text('subject_key'),
    subjectLabel: text('subject_label'),
    subjectEntityId: integer('subject_entity_id'),
    objectKey: text('object_key'),
    objectLabel: text('object_label'),
    objectEntityId: integer('object_entity_id'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    paperIds: text('paper_ids').array().notNull(), // the papers cited, best first
    topics: text('topics').array().notNull(),
    entityKeys: text('entity_keys').array().notNull(),
    contradictionId: text('contradiction_id'),
    // declining_attention only: the papers per period the gap was computed from, oldest first
    // (src/pipeline/intelligence/compute-gaps.ts)
    series: jsonb('series').$type<GapSeries>(),
  },
  (t) => [
    index('knowledge_gaps_rank_idx').on(t.score.desc(), t.id.desc()),
    index('knowledge_gaps_kind_rank_idx').on(t.kind, t.score.desc(), t.id.desc()),
  ],
)

// ---------------------------------------------------------------------------------------------
// System prompts, versioned: results record the version that produced them.
// ---------------------------------------------------------------------------------------------
export const prompts = pgTable('prompts', {
  id: text('id').primaryKey(), // judge, story, support, entities, claims, article, brief
  name: text('name').notNull(),
  description: text('description').notNull(),
  currentVersion: integer('current_version').notNull(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
})

export const promptVersions = pgTable(
  'prompt_versions',
  {
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.version] })],
)

// ---------------------------------------------------------------------------------------------
// Operations: rate-limit counters, scheduled job runs and their resumable state, search outbox.
// ---------------------------------------------------------------------------------------------
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    bucket: text('bucket').notNull(), // e.g. account:12 or key:Ab3dE6gH
    windowStart: tstz('window_start').notNull(), // start of the UTC minute or UTC day
    window: text('window').notNull(), // minute | day
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.window, t.windowStart] })],
)

export const jobRuns = pgTable(
  'job_runs',
  {
    id: serial('id').primaryKey(),
    job: text('job').notNull(), // harvest, scrape, analyze, refresh
    startedAt: tstz('started_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
    // running | ok | partial (went on past failures) | failed | cancelled (stopped at an operator's request, at a
    // unit's end)
    outcome: text('outcome').notNull().default('running'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
    // Progress of a job that reports it (scrape: sources, analyze: items, export: resources), written as it goes
    // (src/jobs/run-control.ts); total and unit stay null for jobs that report none.
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    progressUnit: text('progress_unit'),
    // Set by POST /api/jobs/runs/{id}/cancel in any instance; the run reads it at each unit and stops there.
    cancelRequestedAt: tstz('cancel_requested_at'),
    cancelRequestedBy: text('cancel_requested_by'), // the operator's username
  },
  (t) => [index('job_runs_job_idx').on(t.job, t.startedAt.desc().nullsFirst())],
)

export const jobState = pgTable('job_state', {
  name: text('name').primaryKey(), // e.g. europepmc-harvest
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
})

export const searchOutbox = pgTable('search_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  paperId: text('paper_id').notNull(),
  createdAt: createdAt(),
})

// ---------------------------------------------------------------------------------------------
// The change feed (updated_since on /papers, /stories, /claims and GET /api/v1/changes): one row
// per item that ever changed, at the position of its latest change, written by triggers
// (drizzle/0014) so every writer is covered. A deleted item's row stays as a tombstone for
// CHANGE_FEED_RETENTION_DAYS (src/resources/changes/queries.ts). Rows are read in (txid, seq) order and
// only below the snapshot's xmin, so a change committed late is never passed over (see there).
// ---------------------------------------------------------------------------------------------
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' })

export const changeFeed = pgTable(
  'change_feed',
  {
    resource: text('resource').notNull(), // paper | story | claim
    itemId: text('item_id').notNull(), // paper id, story's paper id, claim id as text
    txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`), // the writing transaction
    seq: bigserial('seq', { mode: 'number' }).notNull(), // order within (and tie-break across) transactions
    changedAt: tstz('changed_at').notNull().defaultNow(), // the writing transaction's time
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.resource, t.itemId] }),
    index('change_feed_resource_position_idx').on(t.resource, t.txid, t.seq),
    index('change_feed_position_idx').on(t.txid, t.seq),
    index('change_feed_changed_idx').on(t.changedAt),
  ],
)

// ---------------------------------------------------------------------------------------------
// Papers withdrawn at the source: retracted (MEDLINE's "Retracted Publication", a "RETRACTED:" title)
// or withdrawn ("WITHDRAWN:"). The harvest deletes such a paper with everything derived from it and
// keeps its id here, so a later harvest does not bring it back and the change feed tells mirrors why it
// left (tombstones with reason withdrawn; src/pipeline/ingest/europepmc/store.ts).
// ---------------------------------------------------------------------------------------------
export const withdrawnPapers = pgTable('withdrawn_papers', {
  id: text('id').primaryKey(),
  reason: text('reason').notNull(), // retracted | withdrawn
  withdrawnAt: tstz('withdrawn_at').notNull().defaultNow(),
})

// ---------------------------------------------------------------------------------------------
// Stored documents (issue 39): each paper's /api/v1/papers/{id} `data` as JSON text, built once
// and sent as it is (src/documents/). Triggers (drizzle/0034) give every paper a row when it
// arrives and set its body to NULL, with generation + 1, in the same transaction as any change to
// what the document shows (the paper, its story, upvotes, entities, claims, an entity's name), so
// a stored body never disagrees with the rows; the refresher writes a body back only if the
// generation it read with the rows is still the row's. Body '' means "serve this one live": a
// paper whose text holds the character the URLs' base is stored as (src/documents/papers.ts).
// ---------------------------------------------------------------------------------------------
export const paperDocuments = pgTable(
  'paper_documents',
  {
    paperId: text('paper_id')
      .primaryKey()
      .references(() => papers.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull().default(0),
    body: text('body'),
    // The paper as a /papers list item (a Paper) and, when it has a story, as a /stories list item (a StoryItem),
    // with the body's base mark (src/documents/paper-items.ts): written with the body, made NULL with it
    // (drizzle/0037); '' as the body's ''.
    item: text('item'),
    storyItem: text('story_item'),
  },
  (t) => [index('paper_documents_stale_idx').on(t.paperId).where(sql`body is null`)],
)

/**
 * Each claim's /api/v1/claims item kept as JSON text (issue 39, src/documents/claims.ts), its freshness kept as
 * paper_documents' is (drizzle/0038): a NULL body is stale and the item is built from the rows.
 */
export const claimDocuments = pgTable(
  'claim_documents',
  {
    claimId: integer('claim_id')
      .primaryKey()
      .references(() => claims.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull().default(0),
    body: text('body'),
  },
  (t) => [index('claim_documents_stale_idx').on(t.claimId).where(sql`body is null`)],
)
