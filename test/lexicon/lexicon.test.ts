import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  ENTITY_TYPES,
  TOPICS,
  curatedLexicon,
  entriesOfType,
  entryByKey,
  findBySynonym,
  fullLexicon,
  type EntityType,
  type LexiconEntry,
} from '../../src/lexicon/lexicon'
import { normalizeAlias } from '../../src/lexicon/normalize'
import formerKeys from '../../src/lexicon/generated/former-keys.json'

const lexicon = fullLexicon()

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

const MIN_PER_TYPE: Record<EntityType, number> = {
  intervention: 70,
  gene: 90,
  pathway: 50,
  hallmark: 12,
  phenotype: 30,
  organism: 20,
  tissue: 30,
  disease: 40,
  biomarker: 30,
}

/** Allowed key shapes per type; a slug is the fallback wherever no ontology id is known. */
const KEY_FORMAT: Record<EntityType, RegExp[]> = {
  gene: [/^NCBIGene:\d+$/],
  intervention: [/^CHEBI:\d+$/, /^PUBCHEM\.COMPOUND:\d+$/, SLUG],
  pathway: [/^GO:\d{7}$/, SLUG],
  hallmark: [SLUG],
  phenotype: [/^HP:\d{7}$/, SLUG],
  organism: [/^NCBITaxon:\d+$/],
  tissue: [/^UBERON:\d{7}$/],
  disease: [/^MESH:D\d{6}(?:\d{3})?$/, SLUG],
  biomarker: [SLUG, /^[A-Za-z.]+:[A-Za-z0-9]+$/],
}

const ID_FORMAT: Record<string, RegExp> = {
  pubchem: /^\d+$/,
  chebi: /^CHEBI:\d+$/,
  hgnc: /^HGNC:\d+$/,
  ncbigene: /^\d+$/,
  taxon: /^\d+$/,
  mesh: /^D\d{6}(?:\d{3})?$/,
  go: /^GO:\d{7}$/,
  uberon: /^UBERON:\d{7}$/,
  hp: /^HP:\d{7}$/,
}

/** Key prefix -> the id kind it must equal, and how that id is written as a key. */
const KEY_ID: Record<string, [string, (id: string) => string]> = {
  HGNC: ['hgnc', (id) => id],
  NCBIGene: ['ncbigene', (id) => `NCBIGene:${id}`],
  CHEBI: ['chebi', (id) => id],
  'PUBCHEM.COMPOUND': ['pubchem', (id) => `PUBCHEM.COMPOUND:${id}`],
  GO: ['go', (id) => id],
  HP: ['hp', (id) => id],
  NCBITaxon: ['taxon', (id) => `NCBITaxon:${id}`],
  UBERON: ['uberon', (id) => id],
  MESH: ['mesh', (id) => `MESH:${id}`],
}

const label = (e: LexiconEntry) => `${e.type} ${e.key}`

describe('lexicon shape', () => {
  test('has at least 300 curated entries and every human protein-coding gene', () => {
    expect(curatedLexicon.length).toBeGreaterThanOrEqual(300)
    expect(entriesOfType('gene', lexicon).filter((e) => !e.ids.taxon).length).toBeGreaterThan(19000)
  })

  test('meets the per-type minimums', () => {
    const short = ENTITY_TYPES.filter((t) => entriesOfType(t).length < MIN_PER_TYPE[t]).map(
      (t) => `${t}: ${entriesOfType(t).length} < ${MIN_PER_TYPE[t]}`,
    )
    expect(short).toEqual([])
  })

  test('uses only allowed types', () => {
    const bad = lexicon.filter((e) => !(ENTITY_TYPES as readonly string[]).includes(e.type)).map(label)
    expect(bad).toEqual([])
  })

  test('keeps every (type, key) unique', () => {
    const seen = new Set<string>()
    const dupes = lexicon.map(label).filter((k) => (seen.has(k) ? true : (seen.add(k), false)))
    expect(dupes).toEqual([])
  })

  test('has non-empty names and string synonyms', () => {
    const bad = lexicon
      .filter(
        (e) =>
          !e.name.trim() || !Array.isArray(e.synonyms) || e.synonyms.some((s) => typeof s !== 'string' || !s.trim()),
      )
      .map(label)
    expect(bad).toEqual([])
  })
})

