/**
 * A deterministic synthetic corpus: the demo corpus at 2,000 papers, the benchmark at 1,000,000.
 * Paper k depends only on (seed, k, options), never on the papers generated before it, so any
 * slice of a corpus can be generated alone and batches of any size give the same rows.
 *
 * Ids are unique by construction: MED-/PPR-<number> with number = 1,000,000,000
 * + (seed mod 900) * 10,000,000 + 2k + (0 or 1). Numbers grow with k, stay clear of real PMIDs and
 * Europe PMC preprint ids (both far below 10^9), and two corpora whose seeds differ modulo 900 never
 * share an id (the same seed loaded twice into one database fails on the papers primary key).
 * A corpus holds at most 5,000,000 papers.
 */
import type { Chemical, MeshHeading } from '../db/schema'
import { writePaper } from './abstract'
import { authorList, licences, pickJournal, pickServer } from './bibliography'
import { chemicalFor, indexedDays, publicationTypes } from './corpus-parts'
import { designPaper, type Design } from './design'
import { extractClaims, extractEntities, type SeedClaim, type SeedPaperEntity } from './extraction'
import { meshHeadings } from './mesh'
import { plantAt } from './planted'
import { Random, Weighted } from './random'
import { writeStory } from './story'

export type { EntityRef, SeedClaim, SeedPaperEntity } from './extraction'

export type CorpusOptions = {
  papers: number
  seed: number
  endDate: string // YYYY-MM-DD, the newest indexed_date
  days?: number // how many days the corpus spans, ending at endDate; default 90
  /**
   * No timestamp after this time (ms since the epoch; default none): a corpus ending today is loaded during the
   * day, and today's papers would otherwise be created, judged, extracted and written up later today.
   */
  notAfter?: number
}

/** A papers row as drizzle inserts it; timestamps are ISO strings so bundles compare and copy cheaply. */
export type SeedPaper = {
  id: string
  source: 'MED' | 'PPR'
  doi: string | null
  title: string
  authors: string
  journal: string
  publishedDate: string | null
  indexedDate: string
  preprint: boolean
  publicationTypes: string[]
  url: string
  abstract: string | null
  abstractLicense: string | null
  meshHeadings: MeshHeading[]
  keywords: string[]
  chemicals: Chemical[]
  relevance: number | null
  relevanceConfidence: number | null
  newsworthiness: number | null
  studyType: string | null
  studyTypeConfidence: number | null
  topic: string | null
  topicConfidence: number | null
  promotional: number | null
  judgementModel: string | null
  judgementPromptVersion: string | null
  judgedAt: string | null
  extractedAt: string | null
  createdAt: string
  updatedAt: string
}

export type SeedStory = {
  paperId: string
  headline: string
  dek: string
  body: string
  whyItMatters: string
  caveats: string
  support: number | null
  model: string
  publishedAt: string
}

export type PaperBundle = {
  paper: SeedPaper
  story: SeedStory | null
  entities: SeedPaperEntity[]
  claims: SeedClaim[]
}

export const MAX_PAPERS = 5_000_000
const MINUTE = 60_000
const DAY = 86_400_000

/** Relevance ranges per band: [0,1), [1,2), [2,2.5), [2.5,3]. */
const RELEVANCE: Record<Design['band'], [number, number]> = {
  low: [0, 0.99],
  tangential: [1, 1.99],
  aging: [2, 2.49],
  core: [2.5, 3],
}
/** Chance of newsworthiness >= 2 per band: about 12% overall. */
const NEWSWORTHY: Record<Design['band'], number> = { low: 0.01, tangential: 0.05, aging: 0.14, core: 0.22 }
const judgeModels = new Weighted<[string, string]>([
  [['geroscope-builtin-1', 'judge-v1'], 80],
  [['geroscope-builtin-1', 'judge-v2'], 20],
])

export function validateOptions(options: CorpusOptions): Required<CorpusOptions> {
  const days = options.days ?? 90
  if (!Number.isInteger(options.papers) || options.papers < 0 || options.papers > MAX_PAPERS) {
    throw new Error(`papers must be an integer from 0 to ${MAX_PAPERS} (got ${options.papers})`)
  }
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffffffff) {
    throw new Error(`seed must be an integer from 0 to 4294967295 (got ${options.seed})`)
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.endDate) || Number.isNaN(Date.parse(options.endDate))) {
    throw new Error(`endDate must be YYYY-MM-DD (got ${options.endDate})`)
  }
  if (!Number.isInteger(days) || days < 1) throw new Error(`days must be a positive integer (got ${days})`)
  return { ...options, days, notAfter: options.notAfter ?? Number.POSITIVE_INFINITY }
}

const iso = (ms: number) => new Date(ms).toISOString()
const dateOf = (ms: number) => iso(ms).slice(0, 10)

