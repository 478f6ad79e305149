/**
 * What an extractor would take from a synthetic paper: its entities, each with a role and detail,
 * and its claims. An entity is only listed when the title or abstract names it, and a claim's
 * evidence is always one of the abstract's own sentences.
 */
import type { LexiconEntry } from '../lexicon/lexicon'
import type { Design } from './design'
import type { Finding } from './findings'
import { meshKey } from '../lexicon/mesh-key'
import { entry } from './outcomes'
import type { MeshHeading } from '../db/schema'
import { measure } from './phrases'
import type { Random } from './random'

export type EntityRef = { type: string; key: string }
export type SeedPaperEntity = EntityRef & { role: string; detail: Record<string, unknown> | null }
export type SeedClaim = {
  subjectText: string
  subjectEntity: EntityRef | null
  relation: string
  objectText: string
  objectEntity: EntityRef | null
  organism: string | null
  context: Record<string, unknown> | null
  direction: string | null
  magnitude: string | null
  evidence: string | null
  confidence: number
  createdAt: string
}

const ref = (e: LexiconEntry): EntityRef => ({ type: e.type, key: e.key })

/** Drops keys without a value, and the whole object when nothing is left. */
function compact(detail: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
  let any = false
  for (const key in detail) {
    const value = detail[key]
    if (value !== null && value !== undefined && value !== '') {
      out[key] = value
      any = true
    }
  }
  return any ? out : null
}

const EVIDENCE_LEVEL: Record<Design['studyType'], string> = {
  human_trial: 'rct',
  human_observational: 'observational',
  animal: 'animal',
  invertebrate: 'invertebrate',
  cells: 'in vitro',
  computational: 'computational',
  review: 'review',
  other: 'opinion',
}
const DESIGN: Record<Design['studyType'], string> = {
  human_trial: 'randomized controlled trial',
  human_observational: 'prospective cohort',
  animal: 'in vivo',
  invertebrate: 'in vivo',
  cells: 'in vitro',
  computational: 'in silico',
  review: 'literature review',
  other: 'commentary',
}

/**
 * Lexicon entities (at most `limit`) in priority order, then one row per MeSH heading.
 * `text` is title + abstract as generated; `quotable` says whether mention/description may be
 * stored (the abstract itself is kept).
 */
export function extractEntities(
  rng: Random,
  d: Design,
  text: string,
  lower: string,
  quotable: boolean,
  limit: number,
  mesh: MeshHeading[],
): SeedPaperEntity[] {
  const out: SeedPaperEntity[] = []
  const seen = new Set<string>()
  const mention = (name: string): string | null => {
    if (!quotable) return null
    const at = lower.indexOf(name.toLowerCase())
    return at < 0 ? null : text.slice(at, at + name.length)
  }
  const add = (e: LexiconEntry | null, role: string, detail: Record<string, unknown> | null, needsText = true) => {
    if (!e || out.length >= limit) return
    const id = `${e.type}:${e.key}:${role}`
    if (seen.has(id) || (needsText && !lower.includes(e.name.toLowerCase()))) return
    seen.add(id)
    out.push({ type: e.type, key: e.key, role, detail: detail && compact(detail) })
  }
  if (d.plantedHallmark) add(d.hallmark, 'context', null) // planted.ts: the hallmark must be linked
  const i = d.intervention
  if (i) {
    add(
      i,
      'studied',
      rng.chance(0.1)
        ? null
        : {
            class: i.class,
            dose: d.dose,
            route: d.route,
            duration: d.duration,
            mention: mention(i.name),
            description: quotable
              ? `${i.class ?? 'intervention'} given ` +
                `to ${d.studyType === 'cells' ? d.system : (d.organism?.plural ?? 'participants')} for ${d.duration}`
              : null,
          },
    )
  }
  if (d.organism) {
    const human = d.organism.kind === 'human'
    add(
      entry(`organism:${d.organism.key}`),
      'model',
      d.studyType === 'cells'
        ? { species: d.organism.latin, system: d.system }
        : {
            species: d.organism.latin,
            strain: d.strain,
            sex: d.sex,
            age: d.age,
            n: human || rng.chance(0.5) ? d.n : null,
          },
      false,
    )
  }
  const first = d.primary
  add(
    first.entry,
    'outcome',
    rng.chance(0.2) ? null : { direction: d.effect === 'none' ? 'no_change' : null, mention: mention(measure(first)) },
  )
  if (d.target) add(d.target, 'target', null)
  add(d.gene, 'mechanism', rng.chance(0.5) ? null : { kind: 'gene', mention: mention(d.gene.name) })
  if (d.exposure) add(d.exposure.entry, 'studied', { kind: 'biomarker', mention: mention(measure(d.exposure)) })
  if (d.secondary) add(d.secondary.entry, 'outcome', null)
  add(d.pathway, 'mechanism', rng.chance(0.6) ? null : { mention: mention(d.pathway.name) })
  add(d.tissue, 'context', null)
  add(d.hallmark, rng.chance(0.5) ? 'context' : 'mentioned', null)
  for (const heading of mesh) {
    out.push({
      type: 'mesh',
      key: meshKey(heading.descriptor),
      role: 'indexed',
      detail: { major: heading.major, qualifiers: heading.qualifiers },
    })
  }
  return out
}

/** Claims from the findings (at most four); some lose their entity links as unresolved ones do. */
export function extractClaims(
  rng: Random,
  d: Design,
  findings: Finding[],
  abstract: string | null,
  extractedAt: number,
): SeedClaim[] {
  if (abstract === null || rng.chance(0.05)) return []
  const out: SeedClaim[] = []
  for (const finding of findings) {
    const draft = finding.claim
    if (!draft || out.length >= 4) continue
    const unresolved = rng.chance(0.06)
    const subjectEntity = unresolved || !draft.subject.entity ? null : ref(draft.subject.entity)
    const objectEntity = unresolved || !draft.object.entity ? null : ref(draft.object.entity)
    const context = compact({
      sex: d.sex !== 'both' && rng.chance(0.7) ? d.sex : null,
      age: rng.chance(0.5) ? d.age : null,
      tissue: abstract.includes(d.tissue.name) && rng.chance(0.5) ? d.tissue.name : null,
      dose: d.intervention && draft.subject.text === d.intervention.name && rng.chance(0.7) ? d.dose : null,
      duration: d.intervention && rng.chance(0.5) ? d.duration : null,
      n: rng.chance(0.4) ? d.n : null,
      subject_type: subjectEntity && rng.chance(0.6) ? subjectEntity.type : null,
      object_type: objectEntity && rng.chance(0.6) ? objectEntity.type : null,
      primary: out.length === 0 ? true : null,
      design: rng.chance(0.5) ? DESIGN[d.studyType] : null,
      evidence_level: rng.chance(0.6) ? EVIDENCE_LEVEL[d.studyType] : null,
      preprint: d.preprint ? true : null,
    })
    out.push({
      subjectText: draft.subject.text,
      subjectEntity,
      relation: draft.relation,
      objectText: draft.object.text,
      objectEntity,
      organism: d.organism?.latin ?? null,
      context: rng.chance(0.08) ? null : context,
      direction: draft.direction,
      magnitude: draft.magnitude,
      evidence: finding.sentence,
      confidence: rng.round(0.55, 0.98),
      createdAt: new Date(extractedAt + out.length * 1000).toISOString(),
    })
  }
  return out
}