describe('keys and ids', () => {
  test('keys follow the format of their type', () => {
    const bad = lexicon.filter((e) => !KEY_FORMAT[e.type].some((re) => re.test(e.key))).map(label)
    expect(bad).toEqual([])
  })

  test('one scheme per type: a compound with a ChEBI id is keyed by it, else by its PubChem CID', () => {
    const bad = entriesOfType('intervention', lexicon)
      .filter((e) =>
        e.ids.chebi
          ? e.key !== e.ids.chebi
          : e.ids.pubchem
            ? e.key !== `PUBCHEM.COMPOUND:${e.ids.pubchem}`
            : !SLUG.test(e.key),
      )
      .map(label)
    expect(bad).toEqual([])
  })

  test('former keys lead to a current entry and are no longer keys themselves', () => {
    const bad = formerKeys
      .filter((f) => !entryByKey(f.type, f.to) || entryByKey(f.type, f.from))
      .map((f) => `${f.type} ${f.from} -> ${f.to}`)
    expect(bad).toEqual([])
    expect(formerKeys).toContainEqual({ type: 'gene', from: 'HGNC:3942', to: 'NCBIGene:2475' })
    expect(formerKeys).toContainEqual({ type: 'gene', from: 'slc5a2', to: 'NCBIGene:6524' })
  })

  test('ontology keys equal the matching id', () => {
    const bad: string[] = []
    for (const e of lexicon) {
      if (SLUG.test(e.key)) continue
      const prefix = e.key.slice(0, e.key.lastIndexOf(':'))
      const rule = KEY_ID[prefix]
      const ids = e.ids as Record<string, string>
      if (!rule || ids[rule[0]] === undefined || rule[1](ids[rule[0]]) !== e.key) bad.push(label(e))
    }
    expect(bad).toEqual([])
  })

  test('ids have a known kind and format', () => {
    const bad: string[] = []
    for (const e of lexicon) {
      for (const [kind, value] of Object.entries(e.ids)) {
        const re = ID_FORMAT[kind]
        if (!re || typeof value !== 'string' || !re.test(value)) bad.push(`${label(e)} ${kind}=${value}`)
      }
    }
    expect(bad).toEqual([])
  })
})

describe('topics, classes and targets', () => {
  test('topics are allowed slugs', () => {
    const bad = lexicon.filter((e) => e.topics.some((t) => !(TOPICS as readonly string[]).includes(t))).map(label)
    expect(bad).toEqual([])
  })

  test('only curated entries carry topics', () => {
    expect(lexicon.filter((e) => !e.curated && e.topics.length > 0).map(label)).toEqual([])
  })

  test('every topic has at least 6 entries', () => {
    const thin = TOPICS.filter((t) => lexicon.filter((e) => e.topics.includes(t)).length < 6)
    expect(thin).toEqual([])
  })

  test('only interventions have a class and targets, and every curated intervention has a class', () => {
    const bad = lexicon
      .filter((e) =>
        !e.curated
          ? e.type !== 'intervention' && (e.class !== null || e.targets.length > 0)
          : e.type === 'intervention'
            ? typeof e.class !== 'string' || !e.class.trim()
            : e.class !== null || e.targets.length > 0,
      )
      .map(label)
    expect(bad).toEqual([])
  })

  test('intervention targets are gene keys in the lexicon', () => {
    const geneKeys = new Set(entriesOfType('gene', lexicon).map((e) => e.key))
    const bad = entriesOfType('intervention', lexicon).flatMap((e) =>
      e.targets.filter((t) => !geneKeys.has(t)).map((t) => `${e.key} -> ${t}`),
    )
    expect(bad).toEqual([])
  })
})

