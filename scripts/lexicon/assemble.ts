/**
 * The lexicon build's rules (see build.ts). Keys, one scheme per type:
 *   gene          NCBIGene:<Entrez id> for every gene, human or model organism (ids.hgnc kept where
 *                 the curated entry knows it: no Entrez-to-HGNC table is available to the build)
 *   intervention  CHEBI:<id> when the curated entry or DrugAge's synonym list gives one, else
 *                 PUBCHEM.COMPOUND:<cid> (curated or DrugAge), else a slug (diets, exercise, procedures)
 *   organism      NCBITaxon:<id>; every other type keeps its curated key
 * Matching, term by term, in this order of precedence when two entries claim the same spelling:
 * curated terms, human official symbols, human aliases, model-organism symbols, compound names.
 */
import type { LexiconEntry } from '../../src/lexicon/lexicon'
import { normalizeAlias } from '../../src/lexicon/normalize'
import { AMBIGUOUS_GENE_TERMS, CLONE_NAME, GENERIC_COMPOUNDS, IDENTIFIER_SYNONYM } from './curation'
import { readLiterature } from './literature'
import { agingGeneIds, drugAgeCompounds, genAgeModelGenes, humanGenes, type Compound } from './sources'

export type FormerKey = { type: string; from: string; to: string }
type Entry = LexiconEntry & { symbols: string[]; abbreviations: string[]; lookupOnly: string[] }

const norm = normalizeAlias
const hasDigit = (s: string) => /\d/.test(s)
const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
/** Protein names such as p16, p21, p53, p16INK4a: written in either case, so matched ignoring it. */
const P_NAME = /^p\d{2,3}(?:[a-z]+\d*[a-z]*)?$/i
/** Organisms whose gene symbols are the human ones in other letter cases: their mentions stay with the human gene. */
const ORTHOLOG_CASE_ORGANISMS = new Set(['Mus musculus', 'Rattus norvegicus', 'Mesocricetus auratus'])

/** How often each lower-case word occurs in the real abstracts: "set", "max" and "cat" are words; "pten" is not. */
function lowercaseWords(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const r of readLiterature()) {
    for (const m of `${r.title} ${r.abstract}`.matchAll(/(?<![\p{L}\p{N}-])[a-z][a-z0-9]*(?![\p{L}\p{N}])/gu))
      counts.set(m[0], (counts.get(m[0]) ?? 0) + 1)
  }
  return counts
}

const empty = (e: LexiconEntry): Entry => ({
  ...e,
  synonyms: [...e.synonyms],
  symbols: [],
  abbreviations: [...(e.abbreviations ?? [])],
  lookupOnly: [],
})

/** Adds `term` to `list` unless the entry already answers to the same normalised spelling there. */
function addUnique(list: string[], term: string) {
  if (!list.includes(term)) list.push(term)
}

