/**
 * Topic: the paper's subject matter within the contract's list (guidelines, topic), set even when relevance is 0.
 * Each topic has its own words; a mention counts by where it sits (title most, then aim and conclusion, then the
 * rest), author keywords and MeSH headings add a little. The rules of the guidelines on top:
 *   - a mechanism topic beats a disease-area topic: SIRT1 in Alzheimer's disease is nad-sirtuins, mitophagy in
 *     neurodegeneration is mitochondria; brain-aging wins only when no mechanism is a subject of its own;
 *   - brain-aging: neurodegenerative disease, dementia, cognitive ageing and the ageing brain, not retina,
 *     neurodevelopment or general neuroscience;
 *   - epigenetic-clocks: methylation age, biological age, epigenetic drift, telomere length as an ageing marker;
 *   - inflammaging: inflammation only with an ageing frame (immune ageing, inflammageing);
 *   - autophagy has no slug: an autophagy paper is "other" unless another topic fits;
 *   - one passing mention is not a subject: below a minimum the paper is "other".
 */
import type { TopicSlug } from '../../../taxonomy'
import type { PaperInput } from '../types'
import { AGEING, NEURODEGENERATION, NEURO_ACRONYMS, has } from './cues'
import { hitsByPart, occursIn } from './part-hits'
import type { Reading, Role } from './reading'
import { round } from './study-type'

const MECHANISMS: [TopicSlug, RegExp][] = [
  [
    'senescence',
    new RegExp(
      String.raw`\b(?:senescen\w*|senolytic\w*|senomorphic\w*|senotherap\w*|SASP|p16INK4a|p16\(?INK4a\)?` +
        String.raw`|dasatinib and quercetin|fisetin|navitoclax)\b`,
      'gi',
    ),
  ],
  [
    'epigenetic-clocks',
    new RegExp(
      String.raw`\b(?:epigenetic (?:clocks?|age|ages|aging|ageing|drift)|(?:biological|methylation|DNAm` +
        '|transcriptomic) (?:age|clocks?)|GrimAge|PhenoAge|DunedinPACE|Horvath|Hannum|age acceleration' +
        String.raw`|(?:leukocyte |leucocyte )?telomere length)\b`,
      'gi',
    ),
  ],
  [
    'mtor-rapamycin',
    new RegExp(
      String.raw`\b(?:m?TOR(?:C[12])?|mechanistic target of rapamycin|mammalian target of rapamycin` +
        '|target of rapamycin|rapamycin|sirolimus|rapalogs?|everolimus|temsirolimus|TSC[12]?' +
        '|tuberous sclerosis complex(?: [12])?|tuberous sclerosis|tuberin|hamartin|Rheb|raptor|rictor' +
        String.raw`|S6K1?|4E-BP1)\b`,
      'gi',
    ),
  ],
  [
    'reprogramming',
    new RegExp(
      String.raw`\b(?:(?:partial|cellular|in vivo|epigenetic|transient) reprogramming|induced pluripotent|iPSCs?` +
        String.raw`|Yamanaka factors|OSKM?|Oct4|Sox2|Klf4)\b`,
      'gi',
    ),
  ],
  [
    'nad-sirtuins',
    new RegExp(
      String.raw`\b(?:sirtuins?|SIRT[1-7]|NAD\+|NAD(?![(P]|P?H)|nicotinamide (?:riboside|mononucleotide` +
        String.raw`|adenine dinucleotide)|NMN|NAMPT|CD38)\b`,
      'gi',
    ),
  ],
  [
    'mitochondria',
    new RegExp(
      String.raw`\b(?:mitochondri\w*|mitophag\w*|oxidative phosphorylation|OXPHOS|mtDNA|respiratory chain` +
        String.raw`|electron transport chain|PGC-1α|PGC-1alpha|PINK1|Parkin\b)`,
      'gi',
    ),
  ],
  [
    'dietary-restriction',
    new RegExp(
      String.raw`\b(?:(?:caloric|calorie|dietary|protein|methionine) restriction|intermittent fasting` +
        '|time-restricted (?:eating|feeding)|alternate-day fasting|fasting-mimicking|periodic fasting' +
        '|(?:CR|restriction) mimetics?|fasting(?! (?:glucose|insulin|plasma|blood|serum|lipids?|state' +
        String.raw`|levels?|conditions)))\b`,
      'gi',
    ),
  ],
  [
    'glp-1',
    new RegExp(
      String.raw`\b(?:GLP-1(?: receptor)?(?: agonists?)?|glucagon-like peptide(?:-1| 1)|semaglutide|liraglutide` +
        String.raw`|exenatide|tirzepatide|dulaglutide|incretins?)\b`,
      'gi',
    ),
  ],
]
const INFLAMMATION = new RegExp(
  String.raw`\b(?:inflamm-?aging|inflammageing|inflammation|inflammatory|cytokines?|interleukin-?\d*|IL-?6|TNF` +
    String.raw`|NF-?κB|NF-?kappaB|inflammasomes?|NLRP3|immunosenescen\w*|immune (?:ageing|aging|senescence)` +
    String.raw`|immunity|vaccin\w*|antibody responses?)\b`,
  'gi',
)
const BRAIN = new RegExp(
  String.raw`\b(?:brain (?:aging|ageing)|cognitive (?:aging|ageing|decline|function|performance|impairment)` +
    String.raw`|cognition|memory|dementia|hippocamp\w*|white matter|neuroplasticity)\b`,
  'gi',
)
/** Where neurology is not brain ageing: the eye, development, psychiatry, epilepsy, injury. */
const NOT_BRAIN = new RegExp(
  String.raw`\b(?:retina\w*|glaucoma|macular|photoreceptors?|neurodevelopment\w*|autis\w*|epilep\w*|seizures?` +
    String.raw`|schizophren\w*|depress\w*|traumatic brain injury|TBI|stroke)\b`,
  'gi',
)

