/**
 * Reads the public data the lexicon is built from, in place under ../shared/fixtures (see
 * src/lexicon/SOURCES.md for origin and licence): NCBI Gene's human protein-coding genes, HAGR's
 * GenAge (human and model organisms), CellAge and DrugAge, and Open Genes.
 */
import { readFileSync } from 'node:fs'
import { sharedDir } from './literature'

/** RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes), a leading BOM dropped. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const src = text.replace(/^\uFEFF/, '')
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field || row.length) {
    row.push(field)
    rows.push(row)
  }
  const [header, ...body] = rows
  return body.filter((r) => r.length > 1 || r[0]).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])))
}

const csv = (path: string) => parseCsv(readFileSync(sharedDir + path, 'utf8'))
const present = (v: string | undefined) => v !== undefined && v !== '' && v !== 'NULL' && v !== 'n/a'

export type HumanGene = { entrez: string; symbol: string; name: string; aliases: string[] }

export function humanGenes(): HumanGene[] {
  const lines = readFileSync(`${sharedDir}lexicons/human_genes_protein_coding.org_Hs_eg_db_3.16.tsv`, 'utf8')
    .split('\n')
    .slice(1)
  return lines.filter(Boolean).map((line) => {
    const [entrez, symbol, name, aliases] = line.split('\t')
    return { entrez, symbol, name, aliases: (aliases ?? '').split('|').filter(Boolean) }
  })
}

/** Entrez ids of human genes the aging databases single out: GenAge human, CellAge, Open Genes (by symbol). */
export function agingGeneIds(genes: HumanGene[]): Set<string> {
  const bySymbol = new Map(genes.map((g) => [g.symbol, g.entrez]))
  const ids = new Set<string>()
  for (const r of csv('aging-databases/hagr/GenAgeHuman/names.csv')) if (present(r.entrez_id)) ids.add(r.entrez_id)
  for (const r of csv('aging-databases/hagr/CellAge/gene.csv')) if (present(r.entrez_id)) ids.add(r.entrez_id)
  for (const r of csv('aging-databases/open-genes/gene_criteria.sheet1.csv')) {
    const id = bySymbol.get(r.Gene)
    if (id) ids.add(id)
  }
  return ids
}

export type ModelGene = { entrez: string; symbol: string; name: string; organism: string; aliases: string[] }

export function genAgeModelGenes(): ModelGene[] {
  return csv('aging-databases/hagr/GenAgeModel/models.csv')
    .filter((r) => present(r.entrez_id) && r.entrez_id !== '0' && r.hidden !== '1')
    .map((r) => ({
      entrez: r.entrez_id,
      symbol: r.symbol.trim(),
      name: r.name.trim(),
      organism: r.organism.trim(),
      aliases: r.alias.split(/\s+/).filter(Boolean),
    }))
}

export type Compound = { id: string; name: string; cid: string | null; chebi: string | null; synonyms: string[] }

/** DrugAge's compounds with their PubChem CID, the ChEBI id its synonym list carries, and the other synonyms. */
export function drugAgeCompounds(): Compound[] {
  const synonyms = new Map<string, string[]>()
  for (const r of csv('aging-databases/hagr/DrugAge/compound_synonyms.csv')) {
    const list = synonyms.get(r.compound_id) ?? []
    if (!list.includes(r.synonym)) list.push(r.synonym)
    synonyms.set(r.compound_id, list)
  }
  return csv('aging-databases/hagr/DrugAge/compounds.csv').map((r) => {
    const all = synonyms.get(r.id) ?? []
    const chebi = all.map((s) => /^CHEBI:(\d+)$/.exec(s.trim())).find(Boolean)
    return {
      id: r.id,
      name: r.compound_name.trim(),
      cid: present(r.pubchem_cid) && /^\d+$/.test(r.pubchem_cid) ? r.pubchem_cid : null,
      chebi: chebi ? `CHEBI:${chebi[1]}` : null,
      synonyms: all.map((s) => s.trim()).filter(Boolean),
    }
  })
}

export type DrugAgeResult = {
  compoundId: string
  species: string
  avgChange: number | null
  maxChange: number | null
  significance: string
  pmid: string
}

export function drugAgeResults(): DrugAgeResult[] {
  const num = (v: string) => (present(v) && Number.isFinite(Number(v)) ? Number(v) : null)
  return csv('aging-databases/hagr/DrugAge/results.csv').map((r) => ({
    compoundId: r.compound_id,
    species: r.species.trim(),
    avgChange: num(r.avg_lifespan_change_percent),
    maxChange: num(r.max_lifespan_change_percent),
    significance: r.significance,
    pmid: r.pubmed_id,
  }))
}

export type GenAgeObservation = {
  entrez: string
  symbol: string
  organism: string
  effect: string
  pmid: string | null
}

/** GenAge model-organism lifespan observations, each with its gene and organism. */
export function genAgeObservations(): GenAgeObservation[] {
  const genes = new Map(csv('aging-databases/hagr/GenAgeModel/models.csv').map((r) => [r.id_gene, r]))
  const pmids = new Map(
    csv('aging-databases/hagr/GenAgeModel/biblio.csv').map((r) => [String(Number(r.id_biblio)), r.pubmed]),
  )
  return csv('aging-databases/hagr/GenAgeModel/longevity.csv')
    .filter((r) => r.hidden !== '1')
    .flatMap((r) => {
      const g = genes.get(r.gene_id)
      return g
        ? [
            {
              entrez: g.entrez_id,
              symbol: g.symbol,
              organism: g.organism,
              effect: r.lifespan_effect,
              pmid: pmids.get(String(Number(r.biblio_id))) ?? null,
            },
          ]
        : []
    })
}
