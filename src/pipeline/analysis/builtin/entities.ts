/**
 * Entities of a paper from the lexicon: every term found in the title and abstract, plus MeSH
 * headings, keywords and chemicals that name a lexicon entry. Each gets one role, decided by where
 * and how the paper speaks of it (title, repeated mentions, subject or object of a claim, the
 * target of a studied intervention), and a detail read from the sentences that name it.
 */
import type { LexiconEntry } from '../../../lexicon/lexicon'
import type { PaperInput, FoundClaim, FoundEntity } from '../types'
import { compact, readAge, readDose, readDuration, readN, readRoute, readSex, readStrain } from './details'
import { lookupTerm, type Mention } from '../../../lexicon/matcher'
import { latinName } from './claims'
import type { Sentence } from './sentences'

type Seen = {
  entry: LexiconEntry
  inTitle: boolean
  count: number
  mention: string | null
  mesh: { major: boolean; qualifiers: string[] } | null
  chemical: { name: string; registry: string | null } | null
}

const keyOf = (e: { type: string; key: string }) => `${e.type}:${e.key}`

export type EntityInput = {
  paper: PaperInput
  titleMentions: Mention[]
  abstractMentions: Mention[]
  sentences: Sentence[]
  claims: FoundClaim[]
  mainOrganism: string | null // lexicon key of the study organism
}

/** The sentences of the abstract that name each entity, in order. */
function sentencesByEntity(sentences: Sentence[], mentions: Mention[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  let i = 0
  for (const m of mentions) {
    while (i + 1 < sentences.length && sentences[i + 1].start <= m.start) i++
    const s = sentences[i]?.text
    if (!s) continue
    const list = out.get(keyOf(m.entry)) ?? []
    if (list.at(-1) !== s) list.push(s)
    out.set(keyOf(m.entry), list)
  }
  return out
}

const firstOf = <T>(texts: string[], read: (s: string) => T | null): T | null => {
  for (const t of texts) {
    const v = read(t)
    if (v !== null) return v
  }
  return null
}

const clip = (s: string | null, max = 240) => (s && s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s)

export function extractEntities(input: EntityInput): FoundEntity[] {
  const seen = new Map<string, Seen>()
  const note = (entry: LexiconEntry, inTitle: boolean, mention: string | null) => {
    const k = keyOf(entry)
    const s = seen.get(k) ?? { entry, inTitle: false, count: 0, mention: null, mesh: null, chemical: null }
    s.inTitle ||= inTitle
    s.count += mention ? 1 : 0
    s.mention ??= mention
    seen.set(k, s)
    return s
  }
  for (const m of input.titleMentions) note(m.entry, true, m.text)
  for (const m of input.abstractMentions) note(m.entry, false, m.text)
  for (const h of input.paper.meshHeadings) {
    const entry = lookupTerm(h.descriptor)
    if (entry) note(entry, false, null).mesh = { major: h.major, qualifiers: h.qualifiers }
  }
  for (const k of input.paper.keywords) {
    const entry = lookupTerm(k)
    if (entry) note(entry, false, null)
  }
  for (const c of input.paper.chemicals) {
    const entry = lookupTerm(c.name)
    if (entry) note(entry, false, null).chemical = c
  }

  const subjects = new Set(input.claims.map((c) => c.subject.entity && keyOf(c.subject.entity)))
  const objects = new Map<string, FoundClaim>()
  for (const c of input.claims)
    if (c.object.entity && !objects.has(keyOf(c.object.entity))) objects.set(keyOf(c.object.entity), c)
  const studiedInterventions = [...seen.values()].filter(
    (s) => s.entry.type === 'intervention' && (s.inTitle || s.count >= 2 || subjects.has(keyOf(s.entry))),
  )
  const targeted = new Set(studiedInterventions.flatMap((s) => s.entry.targets))
  const abstract = input.paper.abstract ?? ''
  const where = sentencesByEntity(input.sentences, input.abstractMentions)

  const out: FoundEntity[] = []
  for (const [k, s] of seen) {
    const e = s.entry
    const prominent = s.inTitle || s.count >= 2 || s.mesh?.major === true
    const inClaim = subjects.has(k) || objects.has(k)
    let role: string
    switch (e.type) {
      case 'organism':
        role = prominent || e.key === input.mainOrganism || s.mesh ? 'model' : 'mentioned'
        break
      case 'intervention':
        role = prominent || inClaim || s.chemical ? 'studied' : 'mentioned'
        break
      case 'gene':
        role = targeted.has(e.key)
          ? 'target'
          : s.inTitle
            ? 'studied'
            : prominent || inClaim || s.mesh
              ? 'mechanism'
              : 'mentioned'
        break
      case 'pathway':
      case 'hallmark':
        role =
          s.inTitle && e.type === 'hallmark' ? 'studied' : prominent || inClaim || s.mesh ? 'mechanism' : 'mentioned'
        break
      case 'phenotype':
      case 'biomarker':
        role = objects.has(k) || prominent ? 'outcome' : subjects.has(k) ? 'studied' : 'mentioned'
        break
      case 'disease':
        role = s.inTitle ? 'studied' : objects.has(k) ? 'outcome' : 'context'
        break
      default:
        role = 'context'
    }
    const named = where.get(k) ?? []
    const sentence = named[0] ?? null
    const claim = objects.get(k)
    const confidence = Math.min(0.95, 0.5 + Math.min(s.count, 4) * 0.08 + (s.inTitle ? 0.1 : 0) + (s.mesh ? 0.15 : 0))
    const detail: Record<string, unknown> = {
      mention: s.mention,
      confidence: Math.round(confidence * 100) / 100,
      major: s.mesh?.major ?? null,
      qualifiers: s.mesh?.qualifiers ?? null,
      chemical: s.chemical?.name ?? null,
      registry: s.chemical?.registry ?? null,
    }
    if (e.type === 'intervention') {
      Object.assign(detail, {
        class: e.class,
        targets: e.targets,
        dose: firstOf(named, readDose),
        route: firstOf(named, readRoute),
        duration: firstOf(named, readDuration),
        description: clip(sentence),
      })
    } else if (e.type === 'organism' && role === 'model') {
      Object.assign(detail, {
        species: latinName(e),
        strain: readStrain(abstract),
        sex: readSex(abstract),
        age: readAge(abstract),
        n: readN(abstract),
      })
    } else if (claim) {
      Object.assign(detail, {
        effect: claim.relation,
        direction: claim.direction,
        magnitude: claim.magnitude,
        description: clip(claim.evidence),
      })
    } else if (e.type === 'gene') {
      detail.kind = 'gene'
    }
    out.push({
      type: e.type,
      key: e.key,
      name: e.name,
      ids: e.ids as Record<string, string>,
      role,
      detail: compact(detail),
    })
  }
  return out
}
