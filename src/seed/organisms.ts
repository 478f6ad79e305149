/**
 * How the synthetic papers talk about their model organisms: names, strains, ages and the MeSH
 * headings an indexer would add. Keys are the lexicon's organism keys.
 */
import { Weighted } from './random'

export type OrganismKind = 'human' | 'vertebrate' | 'invertebrate'

export type Organism = {
  key: string // lexicon key (NCBITaxon:...)
  kind: OrganismKind
  latin: string
  singular: string
  plural: string
  strains: string[] // empty for humans
  ages: string[] // as an abstract states them
  mesh: string[]
}

const organism = (o: Organism) => o

export const HUMAN = organism({
  key: 'NCBITaxon:9606',
  kind: 'human',
  latin: 'Homo sapiens',
  singular: 'participant',
  plural: 'participants',
  strains: [],
  ages: [
    'aged 60 to 79 years',
    'aged 65 years or older',
    'aged 50 to 75 years',
    'aged 70 years or older',
    'aged 55 to 85 years',
    'in midlife',
  ],
  mesh: ['Humans'],
})

export const MOUSE = organism({
  key: 'NCBITaxon:10090',
  kind: 'vertebrate',
  latin: 'Mus musculus',
  singular: 'mouse',
  plural: 'mice',
  strains: ['C57BL/6J', 'UM-HET3', 'C57BL/6N', 'BALB/c', 'DBA/2J', 'Ercc1-/Δ', 'p16-3MR', 'INK-ATTAC'],
  ages: ['20-month-old', '24-month-old', '18-month-old', '12-month-old', '4-month-old', '27-month-old'],
  mesh: ['Animals', 'Mice'],
})

const VERTEBRATES: Organism[] = [
  MOUSE,
  organism({
    key: 'NCBITaxon:10116',
    kind: 'vertebrate',
    latin: 'Rattus norvegicus',
    singular: 'rat',
    plural: 'rats',
    strains: ['Fischer 344', 'Sprague-Dawley', 'Wistar', 'F344xBN'],
    ages: ['22-month-old', '24-month-old', '18-month-old', '6-month-old'],
    mesh: ['Animals', 'Rats'],
  }),
  organism({
    key: 'NCBITaxon:105023',
    kind: 'vertebrate',
    latin: 'Nothobranchius furzeri',
    singular: 'killifish',
    plural: 'turquoise killifish',
    strains: ['GRZ', 'MZM-0410'],
    ages: ['6-week-old', '12-week-old', '16-week-old'],
    mesh: ['Animals', 'Killifishes'],
  }),
  organism({
    key: 'NCBITaxon:10181',
    kind: 'vertebrate',
    latin: 'Heterocephalus glaber',
    singular: 'naked mole-rat',
    plural: 'naked mole-rats',
    strains: [],
    ages: ['2-year-old', '10-year-old', '20-year-old'],
    mesh: ['Animals', 'Mole Rats'],
  }),
  organism({
    key: 'NCBITaxon:9544',
    kind: 'vertebrate',
    latin: 'Macaca mulatta',
    singular: 'rhesus macaque',
    plural: 'rhesus macaques',
    strains: [],
    ages: ['middle-aged', '18-year-old', '22-year-old'],
    mesh: ['Animals', 'Macaca mulatta'],
  }),
  organism({
    key: 'NCBITaxon:9483',
    kind: 'vertebrate',
    latin: 'Callithrix jacchus',
    singular: 'marmoset',
    plural: 'common marmosets',
    strains: [],
    ages: ['8-year-old', 'aged', 'middle-aged'],
    mesh: ['Animals', 'Callithrix'],
  }),
  organism({
    key: 'NCBITaxon:9615',
    kind: 'vertebrate',
    latin: 'Canis lupus familiaris',
    singular: 'dog',
    plural: 'companion dogs',
    strains: [],
    ages: ['middle-aged', '7-year-old', 'senior'],
    mesh: ['Animals', 'Dogs'],
  }),
  organism({
    key: 'NCBITaxon:7955',
    kind: 'vertebrate',
    latin: 'Danio rerio',
    singular: 'zebrafish',
    plural: 'zebrafish',
    strains: ['AB', 'TU'],
    ages: ['24-month-old', '36-month-old', '6-month-old'],
    mesh: ['Animals', 'Zebrafish'],
  }),
]