describe('synonym lookup', () => {
  test('no curated term maps to two entries of the same type', () => {
    const owner = new Map<string, string>()
    const clashes: string[] = []
    for (const e of curatedLexicon) {
      for (const term of new Set([e.name, ...e.synonyms].map((s) => s.trim().toLowerCase()))) {
        const k = `${e.type}|${term}`
        const prev = owner.get(k)
        if (prev && prev !== e.key) clashes.push(`${e.type} "${term}": ${prev} / ${e.key}`)
        else owner.set(k, e.key)
      }
    }
    expect(clashes).toEqual([])
  })

  test('no spelling the matcher reads belongs to two entries, unless both are curated', () => {
    const owners = new Map<string, LexiconEntry[]>()
    for (const e of lexicon) {
      const matched = [
        ...(e.matchName === false ? [] : [e.name]),
        ...e.synonyms,
        ...(e.symbols ?? []),
        ...(e.abbreviations ?? []),
      ]
      for (const t of new Set(matched.map(normalizeAlias))) owners.set(t, [...(owners.get(t) ?? []), e])
    }
    const clashes = [...owners]
      .filter(([, list]) => list.length > 1 && list.some((e) => !e.curated))
      .map(([t, list]) => `${t}: ${list.map(label).join(' / ')}`)
    expect(clashes).toEqual([])
  })

  test.each([
    ['sirolimus', 'intervention', 'CHEBI:9168'],
    ['p16', 'gene', 'NCBIGene:1029'],
    ['p16INK4a', 'gene', 'NCBIGene:1029'],
    ['CDKN2A', 'gene', 'NCBIGene:1029'],
    ['NR', 'intervention', 'CHEBI:15927'],
    ['mice', 'organism', 'NCBITaxon:10090'],
    ['Glucophage', 'intervention', 'CHEBI:6801'],
  ])('resolves %s to one entry', (term, type, key) => {
    expect(findBySynonym(term)).toMatchObject({ type, key })
  })

  test('finds C. elegans case-insensitively', () => {
    expect(findBySynonym('c. elegans')?.key).toBe('NCBITaxon:6239')
  })

  test('finds rapamycin by name', () => {
    const hit = findBySynonym('Rapamycin')
    expect(hit?.type).toBe('intervention')
    expect(hit?.name).toBe('rapamycin')
  })

  test('returns undefined for unknown text', () => {
    expect(findBySynonym('no such aging term')).toBeUndefined()
  })
})

// Checked against shared read-only fixtures (org.Hs.eg.db and GO.db exports) when they are present.
const fixtureDir = fileURLToPath(new URL('../../../shared/fixtures/lexicons/', import.meta.url))
const haveFixtures = existsSync(fixtureDir)
if (!haveFixtures) console.log('lexicon: fixture checks left out because ../shared is missing')

function readTsv(name: string): string[][] {
  return readFileSync(fixtureDir + name, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.length > 0)
    .map((line) => line.split('\t'))
}

describe.if(haveFixtures)('against shared fixtures', () => {
  test('human gene ncbigene ids exist with the same symbol', () => {
    const symbolById = new Map(readTsv('human_genes_protein_coding.org_Hs_eg_db_3.16.tsv').map((r) => [r[0], r[1]]))
    const bad = entriesOfType('gene', lexicon)
      .filter((e) => !e.ids.taxon && e.name !== 'TERC') // TERC is an RNA gene, outside the protein-coding table
      .filter((e) => symbolById.get(e.ids.ncbigene!) !== e.name)
      .map((e) => `${e.name} ncbigene=${e.ids.ncbigene} fixture=${symbolById.get(e.ids.ncbigene!)}`)
    expect(bad).toEqual([])
  })

  test('GO ids exist and names match the GO term', () => {
    const terms = new Map(
      readTsv('go_terms_biological_process.GO_db_3.16.tsv').map((r) => [r[0], [r[1], ...(r[2] ?? '').split('|')]]),
    )
    const bad = lexicon
      .filter((e) => e.ids.go !== undefined)
      .filter((e) => !terms.get(e.ids.go!)?.includes(e.name))
      .map((e) => `${e.ids.go} "${e.name}"`)
    expect(bad).toEqual([])
  })
})
