/**
 * Relevance to ageing biology, judged as the guidelines say an editor does: from what the paper is about,
 * read in its title, aim and conclusion, not from which words occur anywhere. A geroscience word used as a
 * tool (rapamycin in a tumour model), a sampling frame ("patients aged 65 and over") or a disease adjective
 * ("age-related cataract") does not make a paper relevant.
 *
 * The rules, first that applies (each gives a distribution over the levels 0-3; relevance is its expected value):
 *   core       ageing itself in the title, and in the aim or conclusion or often in the abstract
 *   relevant   ageing in the title; or ageing in the aim or conclusion and again elsewhere; or an age-related
 *              disease studied through a core geroscience pathway (SIRT1 in Alzheimer's disease)
 *   tangential geriatric medicine (frailty, sarcopenia, multimorbidity as predictors or outcomes);
 *              a neurodegenerative disease as the subject without an ageing frame; a dietary-restriction-type
 *              regimen for another outcome; a canonical geroscience process as the subject outside any other
 *              disease context (in a review, the title says the subject: its abstract surveys the diseases);
 *              age as one variable among others; an ageing MeSH major topic the text does not bear
 *   unrelated  everything else, including hallmark processes studied in cancer, infection, injury or
 *              development, and ageing words that only name who was sampled
 * The distributions were set by hand and then checked against the tuning half of the hand-judged set.
 */
import type { PaperInput } from '../types'
import {
  AGEING,
  AGE_RELATED_DISEASE,
  DR_REGIMEN,
  AGE_VARIABLE,
  COGNITION,
  CORE_PATHWAY,
  GERIATRIC,
  NEURODEGENERATION,
  NEURO_ACRONYMS,
  NEURO_POPULATION,
  OTHER_CONTEXT,
  PHYSIOLOGY,
  PROCESS,
  SAMPLING_FRAME,
  SENESCENCE,
  count,
  has,
} from './cues'
import { hitsByPart, occursIn } from './part-hits'
import type { Reading, Role } from './reading'
import { round } from './study-type'

export type Levels = [number, number, number, number]
export type RelevanceResult = {
  relevance: number
  confidence: number
  probabilities: Levels
  rule: string
  evidence: RelevanceEvidence
}

const WEIGHT: Record<Role, number> = { title: 3, aim: 1.5, conclusion: 1.5, background: 0.5, body: 0.5 }

/** The evidence, by where it sits: the title counts most, then aim and conclusion, then the rest. */
export type RelevanceEvidence = {
  ageing: number // weighted ageing-as-subject mentions
  ageingTitle: number
  ageingSubject: number // aim and conclusion sentences
  ageingElsewhere: number // mentions outside title, aim and conclusion
  ageVariable: number // age as one variable in title, aim or conclusion
  neuroTitle: number
  neuroSubject: number
  neuro: number
  processTitle: number
  pathwayTitle: number // process words in the title that are not the disease TSC ("manifestations in TSC")
  processSubject: number
  processKinds: number // distinct processes named in title, aim or conclusion
  pathwaySubject: number // a core pathway named in the title, aim or conclusion
  contextTitle: number
  contextSubject: number
  physiologyTitle: number
  regimenTitle: number
  ageDiseaseSubject: number
  ageDiseaseTitle: number
  senescenceSubject: number
  cognitionSubject: number
  geriatricSubject: number // frailty, sarcopenia, multimorbidity in the title, aim or conclusion
  frame: number // sampling-frame words anywhere
  neuroPopulation: boolean // people with a neurodegenerative disease are who was studied
  review: boolean // the paper is a review: its title says its subject, its abstract surveys the contexts
}

/** Processes of one pathway count once: TSC, Rheb, mTOR and rapamycin are all the mTOR pathway. */
const FAMILIES: [RegExp, string][] = [
  [/tor|rapamycin|sirolimus|rapalog|everolimus|tsc|tuberous|tuberin|hamartin|rheb|raptor|rictor|s6k/i, 'mtor'],
  [/sirt|nad|nicotinamide|nmn/i, 'sirtuins'],
  [/autophag|mitophag/i, 'autophagy'],
  [/restriction|fasting|time-restricted/i, 'diet'],
]
const kinds = (text: string) =>
  new Set(
    (text.match(PROCESS) ?? []).map((m) => FAMILIES.find(([re]) => re.test(m))?.[1] ?? m.toLowerCase().slice(0, 6)),
  ).size

/** The disease tuberous sclerosis by its name or acronym, not its genes (TSC1, TSC2). */
const TSC_DISEASE = /\bTSC\b(?![12])|\btuberous sclerosis complex\b(?! [12])/gi

/** "Paget's disease (PD)": an acronym the record defines, with the words before its parenthesis. */
const DEFINED = /([^().;]{0,60})\((AD|PD|ALS|MCI|FTD|FTLD|DLB|HD)\)/g