const INVERTEBRATES: Organism[] = [
  organism({
    key: 'NCBITaxon:6239',
    kind: 'invertebrate',
    latin: 'Caenorhabditis elegans',
    singular: 'worm',
    plural: 'C. elegans',
    strains: ['N2', 'daf-2(e1370)', 'daf-16(mu86)', 'eat-2(ad1116)', 'glp-1(e2141)'],
    ages: ['day 1 adult', 'day 5 adult', 'day 10 adult'],
    mesh: ['Animals', 'Caenorhabditis elegans'],
  }),
  organism({
    key: 'NCBITaxon:7227',
    kind: 'invertebrate',
    latin: 'Drosophila melanogaster',
    singular: 'fly',
    plural: 'fruit flies',
    strains: ['w1118', 'Canton-S', 'Dahomey', 'daGS'],
    ages: ['3-day-old', '10-day-old', '30-day-old', '45-day-old'],
    mesh: ['Animals', 'Drosophila melanogaster'],
  }),
  organism({
    key: 'NCBITaxon:4932',
    kind: 'invertebrate',
    latin: 'Saccharomyces cerevisiae',
    singular: 'yeast cell',
    plural: 'budding yeast',
    strains: ['BY4741', 'BY4742', 'W303'],
    ages: ['replicatively aged', 'chronologically aged', 'stationary-phase'],
    mesh: ['Saccharomyces cerevisiae'],
  }),
  organism({
    key: 'NCBITaxon:4896',
    kind: 'invertebrate',
    latin: 'Schizosaccharomyces pombe',
    singular: 'fission yeast cell',
    plural: 'fission yeast',
    strains: ['972 h-', 'ED666'],
    ages: ['chronologically aged', 'quiescent'],
    mesh: ['Schizosaccharomyces'],
  }),
  organism({
    key: 'NCBITaxon:7460',
    kind: 'invertebrate',
    latin: 'Apis mellifera',
    singular: 'honey bee',
    plural: 'honey bee workers',
    strains: [],
    ages: ['forager', 'nurse', 'winter'],
    mesh: ['Animals', 'Bees'],
  }),
]

export const vertebrates = new Weighted<Organism>(
  VERTEBRATES.map((o, i) => [o, [70, 9, 6, 3, 3, 2, 4, 3][i]!] as const),
)
export const invertebrates = new Weighted<Organism>(INVERTEBRATES.map((o, i) => [o, [50, 30, 12, 4, 4][i]!] as const))

/** Cultured systems for cell studies, with the organism they come from. */
export const cellSystems = new Weighted<{ system: string; organism: Organism }>([
  [{ system: 'IMR-90 fibroblasts', organism: HUMAN }, 14],
  [{ system: 'WI-38 fibroblasts', organism: HUMAN }, 8],
  [{ system: 'primary human dermal fibroblasts', organism: HUMAN }, 10],
  [{ system: 'human umbilical vein endothelial cells', organism: HUMAN }, 8],
  [{ system: 'human mesenchymal stromal cells', organism: HUMAN }, 6],
  [{ system: 'iPSC-derived neurons', organism: HUMAN }, 6],
  [{ system: 'human skeletal muscle myoblasts', organism: HUMAN }, 5],
  [{ system: 'primary human T cells', organism: HUMAN }, 4],
  [{ system: 'human hepatocytes', organism: HUMAN }, 3],
  [{ system: 'mouse embryonic fibroblasts', organism: MOUSE }, 9],
  [{ system: 'primary mouse hepatocytes', organism: MOUSE }, 4],
  [{ system: 'mouse bone marrow-derived macrophages', organism: MOUSE }, 5],
  [{ system: 'mouse muscle stem cells', organism: MOUSE }, 3],
  [{ system: 'mouse microglia', organism: MOUSE }, 3],
])

/** Senescence inducers for cell studies. */
export const senescenceInducers = [
  'ionizing radiation (10 Gy)',
  'doxorubicin',
  'replicative exhaustion',
  'oncogenic RAS',
  'etoposide',
  'hydrogen peroxide',
  'palbociclib',
]