export function buildLexicon(curatedIn: LexiconEntry[]): {
  entries: LexiconEntry[]
  formerKeys: FormerKey[]
  report: string[]
} {
  const report: string[] = []
  const genes = humanGenes()
  const aging = agingGeneIds(genes)
  const words = lowercaseWords()
  const compounds = drugAgeCompounds()

  // --- Curated entries: the key rules, DrugAge's ids for the compounds among them.
  const byCid = new Map<string, Compound>()
  const byChebi = new Map<string, Compound>()
  const byName = new Map<string, Compound>()
  const bySynonym = new Map<string, Compound[]>()
  for (const c of compounds) {
    if (c.cid && !byCid.has(c.cid)) byCid.set(c.cid, c)
    if (c.chebi && !byChebi.has(c.chebi)) byChebi.set(c.chebi, c)
    if (!byName.has(norm(c.name))) byName.set(norm(c.name), c)
    for (const s of c.synonyms) bySynonym.set(norm(s), [...(bySynonym.get(norm(s)) ?? []), c])
  }
  const usedCompounds = new Map<string, Entry>()
  const formerKeys: FormerKey[] = []
  const geneKey = new Map<string, string>() // curated gene key (old) -> new
  const curated: Entry[] = curatedIn.map((e) => {
    const out = empty(e)
    out.curated = true
    out.ids = { ...e.ids }
    if (e.type === 'gene') {
      if (!e.ids.ncbigene) throw new Error(`curated gene ${e.key} has no ncbigene id`)
      out.key = `NCBIGene:${e.ids.ncbigene}`
      geneKey.set(e.key, out.key)
    } else if (e.type === 'intervention') {
      const names = new Set([e.name, ...e.synonyms].map(norm))
      const c =
        (e.ids.pubchem && byCid.get(e.ids.pubchem)) ||
        (e.ids.chebi && byChebi.get(e.ids.chebi)) ||
        byName.get(norm(e.name)) ||
        (bySynonym.get(norm(e.name)) ?? []).find((x) => names.has(norm(x.name)))
      if (c && !usedCompounds.has(c.id)) {
        usedCompounds.set(c.id, out)
        if (e.ids.chebi && c.chebi && e.ids.chebi !== c.chebi)
          report.push(`conflict: ${e.name} curated ${e.ids.chebi}, DrugAge ${c.chebi} (curated kept)`)
        if (e.ids.pubchem && c.cid && e.ids.pubchem !== c.cid)
          report.push(`conflict: ${e.name} curated pubchem ${e.ids.pubchem}, DrugAge ${c.cid} (curated kept)`)
        out.ids.chebi ??= c.chebi ?? undefined
        out.ids.pubchem ??= c.cid ?? undefined
        addCompoundNames(out, c, words)
      }
      for (const k of ['chebi', 'pubchem'] as const) if (out.ids[k] === undefined) delete out.ids[k]
      out.key = out.ids.chebi ?? (out.ids.pubchem ? `PUBCHEM.COMPOUND:${out.ids.pubchem}` : e.key)
    }
    if (out.key !== e.key) formerKeys.push({ type: e.type, from: e.key, to: out.key })
    return out
  })
  for (const e of curated) e.targets = e.targets.map((t) => geneKey.get(t) ?? t)

  // --- Human genes: the curated gene entries gain NCBI's names; every other gene is added.
  const curatedGenes = new Map(curated.filter((e) => e.type === 'gene').map((e) => [e.ids.ncbigene!, e]))
  const aliasOwners = new Map<string, Set<string>>()
  for (const g of genes)
    for (const t of [g.symbol, ...g.aliases])
      aliasOwners.set(norm(t), new Set([...(aliasOwners.get(norm(t)) ?? []), g.entrez]))
  const official = new Set(genes.map((g) => norm(g.symbol)))
  const ambiguous = (t: string) => AMBIGUOUS_GENE_TERMS.has(norm(t))
  // "RUVBL" or "USH2" names a family or a syndrome when RUVBL1 or USH2A are symbols of their own.
  const symbolPrefixes = new Set(
    genes.flatMap((g) => Array.from({ length: g.symbol.length - 1 }, (_, i) => norm(g.symbol.slice(0, i + 1)))),
  )
  // The mouse spelling (Cdkn2a, Pten), unless it is a word or an amino acid at the start of a sentence (Tyr, Pam, Men).
  const mouseCase = (t: string) => {
    const v = t[0] + t.slice(1).toLowerCase()
    return v !== t && /^[A-Z]/.test(t) && (hasDigit(t) || (t.length >= 4 && (words.get(t.toLowerCase()) ?? 0) < 2))
      ? [v]
      : []
  }
  const humanEntries: Entry[] = []
  const aliasTier: Entry[] = [] // the same entries: aliases claim their spellings after every official symbol
  for (const g of genes) {
    const e =
      curatedGenes.get(g.entrez) ??
      empty({
        type: 'gene',
        key: `NCBIGene:${g.entrez}`,
        name: g.symbol,
        synonyms: [],
        ids: { ncbigene: g.entrez },
        topics: [],
        class: null,
        targets: [],
      })
    e.matchName = false // a symbol is matched only in its own spellings (below), or not at all
    if (e.name !== g.symbol) report.push(`curated gene ${e.name} is ${g.symbol} in NCBI Gene`)
    const isAging = aging.has(g.entrez) || curatedGenes.has(g.entrez)
    if (ambiguous(g.symbol) || g.symbol.length < 3) e.lookupOnly.push(g.symbol)
    // Three capitals (DBP, SCD, SPR) are as often a blood pressure or a method as a gene: only where the text names the gene too.
    else if (/^[A-Z]{3}$/.test(g.symbol) && !curatedGenes.has(g.entrez)) e.abbreviations.push(g.symbol)
    else for (const t of [g.symbol, ...mouseCase(g.symbol)]) addUnique(e.symbols, t)
    if (g.name.length >= 6 && !/^(?:uncharacterized|putative|open reading frame)/i.test(g.name))
      addUnique(e.synonyms, g.name)
    for (const a of g.aliases) {
      if (CLONE_NAME.test(a) || norm(a) === norm(g.symbol)) continue
      const unique =
        (aliasOwners.get(norm(a))?.size ?? 0) === 1 && !official.has(norm(a)) && !symbolPrefixes.has(norm(a))
      // Letters alone are a word or an acronym of something else (FRAP, HSF, ARF) unless long; a digit helps.
      const distinctive = hasDigit(a) ? a.length >= (isAging ? 3 : 4) : a.length >= (isAging ? 5 : 6)
      if (!unique || !distinctive || ambiguous(a)) e.lookupOnly.push(a)
      else if (P_NAME.test(a)) addUnique(e.synonyms, a.toLowerCase())
      else if (!/[A-Z]/.test(a) && !hasDigit(a))
        e.lookupOnly.push(a) // a lower-case word
      else for (const t of [a, ...mouseCase(a)]) addUnique(e.symbols, t)
    }
    if (!curatedGenes.has(g.entrez)) humanEntries.push(e)
    aliasTier.push(e)
  }

  // --- GenAge's model-organism genes (worm, fly, yeast): their own entries, keyed by NCBI Gene too.
  const taxa = new Map<string, string>()
  for (const e of curated) if (e.type === 'organism') for (const n of [e.name, ...e.synonyms]) taxa.set(n, e.ids.taxon!)
  const modelEntries: Entry[] = []
  const modelSymbols = new Map<string, number>()
  const humanIds = new Set(genes.map((g) => g.entrez))
  // GenAge gives a few fly genes the Entrez id of their human homologue (UCP2, OTC): those are left out.
  const models = genAgeModelGenes().filter(
    (m) => taxa.has(m.organism) && !ORTHOLOG_CASE_ORGANISMS.has(m.organism) && !humanIds.has(m.entrez),
  )
  for (const m of models) modelSymbols.set(norm(m.symbol), (modelSymbols.get(norm(m.symbol)) ?? 0) + 1)
  const seenModel = new Set<string>()
  for (const m of models) {
    if (seenModel.has(m.entrez)) continue
    seenModel.add(m.entrez)
    const e = empty({
      type: 'gene',
      key: `NCBIGene:${m.entrez}`,
      name: m.symbol,
      synonyms: [],
      ids: { ncbigene: m.entrez, taxon: taxa.get(m.organism)! },
      topics: [],
      class: null,
      targets: [],
    })
    e.matchName = false
    // A word (mth, chico, Men) or any human gene's name or alias (HIF-1, SIR2) is not read as this organism's gene.
    const wordLike = /^[a-z]+$/.test(m.symbol) || m.symbol.length < 3 || (words.get(m.symbol.toLowerCase()) ?? 0) >= 2
    if (wordLike || modelSymbols.get(norm(m.symbol))! > 1 || aliasOwners.has(norm(m.symbol)))
      e.lookupOnly.push(m.symbol)
    else {
      e.symbols.push(m.symbol)
      if (/^[a-z]+-\d+$/.test(m.symbol)) e.symbols.push(m.symbol.toUpperCase()) // worm proteins: DAF-16
    }
    modelEntries.push(e)
  }

  // --- DrugAge compounds not in the curated lexicon.
  const compoundEntries = new Map<string, Entry>()
  // A DrugAge compound the curated lexicon names ("Lithium Chloride" under lithium) joins that entry.
  const curatedIntervention = new Map<string, Entry>()
  for (const e of curated)
    if (e.type === 'intervention')
      for (const t of [e.name, ...e.synonyms])
        if (!curatedIntervention.has(norm(t))) curatedIntervention.set(norm(t), e)
  for (const c of compounds) {
    if (usedCompounds.has(c.id)) continue
    const key = c.chebi ?? (c.cid ? `PUBCHEM.COMPOUND:${c.cid}` : slug(c.name))
    const clash =
      curated.find((e) => e.type === 'intervention' && e.key === key) ?? curatedIntervention.get(norm(c.name))
    const e =
      clash ??
      compoundEntries.get(key) ??
      empty({
        type: 'intervention',
        key,
        name: c.name,
        synonyms: [],
        ids: {},
        topics: [],
        class: null,
        targets: [],
      })
    if (!clash && !compoundEntries.has(key)) {
      if (c.chebi) e.ids.chebi = c.chebi
      if (c.cid) e.ids.pubchem = c.cid
      compoundEntries.set(key, e)
    }
    addCompoundNames(e, c, words)
    if (GENERIC_COMPOUNDS.has(norm(c.name))) {
      e.lookupOnly.push(...e.synonyms, ...e.abbreviations)
      e.synonyms = []
      e.abbreviations = []
      e.matchName = false
    }
  }

  // --- One owner per spelling, by precedence; the losers keep the spelling for look-ups only.
  const owner = new Map<string, string>()
  const id = (e: Entry) => `${e.type}:${e.key}`
  const matched = (e: Entry) => [
    ...(e.matchName === false ? [] : [e.name]),
    ...e.synonyms,
    ...e.symbols,
    ...e.abbreviations,
  ]
  for (const e of curated) for (const t of [e.name, ...e.synonyms]) if (!owner.has(norm(t))) owner.set(norm(t), id(e))
  const claimName = (e: Entry) => {
    if (e.matchName === false || e.curated) return
    const o = owner.get(norm(e.name))
    if (o === undefined || o === id(e)) owner.set(norm(e.name), id(e))
    else e.matchName = false
  }
  const claim = (
    e: Entry,
    field: 'symbols' | 'synonyms' | 'abbreviations',
    filter: (t: string) => boolean = () => true,
  ) => {
    e[field] = e[field].filter((t) => {
      if (!filter(t)) return true
      const o = owner.get(norm(t))
      if (o === undefined || o === id(e)) {
        owner.set(norm(t), id(e))
        return true
      }
      e.lookupOnly.push(t)
      return false
    })
  }
  const officialOf = new Map(genes.map((g) => [g.entrez, g.symbol]))
  for (const e of aliasTier) claim(e, 'symbols', (t) => norm(t) === norm(officialOf.get(e.ids.ncbigene!)!))
  for (const e of aliasTier) {
    claim(e, 'symbols')
    claim(e, 'abbreviations')
    claim(e, 'synonyms', () => !e.curated)
  }
  for (const e of modelEntries) claim(e, 'symbols')
  for (const e of compoundEntries.values()) if (!e.curated) claimName(e)
  for (const e of compoundEntries.values()) {
    claim(e, 'synonyms')
    claim(e, 'abbreviations')
  }

  const entries = [
    ...curated,
    ...humanEntries,
    ...modelEntries,
    ...[...compoundEntries.values()].filter((e) => !e.curated),
  ]
  const compact = entries.map((e) => tidy(e, matched(e)))
  report.push(
    `entries: ${entries.length} (curated ${curated.length}, human genes ${humanEntries.length}, model-organism genes ${modelEntries.length}, DrugAge compounds ${compoundEntries.size})`,
  )
  report.push(
    `matched spellings: ${entries.reduce((n, e) => n + matched(e).length, 0)}, look-up only: ${compact.reduce((n, e) => n + (e.lookupOnly?.length ?? 0), 0)}`,
  )
  report.push(`re-keyed curated entries: ${formerKeys.length}`)
  return { entries: compact, formerKeys, report }
}