/**
 * The disease acronyms a record uses as neurodegenerative diseases, null when none: an acronym means what the
 * record defines it as, so PD defined as Paget's disease, AD as atopic dermatitis or HD as haemodialysis does not
 * count (guidelines: a homonym is not the subject). An acronym used without a definition keeps its usual meaning.
 */
function neuroAcronyms(all: string): Set<string> | null {
  if (!has(NEURO_ACRONYMS, all)) return null
  const used = new Set(all.match(NEURO_ACRONYMS))
  for (const [, before, acronym] of all.matchAll(DEFINED)) if (!has(NEURODEGENERATION, before)) used.delete(acronym)
  return used.size ? used : null
}
const countAcronyms = (used: Set<string> | null, text: string) =>
  used ? (text.match(NEURO_ACRONYMS) ?? []).filter((a) => used.has(a)).length : 0

export function relevanceEvidence(r: Reading, review = false): RelevanceEvidence {
  const e: RelevanceEvidence = {
    ageing: 0,
    ageingTitle: 0,
    ageingSubject: 0,
    ageingElsewhere: 0,
    ageVariable: 0,
    neuroTitle: 0,
    neuroSubject: 0,
    neuro: 0,
    processTitle: 0,
    pathwayTitle: 0,
    processSubject: 0,
    processKinds: 0,
    pathwaySubject: 0,
    contextTitle: 0,
    contextSubject: 0,
    physiologyTitle: 0,
    regimenTitle: 0,
    ageDiseaseSubject: 0,
    ageDiseaseTitle: 0,
    senescenceSubject: 0,
    cognitionSubject: 0,
    geriatricSubject: 0,
    frame: count(SAMPLING_FRAME, r.all),
    neuroPopulation: false,
    review,
  }
  for (const { role, text } of r.parts) {
    if (role === 'title') e.contextTitle += count(OTHER_CONTEXT, text)
    else if (role === 'aim' || role === 'conclusion') e.contextSubject += count(OTHER_CONTEXT, text)
  }
  // Senescence of cancer cells is a tumour-suppressive response, not ageing (guidelines: tangential at most).
  const senescenceIsAgeing = e.contextTitle + e.contextSubject === 0
  // One pass over the whole record per cue first: most are absent from most papers.
  const acronyms = neuroAcronyms(r.all)
  const any = {
    ageing: occursIn(r, AGEING) || (senescenceIsAgeing && has(SENESCENCE, r.all)),
    neuro: has(NEURODEGENERATION, r.all) || acronyms !== null,
  }
  const ageingHits = any.ageing ? hitsByPart(r, AGEING) : null
  const senescenceHits = any.ageing && senescenceIsAgeing ? hitsByPart(r, SENESCENCE) : null
  const neuroHits = any.neuro ? hitsByPart(r, NEURODEGENERATION) : null
  r.parts.forEach(({ role, text }, i) => {
    const ageing = ageingHits ? Math.min(2, ageingHits[i] + (senescenceHits ? senescenceHits[i] : 0)) : 0
    const neuro = neuroHits ? Math.min(2, neuroHits[i] + countAcronyms(acronyms, text)) : 0
    e.ageing += ageing * WEIGHT[role]
    e.neuro += neuro
    const subject = role === 'title' || role === 'aim' || role === 'conclusion'
    if (role === 'title') {
      e.ageingTitle += ageing
      e.neuroTitle += neuro
      e.processTitle += count(PROCESS, text)
      e.pathwayTitle += count(PROCESS, text) - count(TSC_DISEASE, text)
      e.physiologyTitle += count(PHYSIOLOGY, text)
      e.regimenTitle += count(DR_REGIMEN, text)
      e.ageDiseaseTitle += count(AGE_RELATED_DISEASE, text)
    } else if (subject) {
      e.processSubject += count(PROCESS, text)
      e.ageingSubject += ageing
      e.neuroSubject += neuro
    } else e.ageingElsewhere += ageing
    if (subject) {
      e.ageVariable += count(AGE_VARIABLE, text)
      e.pathwaySubject += count(CORE_PATHWAY, text)
      e.ageDiseaseSubject += count(AGE_RELATED_DISEASE, text)
      e.cognitionSubject += count(COGNITION, text)
      e.geriatricSubject += count(GERIATRIC, text)
      e.senescenceSubject += count(SENESCENCE, text)
    }
  })
  e.neuroPopulation = any.neuro && NEURO_POPULATION.test(r.all)
  e.processKinds = kinds(r.subject)
  return e
}

/**
 * What each rule says about the four levels. Set by hand so that the expected value falls in the band the rule
 * stands for and the band's mass is near the share of the tuning half's papers under that rule that the editors
 * put in that band (so the confidence, that mass, means what it says). Within 2+, "core" leans to 3.
 */
