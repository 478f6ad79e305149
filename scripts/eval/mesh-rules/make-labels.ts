/**
 * Applies the rules of LABELLING.md to the recorded Europe PMC records and writes labelled-set.json
 * (ids and labels only). Run once: `bun scripts/eval/mesh-rules/make-labels.ts`. Independent of src/pipeline/analysis:
 * it reads the raw records itself (the indexers' own major-topic flags, publication types as recorded).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CONSISTENCY_FILES } from './files'
import { fixturesDir } from '../records'

type RawRecord = {
  id: string
  source: string
  pubTypeList?: { pubType: string[] | string }
  meshHeadingList?: { meshHeading: { descriptorName: string; majorTopic_YN?: string }[] }
}
const paperId = (r: RawRecord) => `${r.source}-${r.id.replace(/^[A-Z]+/, '')}`

/** Every core record of the fixture files, by paper id (the first copy wins). */
function readRecords(): Map<string, RawRecord> {
  const byId = new Map<string, RawRecord>()
  for (const file of CONSISTENCY_FILES) {
    const body = JSON.parse(readFileSync(fixturesDir + file, 'utf8')) as { resultList: { result: RawRecord[] } }
    for (const r of body.resultList.result) if (!byId.has(paperId(r))) byId.set(paperId(r), r)
  }
  return byId
}

const any = (names: string[], list: string[]) =>
  names.some((n) => list.some((h) => h === n || h.startsWith(n + ',') || h.startsWith(n + ' ')))

function studyType(types: string[], mesh: string[]): string {
  const t = types.map((x) => x.toLowerCase())
  if (t.some((x) => ['review', 'systematic review', 'meta-analysis', 'review-article'].includes(x))) return 'review'
  if (
    t.some(
      (x) =>
        x.startsWith('clinical trial') ||
        ['randomized controlled trial', 'controlled clinical trial', 'pragmatic clinical trial'].includes(x),
    )
  )
    return 'human_trial'
  if (
    any(
      [
        'Caenorhabditis elegans',
        'Drosophila',
        'Drosophila melanogaster',
        'Saccharomyces',
        'Saccharomyces cerevisiae',
        'Schizosaccharomyces',
        'Yeasts',
      ],
      mesh,
    )
  )
    return 'invertebrate'
  if (
    any(
      [
        'Mice',
        'Rats',
        'Dogs',
        'Cats',
        'Swine',
        'Macaca',
        'Primates',
        'Zebrafish',
        'Killifishes',
        'Mole Rats',
        'Rabbits',
        'Sheep',
        'Cattle',
        'Cricetinae',
        'Disease Models, Animal',
        'Xenograft Model Antitumor Assays',
      ],
      mesh,
    )
  )
    return 'animal'
  if (any(['Cell Line', 'Cells, Cultured'], mesh) || mesh.some((h) => /^[A-Z0-9][\w-]* Cells$/.test(h) && /\d/.test(h)))
    return 'cells'
  const computational = any(
    [
      'Computational Biology',
      'Computer Simulation',
      'Machine Learning',
      'Deep Learning',
      'Algorithms',
      'Software',
      'Models, Theoretical',
      'Databases, Genetic',
    ],
    mesh,
  )
  if (computational && !mesh.includes('Animals')) return 'computational'
  if (mesh.includes('Humans')) return 'human_observational'
  return 'other'
}