export function generatePaper(index: number, options: CorpusOptions): PaperBundle {
  const o = validateOptions(options)
  if (!Number.isInteger(index) || index < 0 || index >= MAX_PAPERS)
    throw new Error(`paper index out of range: ${index}`)
  const rng = Random.forPaper(o.seed, index)

  const preprint = rng.chance(0.2)
  const source = preprint ? 'PPR' : 'MED'
  const number = String(1_000_000_000 + (o.seed % 900) * 10_000_000 + 2 * index + rng.int(0, 1))
  const id = `${source}-${number}`

  // Dates: papers are spread over the window in index order, weekdays busier than weekends.
  const dayStart = indexedDays(o.endDate, o.days, o.papers).dayFor(index)
  const indexedDate = dateOf(dayStart)
  // Every time is drawn, then held at notAfter (after the draw, so the corpus is the same whatever notAfter is).
  const notAfter = (ms: number) => Math.min(ms, o.notAfter)
  const createdAt = notAfter(dayStart + rng.int(30, 600) * MINUTE + rng.int(0, 59_999))
  const offsetDays = preprint
    ? -rng.int(0, 3)
    : rng.chance(0.7)
      ? -rng.int(0, 14)
      : rng.chance(0.67)
        ? -rng.int(15, 60)
        : rng.int(1, 30)
  const publishedDate = rng.chance(0.05) ? null : dateOf(dayStart + offsetDays * DAY)

  // A few papers per thousand carry known contradictions and gaps (planted.ts); the rest are random.
  const plant = plantAt(index, o.papers)
  const d = plant ? plant.design(rng, preprint) : designPaper(rng, preprint)
  const { title, abstract: text, findings } = writePaper(rng, d)
  const clinical = d.studyType === 'human_trial' || d.studyType === 'human_observational'
  const journal = preprint
    ? pickServer(rng, clinical)
    : pickJournal(
        rng,
        d.band === 'low' && rng.chance(0.6)
          ? 'general'
          : d.studyType === 'review'
            ? 'review'
            : clinical
              ? 'clinical'
              : d.studyType === 'other'
                ? 'general'
                : 'basic',
      )
  const doi = rng.chance(0.05) ? null : journal.doi(number, publishedDate ?? indexedDate).toLowerCase()
  const url = doi
    ? `https://doi.org/${doi}`
    : preprint
      ? `https://europepmc.org/article/PPR/PPR${number}`
      : `https://europepmc.org/article/MED/${number}`
  const abstract = rng.chance(0.03) && !plant ? null : text
  const abstractLicense = rng.weighted(licences)

  // Judgement: all but 2%; extraction: 95% of the judged.
  const judged = rng.chance(0.98) || plant !== null
  const [judgementModel, judgementPromptVersion] = rng.weighted(judgeModels)
  const judgedMs = notAfter(createdAt + rng.int(2, 180) * MINUTE + rng.int(0, 59_999))
  const relevance = rng.round(...RELEVANCE[d.band])
  const newsworthiness = rng.chance(NEWSWORTHY[d.band])
    ? rng.round(2, 3)
    : Math.round(1.99 * rng.next() ** 1.6 * 100) / 100
  const extracted = plant !== null || (judged && rng.chance(0.95))
  const extractedMs = notAfter(judgedMs + rng.int(1, 120) * MINUTE + rng.int(0, 59_999))

  const lexiconLimit = rng.int(3, 6)
  const mesh = preprint ? [] : meshHeadings(rng, d, 10 - lexiconLimit)
  const quotable = abstract !== null
  const lower = (title + ' ' + text).toLowerCase()
  const entities = extracted
    ? extractEntities(
        rng,
        d,
        `${title} ${text}`,
        lower,
        quotable,
        preprint ? Math.max(lexiconLimit, 5) : lexiconLimit,
        mesh,
      )
    : []
  const claims = !extracted
    ? []
    : plant?.claims
      ? plant.claims(d, findings, extractedMs, rng)
      : extractClaims(rng, d, findings, abstract, extractedMs)

  const paper: SeedPaper = {
    id,
    source,
    doi,
    title,
    authors: authorList(rng),
    journal: journal.name,
    publishedDate,
    indexedDate,
    preprint,
    publicationTypes: publicationTypes(rng, d),
    url,
    abstract,
    abstractLicense,
    meshHeadings: mesh,
    keywords: rng.chance(preprint ? 0.4 : 0.7) ? rng.sample(d.profile.keywords, rng.int(3, 5)) : [],
    chemicals: preprint ? [] : chemicalFor(d),
    relevance: judged ? relevance : null,
    relevanceConfidence: judged ? rng.round(0.55, 0.99) : null,
    newsworthiness: judged ? newsworthiness : null,
    studyType: judged ? d.studyType : null,
    studyTypeConfidence: judged ? rng.round(0.5, 0.99) : null,
    topic: judged ? d.topic : null,
    topicConfidence: judged ? rng.round(0.4, 0.99) : null,
    promotional: judged ? promotional(rng) : null,
    judgementModel: judged ? judgementModel : null,
    judgementPromptVersion: judged ? judgementPromptVersion : null,
    judgedAt: judged ? iso(judgedMs) : null,
    extractedAt: extracted ? iso(extractedMs) : null,
    createdAt: iso(createdAt),
    updatedAt: iso(extracted ? extractedMs : judged ? judgedMs : createdAt),
  }

  let story: SeedStory | null = null
  if (judged && newsworthiness >= 2 && relevance >= 2) {
    const s = writeStory(rng, d, findings, title)
    const support = rng.chance(0.05)
      ? null
      : rng.chance(0.85)
        ? rng.round(2, 3)
        : rng.chance(0.67)
          ? rng.round(1, 2)
          : rng.round(0, 1)
    const writtenMs = (extracted ? extractedMs : judgedMs) + rng.int(10, 480) * MINUTE + rng.int(0, 59_999)
    const publishedAt = iso(notAfter(writtenMs))
    story = { paperId: id, ...s, support, model: 'geroscope-writer-1', publishedAt }
  }
  return { paper, story, entities, claims }
}

/** Mostly low: 92% under 0.15, a few clearly promotional records. */
function promotional(rng: Random): number {
  const u = rng.next()
  return u < 0.92 ? rng.round(0, 0.15) : u < 0.98 ? rng.round(0.15, 0.5) : rng.round(0.5, 0.95)
}

/** Papers 0 .. papers-1 (or a slice of them), one bundle at a time. */
export function* generateCorpus(options: CorpusOptions, from = 0, to = options.papers): Generator<PaperBundle> {
  validateOptions(options)
  for (let index = from; index < Math.min(to, options.papers); index++) yield generatePaper(index, options)
}
