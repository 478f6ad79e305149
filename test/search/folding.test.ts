/**
 * Search folds what people mean (drizzle/*_search_title_abstract_folding.sql: each query is also read in American, British and
 * Oxford spelling and with its irregular plurals swapped): a paper that says one form is found by
 * the other, both ways, and words that only look alike stay apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PostgresSearch } from '../../src/search/postgres'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let search: PostgresSearch

/** Pairs of forms that must find each other: [one form, the other]. */
const BOTH_WAYS: [string, string][] = [
  // Irregular plurals the stemmer leaves apart.
  ['mouse', 'mice'],
  ['nucleus', 'nuclei'],
  ['mitochondrion', 'mitochondria'],
  ['analysis', 'analyses'],
  ['larva', 'larvae'],
  ['fungus', 'fungi'],
  ['bacterium', 'bacteria'],
  ['criterion', 'criteria'],
  ['hypothesis', 'hypotheses'],
  ['stimulus', 'stimuli'],
  ['locus', 'loci'],
  ['cilium', 'cilia'],
  ['foramen', 'foramina'],
  ['taxon', 'taxa'],
  ['child', 'children'],
  ['woman', 'women'],
  // British and American spelling.
  ['ageing', 'aging'],
  ['haem', 'heme'],
  ['haemoglobin', 'hemoglobin'],
  ['oxyhaemoglobin', 'oxyhemoglobin'],
  ['oestrogen', 'estrogen'],
  ['oestradiol', 'estradiol'],
  ['tumour', 'tumor'],
  ['tumours', 'tumors'],
  ['tumourigenesis', 'tumorigenesis'],
  ['behaviour', 'behavior'],
  ['behavioural', 'behavioral'],
  ['anaemia', 'anemia'],
  ['leukaemia', 'leukemia'],
  ['ischaemic', 'ischemic'],
  ['hyperglycaemia', 'hyperglycemia'],
  ['haematopoietic', 'hematopoietic'],
  ['oesophageal', 'esophageal'],
  ['foetal', 'fetal'],
  ['paediatric', 'pediatric'],
  ['orthopaedic', 'orthopedic'],
  ['anaesthesia', 'anesthesia'],
  ['oedema', 'edema'],
  ['diarrhoea', 'diarrhea'],
  ['dyspnoea', 'dyspnea'],
  ['coeliac', 'celiac'],
  ['gynaecology', 'gynecology'],
  ['aetiology', 'etiology'],
  ['caesarean', 'cesarean'],
  ['faeces', 'feces'],
  ['faecal', 'fecal'],
  ['homoeostasis', 'homeostasis'],
  ['leucocyte', 'leukocyte'],
  ['sulphate', 'sulfate'],
  ['aluminium', 'aluminum'],
  ['grey', 'gray'],
  ['mould', 'mold'],
  ['centre', 'center'],
  ['fibre', 'fiber'],
  ['litre', 'liter'],
  ['millimetre', 'millimeter'],
  ['defence', 'defense'],
  ['licence', 'license'],
  ['programme', 'program'],
  ['analogue', 'analog'],
  ['homologue', 'homolog'],
  ['labelled', 'labeled'],
  ['signalling', 'signaling'],
  ['modelling', 'modeling'],
  ['colour', 'color'],
  ['flavour', 'flavor'],
  ['harbouring', 'harboring'],
  // -ise and -ize, -yse and -yze, in every form; Oxford spelling (British, with -ize) too.
  ['randomised', 'randomized'],
  ['randomisation', 'randomization'],
  ['randomise', 'randomize'],
  ['characterised', 'characterized'],
  ['hospitalised', 'hospitalized'],
  ['recognise', 'recognize'],
  ['utilising', 'utilizing'],
  ['stabilisation', 'stabilization'],
  ['ionising', 'ionizing'],
  ['organisational', 'organizational'],
  ['hypothesised', 'hypothesized'],
  ['analysed', 'analyzed'],
  ['hydrolysed', 'hydrolyzed'],
  ['anaesthetised', 'anesthetized'],
  ['anaesthetized', 'anesthetized'],
  ['anaesthetised', 'anaesthetized'],
]

/** Words that must not find each other (left: a paper's word; right: the query). */
const APART: [string, string][] = [
  ['NADH', 'NAD'],
  ['NAD', 'NADH'],
  ['indicates', 'index'],
  ['test', 'testis'],
  ['testis', 'test'],
  ['anaerobic', 'anerobic'],
  ['colorectal', 'colourful'],
  ['micelle', 'mouse'],
  ['leucine', 'leukine'],
]

/** Pairs the folding must not take apart: related words the stemmer already joined. */
const STILL_TOGETHER: [string, string][] = [
  ['excised', 'excision'],
  ['precise', 'precision'],
  ['revised', 'revision'],
  ['supervised', 'supervision'],
  ['indices', 'index'],
]

const ALL_WORDS = [...new Set([...BOTH_WAYS, ...APART, ...STILL_TOGETHER].flat())]
const paperId = (word: string) => `MED-${900000 + ALL_WORDS.indexOf(word)}`

const find = async (q: string) =>
  (await search.search({ q, filters: { minRelevance: 0 }, limit: 100, after: null })).hits.map((h) => h.id)

beforeAll(async () => {
  database = await freshDatabase()
  search = new PostgresSearch(database.db)
  // One paper per word, which it alone holds (in its abstract, to check more than titles).
  await insertPapers(
    database.db,
    ALL_WORDS.map((word) => paperRow({ id: paperId(word), title: 'A study', abstract: `We report ${word} here.` })),
  )
})
afterAll(() => database.close())

describe('forms that mean the same find each other, both ways', () => {
  test.each(BOTH_WAYS)('%s and %s', async (a, b) => {
    expect(await find(a)).toContain(paperId(b))
    expect(await find(b)).toContain(paperId(a))
  })
})

describe('words that only look alike stay apart', () => {
  test.each(APART)('a paper saying %s is not found by %s', async (word, q) => {
    expect(await find(q)).not.toContain(paperId(word))
  })
})

describe('words the stemmer already joined stay joined', () => {
  test.each(STILL_TOGETHER)('%s finds %s', async (q, word) => {
    expect(await find(q)).toContain(paperId(word))
  })
})

describe('in context', () => {
  test('a phrase, an exclusion and the title tier read every form', async () => {
    await insertPapers(database.db, [
      paperRow({ id: 'MED-950001', title: 'Rapamycin in old mice', abstract: 'Lifespan rose.' }),
      paperRow({ id: 'MED-950002', title: 'Metformin in old mouse models', abstract: 'Tumours were counted.' }),
      paperRow({ id: 'MED-950003', title: 'Metformin in old mouse models', abstract: 'Lifespan rose.' }),
    ])
    expect(await find('"old mouse"')).toEqual(expect.arrayContaining(['MED-950001', 'MED-950002', 'MED-950003']))
    expect(await find('metformin -tumor')).toEqual(['MED-950003'])
    const ranked = (await search.search({ q: 'rapamycin mouse', filters: { minRelevance: 0 }, limit: 5, after: null }))
      .hits
    expect(ranked[0].id).toBe('MED-950001') // the title holds both words, side by side: the first tier
  })
})
