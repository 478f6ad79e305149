/**
 * The built-in judgement: relevance to aging biology, topic, newsworthiness and promotional
 * likelihood, from MeSH headings, keywords, lexicon mentions and a few text cues. Relevance is the
 * expected value of a probability distribution over the four levels, as the contract defines it.
 */
import type { LexiconEntry } from '../../lexicon/lexicon'
import { TOPICS, type StudyType, type TopicSlug } from '../../taxonomy'
import type { PaperInput } from '../types'
import { lookupTerm, type Mention } from './matcher'
import { round } from './study-type'

const AGING_MESH = new Set(['Aging', 'Cell Aging', 'Cellular Senescence', 'Longevity', 'Aging, Premature', 'Rejuvenation',
  'Healthy Aging', 'Cognitive Aging', 'Senotherapeutics', 'Epigenetic Clock', 'Life Expectancy', 'Progeria', 'Geroscience', 'Senescence'])
const AGING_TEXT = /\b(aging|ageing|age-related|age-associated|longevity|life-?span|health-?span|senescen\w*|senolytic\w*|geroscience|geroprotect\w*|rejuvenat\w*|epigenetic (age|clock)\w*|biological age|progeri\w*|centenarians?|anti-aging|hallmarks of aging)\b/gi
/** Hallmark processes and age-related diseases: a paper about them touches aging biology without being about aging. */
const TANGENTIAL_TEXT = /\b(autophag\w*|mitophag\w*|epigenetic\w*|DNA methylation|histone|mitochondri\w*|oxidative stress|telomer\w*|sirtuins?|NAD\+|mTOR|proteostasis|unfolded protein response|stem cells?|inflammation|inflammasome|neurodegenerat\w*|Alzheimer\w*|Parkinson\w*|dementia|sarcopenia|frailty|osteoporosis|atherosclerosis|DNA damage|DNA repair)\b/gi
const AGING_WORD = new RegExp(AGING_TEXT.source, 'i')
const AGE_RELATED_DISEASE = /^(Alzheimer|Parkinson|Neurodegenerative|Dementia|Sarcopenia|Frailty|Osteoporosis|Atherosclerosis|Cardiovascular Diseases|Osteoarthritis|Macular Degeneration|Cognitive Dysfunction)/
const HALLMARK_MESH = /^(Autophagy|Mitophagy|Mitochondria|Oxidative Stress|Proteostasis|Unfolded Protein Response|Telomere|DNA Damage|DNA Repair|Sirtuin|NAD$|TOR Serine|Sirolimus|AMP-Activated|Caloric Restriction|Fasting|Stem Cells|Inflammation|Epigenesis, Genetic|DNA Methylation|Insulin-Like Growth Factor|Reactive Oxygen Species)/

/** MeSH descriptors that mark a topic but do not name a lexicon entry. */
const MESH_TOPICS: [RegExp, TopicSlug][] = [
  [/^(Cellular Senescence|Cell Aging|Senescence-Associated|Senotherapeutics)/, 'senescence'],
  [/^(TOR Serine-Threonine Kinases|Mechanistic Target of Rapamycin|Sirolimus|Everolimus)/, 'mtor-rapamycin'],
  [/^(Cellular Reprogramming|Induced Pluripotent Stem Cells)/, 'reprogramming'],
  [/^(NAD$|Sirtuin|Nicotinamide)/, 'nad-sirtuins'],
  [/^(Mitochondria|Mitophagy|Mitochondrial|Membrane Potential, Mitochondrial|DNA, Mitochondrial|Oxidative Phosphorylation)/, 'mitochondria'],
  [/^(Caloric Restriction|Fasting|Intermittent Fasting|Diet, Reducing)/, 'dietary-restriction'],
  [/^(Glucagon-Like Peptide|Semaglutide|Liraglutide|Exenatide)/, 'glp-1'],
  [/^(Inflammation|Inflammasomes|NLR Family|Cytokines|Interleukin-6)/, 'inflammaging'],
  [/^(Brain|Alzheimer|Parkinson|Neurodegenerative|Dementia|Cognitive Dysfunction|Cognitive Aging|Neurons|Hippocampus)/, 'brain-aging'],
]

export type TextView = { title: string; abstract: string; titleMentions: Mention[]; abstractMentions: Mention[] }

export type TopicResult = { topic: TopicSlug; confidence: number }

export function classifyTopic(paper: PaperInput, view: TextView): TopicResult {
  const votes = new Map<TopicSlug, number>()
  const vote = (entry: LexiconEntry | undefined, weight: number) => {
    for (const t of entry?.topics ?? []) votes.set(t, (votes.get(t) ?? 0) + weight)
  }
  for (const m of view.titleMentions) vote(m.entry, 3)
  const seen = new Map<string, number>()
  for (const m of view.abstractMentions) {
    const key = `${m.entry.type}:${m.entry.key}`
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    if (n <= 3) vote(m.entry, 1) // a term repeated ten times is still one subject
  }
  for (const k of paper.keywords) vote(lookupTerm(k), 1.5)
  for (const h of paper.meshHeadings) {
    const weight = h.major ? 3 : 1.5
    const topic = MESH_TOPICS.find(([re]) => re.test(h.descriptor))?.[1]
    if (topic) votes.set(topic, (votes.get(topic) ?? 0) + weight)
    else vote(lookupTerm(h.descriptor), weight)
  }
  // Epigenetic clocks measure age: methylation work with no aging or clock cue belongs elsewhere.
  const clockCue = [...view.titleMentions, ...view.abstractMentions].some((m) => m.entry.type === 'biomarker' && m.entry.topics.includes('epigenetic-clocks'))
  if (!clockCue && !AGING_WORD.test(`${view.title} ${view.abstract}`) && !paper.meshHeadings.some((h) => AGING_MESH.has(h.descriptor))) votes.delete('epigenetic-clocks')
  let best: TopicSlug = 'other'
  let top = 0
  let total = 0
  for (const t of TOPICS) {
    const v = votes.get(t) ?? 0
    total += v
    if (v > top) { best = t; top = v }
  }
  // One passing mention is not a subject: below this the paper is filed under "other".
  if (top < 3 || top / total < 0.4) return { topic: 'other', confidence: round(total === 0 ? 0.7 : 0.5 - Math.min(top, 4) / 20) }
  return { topic: best, confidence: round(Math.min(0.95, 0.4 + 0.5 * (top / total) * Math.min(1, top / 10))) }
}