/** DrugAge's names for a compound: real names as synonyms, short capitals as context-bound abbreviations. */
function addCompoundNames(e: Entry, c: Compound, words: Map<string, number>) {
  const have = new Set([e.name, ...e.synonyms, ...e.abbreviations, ...e.lookupOnly].map(norm))
  for (const s of [c.name, ...c.synonyms]) {
    if (have.has(norm(s)) || !norm(s)) continue
    have.add(norm(s))
    if (IDENTIFIER_SYNONYM.some((re) => re.test(s)) || s.length > 40 || (s.match(/[\d,()'[\]]/g)?.length ?? 0) > 3)
      continue
    // A synonym that real abstracts use as an everyday word ("alcohol" for ethanol, "glucan" for glucose) names more than the compound.
    if (!/\s/.test(s) && (words.get(s.toLowerCase()) ?? 0) >= 3) e.lookupOnly.push(s)
    else if (/^[A-Z][A-Z0-9+-]{1,4}$/.test(s) && !/\d{3}/.test(s)) e.abbreviations.push(s)
    else e.synonyms.push(s)
  }
}

/** Drops empty fields and duplicate spellings so the file stays small. */
function tidy(e: Entry, matchedTerms: string[]): LexiconEntry {
  const matchedNorm = new Set(matchedTerms.map(norm))
  const lookupOnly = [...new Set(e.lookupOnly)].filter((t) => !matchedNorm.has(norm(t)) && norm(t) !== norm(e.name))
  const out: Record<string, unknown> = { type: e.type, key: e.key, name: e.name }
  if (e.synonyms.length) out.synonyms = e.synonyms
  if (Object.keys(e.ids).length) out.ids = e.ids
  if (e.topics.length) out.topics = e.topics
  if (e.class !== null) out.class = e.class
  if (e.targets.length) out.targets = e.targets
  if (e.symbols.length) out.symbols = e.symbols
  if (e.abbreviations.length) out.abbreviations = e.abbreviations
  if (lookupOnly.length) out.lookupOnly = [...new Set(lookupOnly.map((t) => t))]
  if (e.matchName === false) out.matchName = false
  if (e.curated) out.curated = true
  return out as LexiconEntry
}