const TOPIC_HEADINGS: [string, string[]][] = [
  [
    'senescence',
    ['Cellular Senescence', 'Cell Aging', 'Senescence-Associated Secretory Phenotype', 'Senotherapeutics'],
  ],
  ['epigenetic-clocks', ['Epigenetic Clock']],
  [
    'mtor-rapamycin',
    ['TOR Serine-Threonine Kinases', 'Mechanistic Target of Rapamycin Complex', 'Sirolimus', 'Everolimus'],
  ],
  [
    'reprogramming',
    [
      'Cellular Reprogramming',
      'Induced Pluripotent Stem Cells',
      'Kruppel-Like Factor 4',
      'Octamer Transcription Factor-3',
      'SOXB1 Transcription Factors',
    ],
  ],
  ['nad-sirtuins', ['NAD', 'Sirtuins', 'Sirtuin 1', 'Sirtuin 3', 'Nicotinamide Mononucleotide', 'Niacinamide']],
  [
    'mitochondria',
    [
      'Mitochondria',
      'Mitophagy',
      'Mitochondrial Dynamics',
      'Membrane Potential, Mitochondrial',
      'DNA, Mitochondrial',
      'Oxidative Phosphorylation',
    ],
  ],
  ['dietary-restriction', ['Caloric Restriction', 'Fasting', 'Intermittent Fasting', 'Diet, Reducing']],
  [
    'glp-1',
    [
      'Glucagon-Like Peptide-1 Receptor',
      'Glucagon-Like Peptide 1',
      'Semaglutide',
      'Liraglutide',
      'Exenatide',
      'Tirzepatide',
    ],
  ],
  [
    'inflammaging',
    ['Inflammation', 'Inflammasomes', 'NLR Family, Pyrin Domain-Containing 3 Protein', 'Cytokines', 'Interleukin-6'],
  ],
  [
    'brain-aging',
    [
      'Brain',
      'Alzheimer Disease',
      'Parkinson Disease',
      'Neurodegenerative Diseases',
      'Dementia',
      'Cognitive Dysfunction',
      'Cognitive Aging',
      'Neurons',
      'Hippocampus',
    ],
  ],
]

function topic(headings: { name: string; major: boolean }[]): string {
  const names = headings.map((h) => h.name)
  const votes = new Map<string, number>()
  for (const h of headings) {
    let slug = TOPIC_HEADINGS.find(([, list]) =>
      list.some((n) => h.name === n || h.name.startsWith(n + ',') || h.name.startsWith(n + ' ')),
    )?.[0]
    if (!slug && h.name === 'DNA Methylation' && (names.includes('Aging') || names.includes('Age Factors')))
      slug = 'epigenetic-clocks'
    if (slug) votes.set(slug, (votes.get(slug) ?? 0) + (h.major ? 2 : 1))
  }
  let best = 'other'
  let top = 0
  for (const [slug] of TOPIC_HEADINGS)
    if ((votes.get(slug) ?? 0) > top) {
      best = slug
      top = votes.get(slug)!
    }
  return best
}

const AGING = [
  'Aging',
  'Cell Aging',
  'Cellular Senescence',
  'Longevity',
  'Aging, Premature',
  'Rejuvenation',
  'Healthy Aging',
  'Cognitive Aging',
  'Senotherapeutics',
  'Epigenetic Clock',
  'Life Expectancy',
  'Progeria',
]
const TANGENTIAL = [
  'Autophagy',
  'Mitophagy',
  'Mitochondria',
  'Oxidative Stress',
  'Proteostasis Deficiencies',
  'Unfolded Protein Response',
  'Telomere',
  'DNA Damage',
  'DNA Repair',
  'Sirtuins',
  'NAD',
  'TOR Serine-Threonine Kinases',
  'Sirolimus',
  'AMP-Activated Protein Kinases',
  'Caloric Restriction',
  'Fasting',
  'Stem Cells',
  'Inflammation',
  'Epigenesis, Genetic',
  'DNA Methylation',
  'Alzheimer Disease',
  'Parkinson Disease',
  'Neurodegenerative Diseases',
  'Dementia',
  'Sarcopenia',
  'Frailty',
  'Osteoporosis',
  'Atherosclerosis',
  'Cardiovascular Diseases',
]

function relevanceBand(mesh: string[]): string {
  if (mesh.some((h) => AGING.includes(h))) return '2+'
  if (any(TANGENTIAL, mesh)) return '1-2'
  return '<1'
}

export function label(r: RawRecord) {
  const headings = (r.meshHeadingList?.meshHeading ?? []).map((h) => ({
    name: h.descriptorName,
    major: h.majorTopic_YN === 'Y',
  }))
  const mesh = headings.map((h) => h.name)
  const types = r.pubTypeList?.pubType ?? []
  return {
    id: paperId(r),
    study_type: studyType(Array.isArray(types) ? types : [types], mesh),
    topic: topic(headings),
    relevance_band: relevanceBand(mesh),
  }
}

if (import.meta.main) {
  const labelled = [...readRecords().values()]
    .filter((r) => (r.meshHeadingList?.meshHeading ?? []).length > 0)
    .map(label)
  const out = fileURLToPath(new URL('./labelled-set.json', import.meta.url))
  writeFileSync(
    out,
    JSON.stringify({ rules: 'scripts/eval/mesh-rules/LABELLING.md', papers: labelled }, null, 1) + '\n',
  )
  console.log(`${labelled.length} papers labelled into ${out}`)
}
