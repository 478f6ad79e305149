/** The contract's closed vocabularies: study types (with display labels) and topics. */

export const STUDY_TYPES = [
  'human_trial',
  'human_observational',
  'animal',
  'invertebrate',
  'cells',
  'computational',
  'review',
  'other',
] as const
export type StudyType = (typeof STUDY_TYPES)[number]

export const STUDY_TYPE_LABELS: Record<StudyType, string> = {
  human_trial: 'Human trial',
  human_observational: 'Human observational',
  animal: 'Animal study',
  invertebrate: 'Invertebrate study',
  cells: 'Cell study',
  computational: 'Computational',
  review: 'Review',
  other: 'Other',
}

export const TOPICS = [
  'senescence',
  'epigenetic-clocks',
  'mtor-rapamycin',
  'reprogramming',
  'nad-sirtuins',
  'mitochondria',
  'dietary-restriction',
  'glp-1',
  'inflammaging',
  'brain-aging',
  'other',
] as const
export type TopicSlug = (typeof TOPICS)[number]

export type TopicInfo = { slug: TopicSlug; name: string; description: string }

export const TOPIC_INFO: readonly TopicInfo[] = [
  {
    slug: 'senescence',
    name: 'Cellular senescence',
    description: 'Senescent cells, the SASP, senolytics and senomorphics.',
  },
  {
    slug: 'epigenetic-clocks',
    name: 'Epigenetic clocks',
    description: 'DNA-methylation and other molecular clocks that measure biological age.',
  },
  {
    slug: 'mtor-rapamycin',
    name: 'mTOR and rapamycin',
    description: 'mTOR signalling, rapamycin and rapalogs, nutrient sensing.',
  },
  {
    slug: 'reprogramming',
    name: 'Reprogramming',
    description: 'Partial and full cellular reprogramming for rejuvenation.',
  },
  { slug: 'nad-sirtuins', name: 'NAD+ and sirtuins', description: 'NAD+ metabolism, its precursors and the sirtuins.' },
  {
    slug: 'mitochondria',
    name: 'Mitochondria',
    description: 'Mitochondrial function, mitophagy and energy metabolism in aging.',
  },
  {
    slug: 'dietary-restriction',
    name: 'Dietary restriction',
    description: 'Caloric restriction, fasting and restriction mimetics.',
  },
  { slug: 'glp-1', name: 'GLP-1 drugs', description: 'GLP-1 receptor agonists and related incretin drugs in aging.' },
  {
    slug: 'inflammaging',
    name: 'Inflammaging',
    description: 'Chronic low-grade inflammation with age and its drivers.',
  },
  { slug: 'brain-aging', name: 'Brain aging', description: 'Cognitive aging, neurodegeneration and the aging brain.' },
  { slug: 'other', name: 'Other', description: 'Aging biology outside the named topics.' },
]

/** Relevance bands of docs/contract-decisions.md. */
export const AGING_RELEVANCE = 2
export const CORE_RELEVANCE = 2.5
export const TANGENTIAL_RELEVANCE = 1

/** Abstract licences that allow reuse: the abstract, claim evidence and entity mentions are served only under these. */
export const OPEN_LICENSES = ['cc by', 'cc0', 'public domain'] as const

export function licenseAllowsReuse(license: string | null): boolean {
  return license !== null && (OPEN_LICENSES as readonly string[]).includes(license)
}