const WEIGHT: Record<Role, number> = { title: 3, aim: 1.5, conclusion: 1.5, background: 0.5, body: 0.5 }

export type TopicResult = { topic: TopicSlug; confidence: number }

/** A paper's keywords and MeSH descriptors each joined once, for a first test of every cue against them all. */
type Joined = { keywords: string; mesh: string }
const joinedOf = (paper: PaperInput): Joined => ({
  keywords: paper.keywords.join(' | '),
  mesh: paper.meshHeadings.map((h) => h.descriptor).join(' | '),
})

function scoreOf(re: RegExp, reading: Reading, paper: PaperInput, joined: Joined): number {
  let score = 0
  const hits = hitsByPart(reading, re)
  reading.parts.forEach(({ role }, i) => {
    score += WEIGHT[role] * Math.min(2, hits[i])
  })
  if (paper.keywords.length && has(re, joined.keywords))
    score += Math.min(2, paper.keywords.filter((k) => has(re, k)).length)
  if (paper.meshHeadings.length && has(re, joined.mesh)) {
    for (const h of paper.meshHeadings) if (has(re, h.descriptor)) score += h.major ? 1.5 : 0.5
  }
  return score
}

/** The minimum score of a subject: a title mention, or a term repeated in aim, conclusion and body. */
const SUBJECT = 3

export function classifyTopic(
  paper: PaperInput,
  reading: Reading,
  options: { cognitiveAgeing?: boolean } = {},
): TopicResult {
  const scores = new Map<TopicSlug, number>()
  const joined = joinedOf(paper)
  for (const [topic, re] of MECHANISMS) scores.set(topic, scoreOf(re, reading, paper, joined))
  const ageing =
    occursIn(reading, AGEING) ||
    paper.meshHeadings.some((h) => /^(Aging|Cellular Senescence|Immunosenescence)/.test(h.descriptor))
  // Inflammation counts as inflammaging only within an ageing frame.
  scores.set('inflammaging', ageing ? scoreOf(INFLAMMATION, reading, paper, joined) * 0.8 : 0)
  const neuro =
    scoreOf(NEURODEGENERATION, reading, paper, joined) +
    scoreOf(NEURO_ACRONYMS, reading, paper, joined) * 0.5 +
    scoreOf(BRAIN, reading, paper, joined) * (ageing || options.cognitiveAgeing ? 0.8 : 0.3)
  const notBrain = scoreOf(NOT_BRAIN, reading, paper, joined)
  const brain = notBrain >= neuro ? 0 : neuro + (options.cognitiveAgeing ? SUBJECT : 0)

  let best: TopicSlug = 'other'
  let top = 0
  let total = 0
  for (const [topic, score] of scores) {
    total += score
    if (score > top) {
      best = topic
      top = score
    }
  }
  // A mechanism that is a subject of its own beats the disease area it is studied in.
  if (top < SUBJECT && brain >= SUBJECT)
    return { topic: 'brain-aging', confidence: round(Math.min(0.9, 0.5 + brain / 25)) }
  if (top < SUBJECT)
    return { topic: 'other', confidence: round(total + brain === 0 ? 0.8 : 0.65 - Math.min(top, 3) / 15) }
  const share = top / (total + brain * 0.5)
  return { topic: best, confidence: round(Math.min(0.92, 0.45 + 0.45 * share * Math.min(1, top / 6))) }
}