export type RelevanceResult = { relevance: number; confidence: number; probabilities: [number, number, number, number] }

export function judgeRelevance(paper: PaperInput, view: TextView): RelevanceResult {
  const titleAging = (view.title.match(AGING_TEXT) ?? []).length
  const abstractAging = (view.abstract.match(AGING_TEXT) ?? []).length
  const keywordAging = paper.keywords.filter((k) => AGING_WORD.test(k)).length
  const meshAging = paper.meshHeadings.filter((h) => AGING_MESH.has(h.descriptor))
  const meshTangential = paper.meshHeadings.filter((h) => HALLMARK_MESH.test(h.descriptor) || AGE_RELATED_DISEASE.test(h.descriptor)).length
  const hallmarkMentions = new Set([...view.titleMentions, ...view.abstractMentions]
    .filter((m) => m.entry.type === 'hallmark' || m.entry.topics.length > 0 || ['phenotype', 'biomarker'].includes(m.entry.type))
    .map((m) => m.entry.key)).size

  // Evidence that the paper is about aging itself, and evidence that it touches aging biology.
  const core = (meshAging.some((h) => h.major) ? 3 : meshAging.length ? 2 : 0) + Math.min(titleAging, 2) * 1.5
    + Math.min(abstractAging, 4) * 0.35 + Math.min(keywordAging, 2) * 0.75
  const titleTouch = (view.title.match(TANGENTIAL_TEXT) ?? []).length
  const abstractTouch = (view.abstract.match(TANGENTIAL_TEXT) ?? []).length
  const touch = Math.min(meshTangential, 3) * 0.8 + Math.min(hallmarkMentions, 5) * 0.2 + Math.min(titleTouch, 2) * 0.8 + Math.min(abstractTouch, 5) * 0.15
  const hasStructure = paper.meshHeadings.length > 0

  let p: [number, number, number, number]
  if (core >= 4) p = [0.01, 0.04, 0.35, 0.6]
  else if (core >= 2.5) p = [0.02, 0.13, 0.55, 0.3]
  else if (core >= 1.5) p = hasStructure ? [0.1, 0.5, 0.3, 0.1] : [0.05, 0.3, 0.5, 0.15]
  else if (touch >= 0.8 || core >= 0.7) p = [0.15, 0.65, 0.17, 0.03]
  else if (touch > 0) p = [0.6, 0.33, 0.06, 0.01]
  else p = [0.9, 0.08, 0.02, 0]
  const relevance = p[1] + 2 * p[2] + 3 * p[3]
  // Confidence: how concentrated the distribution is, lowered when the record has no MeSH to confirm it.
  const peak = Math.max(...p)
  return { relevance: round(relevance), confidence: round(Math.min(0.97, peak * (hasStructure ? 1.05 : 0.85) + 0.1)), probabilities: p }
}

const TOP_JOURNALS = /^(nature|science|cell|the lancet|lancet|new england journal of medicine|jama|nature medicine|nature aging|cell metabolism|cell stem cell|nature communications|science translational medicine|aging cell|geroscience|nature cell biology|the bmj|bmj)$/i
const NOVELTY = /\b(first|novel|unprecedented|for the first time|previously unknown|reverses?d?|rejuvenat\w*)\b/i

export function judgeNewsworthiness(paper: PaperInput, relevance: number, studyType: StudyType, view: TextView, strongClaims: number): number {
  if (relevance < 1) return 0
  let score = 0.4
  score += { human_trial: 1.1, human_observational: 0.6, animal: 0.6, invertebrate: 0.3, cells: 0.1, computational: 0.2, review: -0.3, other: -0.4 }[studyType]
  if (relevance >= 2) score += 0.6
  if (relevance >= 2.5) score += 0.3
  if (TOP_JOURNALS.test(paper.journal.trim())) score += 0.5
  if (NOVELTY.test(view.title) || NOVELTY.test(view.abstract)) score += 0.2
  score += Math.min(strongClaims, 2) * 0.25
  if (!paper.abstract) score -= 0.5
  if (paper.preprint) score -= 0.1
  const capped = relevance < 2 ? Math.min(score, 1) : score
  return Math.max(0, Math.min(3, Math.floor(capped)))
}

const PROMO = /(®|™|\bbuy\b|\bshop\b|\bdiscount\b|\border now\b|\bour (product|supplement|formula)\b|\bsponsored\b|\bpress release\b|\bavailable (now|at)\b|\bclinically proven\b|\bfree shipping\b|\bcustomers?\b)/gi

export function judgePromotional(paper: PaperInput, view: TextView): number {
  const hits = (`${view.title} ${view.abstract}`.match(PROMO) ?? []).length
  const researchy = paper.meshHeadings.length > 0 || /\b(we|results|methods|significantly|p ?[<=])\b/i.test(view.abstract)
  const p = 0.02 + hits * 0.2 + (researchy ? 0 : 0.1) + (paper.abstract ? 0 : 0.05)
  return round(Math.min(0.98, p))
}