export const DISTRIBUTIONS: Record<string, Levels> = {
  core: [0.02, 0.06, 0.3, 0.62],
  'ageing in title': [0.05, 0.2, 0.4, 0.35],
  'ageing in aim or conclusion': [0.04, 0.18, 0.46, 0.32],
  'ageing throughout the abstract': [0.04, 0.18, 0.46, 0.32],
  'cognitive ageing': [0.03, 0.17, 0.5, 0.3],
  'geriatric medicine': [0.12, 0.68, 0.15, 0.05],
  'age-related disease through a core pathway': [0.02, 0.3, 0.3, 0.38],
  'ageing in a disease context': [0.15, 0.6, 0.2, 0.05],
  neurodegeneration: [0.1, 0.75, 0.12, 0.03],
  'process as subject': [0.12, 0.72, 0.12, 0.04],
  'dietary regimen for another outcome': [0.18, 0.66, 0.12, 0.04],
  'age as one variable': [0.55, 0.38, 0.05, 0.02],
  'indexed as ageing': [0.22, 0.56, 0.16, 0.06],
  'passing ageing frame': [0.75, 0.2, 0.04, 0.01],
  unrelated: [0.92, 0.07, 0.01, 0],
}

export function ruleFor(e: RelevanceEvidence): string {
  const otherContext = e.contextTitle > 0
  // The disease is the subject when the title or the aim names it, or it recurs, or it defines who was studied.
  const neuroIsSubject = e.neuroTitle > 0 || (e.neuroSubject > 0 && e.neuro >= 2) || e.neuro >= 3 || e.neuroPopulation
  const ageDiseaseIsSubject = e.neuroTitle > 0 || e.neuroSubject >= 2 || e.ageDiseaseTitle > 0
  if (e.ageingTitle > 0 && !otherContext && (e.ageingSubject > 0 || e.ageing >= 5)) return 'core'
  if (e.ageingTitle > 0) return otherContext && e.ageing < 6 ? 'ageing in a disease context' : 'ageing in title'
  if (e.ageingSubject > 0 && e.ageing >= 2.5 && !otherContext) return 'ageing in aim or conclusion'
  if (e.ageingElsewhere >= 3 && !otherContext) return 'ageing throughout the abstract'
  if (
    ageDiseaseIsSubject &&
    e.pathwaySubject > 0 &&
    !otherContext &&
    (e.contextSubject === 0 || e.neuroTitle + e.ageDiseaseTitle > 0)
  )
    return 'age-related disease through a core pathway'
  if (e.cognitionSubject > 0 && e.neuroTitle === 0 && (e.frame > 0 || e.ageing > 0) && !otherContext)
    return 'cognitive ageing'
  if (e.geriatricSubject > 0) return 'geriatric medicine'
  if (e.neuroTitle > 0 || (neuroIsSubject && !otherContext)) return 'neurodegeneration'
  if (e.regimenTitle > 0) return 'dietary regimen for another outcome'
  // Senescence of cancer cells, or in fibrosis: a canonical process outside an ageing context.
  if (e.senescenceSubject > 0) return 'process as subject'
  // The pathway is the subject when the title names it and no disease or organ context outweighs it.
  // A review's abstract surveys the diseases a pathway touches; its title says what it is about (guidelines:
  // "mTOR signalling as the subject of a review" is tangential).
  const processIsSubject =
    e.processTitle > 0 &&
    e.contextTitle === 0 &&
    (2 * e.contextSubject <= e.processSubject || (e.review && e.pathwayTitle > 0))
  const crosstalk = e.processKinds >= 2 && e.contextSubject === 0 // two geroscience pathways together (SIRT1 and mTOR)
  if (processIsSubject && (e.physiologyTitle === 0 || crosstalk || e.ageingSubject > 0)) return 'process as subject'
  if (e.ageVariable > 0) return 'age as one variable'
  if (e.ageingSubject > 0 || e.ageing >= 2) return 'passing ageing frame'
  return 'unrelated'
}

/** MeSH major topics the indexers give papers about ageing. */
const AGEING_MESH = new RegExp(
  '^(Aging|Cell Aging|Cellular Senescence|Longevity|Aging, Premature|Rejuvenation|Healthy Aging' +
    '|Cognitive Aging|Senotherapeutics|Epigenetic Clock|Progeria|Immunosenescence)$',
)

export function judgeRelevance(paper: PaperInput, reading: Reading, review = false): RelevanceResult {
  const evidence = relevanceEvidence(reading, review)
  let rule = ruleFor(evidence)
  // MeSH is a hint, not evidence: an ageing major topic lifts a paper whose text has no ageing subject to tangential,
  // no further.
  if (
    (rule === 'unrelated' || rule === 'passing ageing frame') &&
    paper.meshHeadings.some((h) => h.major && AGEING_MESH.test(h.descriptor))
  )
    rule = 'indexed as ageing'
  const p = DISTRIBUTIONS[rule]
  const relevance = p[1] + 2 * p[2] + 3 * p[3]
  // Confidence: the probability that the band the relevance falls in (<1, 1-2, 2+) is the right one.
  const confidence = relevance < 1 ? p[0] : relevance < 2 ? p[1] : p[2] + p[3]
  return { relevance: round(relevance), confidence: round(confidence), probabilities: p, rule, evidence }
}
