/**
 * Does a story's wording agree with its paper's study type and claims? Written from the taxonomy's meaning of each
 * study type (docs/judgement-guidelines.md), not from any story template: every design word a story uses
 * must name a design of that type, every population it puts the study in must be one that type is done in, and the
 * organism the paper's own claims are about must be of that kind too.
 *
 *   human_trial          an interventional study in people: trial words; people; never cohort, animal, yeast
 *   human_observational  cohorts, case-control, cross-sectional, biomarkers in people: never a trial, never animals
 *   animal               vertebrates: mice, rats, fish, primates, dogs; never people, never invertebrates
 *   invertebrate         worms, flies, yeast, other fungi, plants: never people, never vertebrates
 *   cells                cell or tissue culture, from any organism: never "in people", never a trial
 *   computational        analysis of existing data (often of cohorts): never a trial, never an animal study
 *   review               reviews and meta-analyses: never a trial or a cohort of its own
 *   other                methods, protocols, case reports, commentaries: never a trial or a cohort of its own
 */

export type StudyType =
  | 'human_trial'
  | 'human_observational'
  | 'animal'
  | 'invertebrate'
  | 'cells'
  | 'computational'
  | 'review'
  | 'other'
export type CheckedStory = { headline: string; dek: string; body: string; whyItMatters: string; caveats: string }
export type CheckedRecord = { publicationTypes: string[]; journal?: string | null }
export type CheckedClaim = { organism: string | null; evidence: string }
export type Finding = { kind: 'design' | 'organism'; problem: string }

type Kind = 'people' | 'vertebrate' | 'invertebrate'

/** Design words, each with the study types whose meaning it fits. */
const DESIGN_WORDS: [RegExp, StudyType[], string][] = [
  // A trial of this paper: singular, not a trial someone should run later.
  [
    /\btrial\b(?!\s+(?:is|are|would be|will be|should be|could be|may be)\s+(?:needed|warranted|required))/i,
    ['human_trial'],
    'trial',
  ],
  // Randomised trials are also what a review or meta-analysis brings together.
  [/\b(?<!mendelian )randomi[sz](?:ed|ation)\b|\bplacebo\b/i, ['human_trial', 'review'], 'randomised/placebo'],
  [
    /\bcohort\b|\bobservational\b|\bcross-sectional\b|\bcase-control\b/i,
    ['human_observational', 'computational'],
    'cohort/observational',
  ],
  [/\banimal (?:study|experiment)\b/i, ['animal'], 'animal study'],
  [/\binvertebrates?\b/i, ['invertebrate'], 'invertebrate'],
  [/\bcell(?:-culture)? study\b|\bcultured cells\b|\bin a dish\b|\bin vitro\b/i, ['cells', 'animal'], 'cell culture'],
  [
    /\b(?:systematic |narrative |scoping )?review\b(?! (?:board|committee))|\bmeta-analys[ie]s\b/i,
    ['review'],
    'review',
  ],
  [/\bcommentary\b|\bopinion piece\b|\beditorial\b/i, ['other'], 'commentary'],
]

/** Organism words and their kind; "in <words>" puts the study there. */
const ORGANISM_WORDS: [RegExp, Kind][] = [
  [
    /^(?:people|persons|humans?|participants|patients|(?:older |elderly |healthy |middle-aged |young )?adults|women|men|volunteers|individuals)\b/i,
    'people',
  ],
  [
    /^(?:mice|mouse|rats?|rodents|(?:turquoise )?killifish|zebrafish|medaka|fish|(?:naked )?mole-rats|(?:rhesus |cynomolgus )?macaques|monkeys|(?:common )?marmosets|primates|(?:companion )?dogs|cats|pigs|cattle|horses|rabbits|hamsters|guinea pigs|lemurs|chimpanzees)\b/i,
    'vertebrate',
  ],
  [
    /^(?:worms?|nematodes|c\. elegans|caenorhabditis|(?:fruit )?fl(?:y|ies)|drosophila|(?:budding |fission )?yeasts?|s\. cerevisiae|saccharomyces|s\. pombe|schizosaccharomyces|(?:honey )?bees?|honey bee workers|fungi|plants)\b/i,
    'invertebrate',
  ],
]
/** "in 787 older adults", "in aged mice", "in C. elegans": a population after "in", up to three words of description. */
const IN_PHRASE =
  /\bin ((?:[\d,]+ )?(?:(?:aged|old|older|young|male|female|healthy|wild-type|transgenic|obese|diabetic|laboratory|middle-aged|\d+-month-old) ){0,3})([A-Za-z][\w.-]*(?: [\w.-]+)?)((?: [\w-]+){0,4})/g
/** Material, not a population: "in human umbilical vein endothelial cells", "in mouse embryonic fibroblasts". */
const MATERIAL =
  /\b(?:cells?|fibroblasts|macrophages|myoblasts|hepatocytes|neurons|microglia|organoids|tissues?|cultures?|samples|blood|plasma|serum|lines?|explants|stromal)\b/i
/** Where the study might go next, not where it was done: "could be tested in people". */
const PROSPECT = /\b(?:could|would|should|will|might|may|must|needs? to|yet to|before)\b[^.\n]{0,40}$/i

/** What each study type may be said to be done in. */
const POPULATIONS: Record<StudyType, Kind[] | 'any'> = {
  human_trial: ['people'],
  human_observational: ['people'],
  animal: ['vertebrate'],
  invertebrate: ['invertebrate'],
  cells: [],
  computational: 'any',
  review: 'any',
  other: 'any',
}

const TRIAL_TAGS =
  /^(?:randomized controlled trial|controlled clinical trial|clinical trial(?:, phase [iv]+)?|pragmatic clinical trial)$/i
const OBSERVATIONAL_TAGS = /^(?:observational study|cohort studies|cross-sectional studies|case-control studies)$/i

/** The kind of organism a claim's organism field names (a Latin or common name), or null when it names none. */
export function organismKindOf(name: string | null): Kind | null {
  if (!name) return null
  if (/\b(?:homo sapiens|humans?|people|patients|participants)\b/i.test(name)) return 'people'
  if (
    /elegans|caenorhabditis|drosophila|saccharomyces|pombe|schizosaccharomyces|yeast|apis|\bbees?\b|worms?|nematode|fl(?:y|ies)\b|arabidopsis|podospora|neurospora/i.test(
      name,
    )
  )
    return 'invertebrate'
  return 'vertebrate'
}

/** The kinds a study type's own organism may be (cells come from any; the rest have none of their own). */
const OWN_ORGANISM: Record<StudyType, Kind[] | 'any'> = {
  human_trial: ['people'],
  human_observational: ['people'],
  animal: ['vertebrate'],
  invertebrate: ['invertebrate'],
  cells: 'any',
  computational: 'any',
  review: 'any',
  other: 'any',
}

function organismWordKind(words: string): Kind | null {
  for (const [re, kind] of ORGANISM_WORDS) if (re.test(words)) return kind
  return null
}

/** The kinds of organism a text names anywhere. */
function kindsNamed(text: string): Set<Kind> {
  const kinds = new Set<Kind>()
  for (const m of text.matchAll(/\b[A-Za-z]/g)) {
    const kind = organismWordKind(text.slice(m.index, m.index + 40))
    if (kind) kinds.add(kind)
  }
  return kinds
}

/**
 * Every disagreement between the story and its paper's study type, record tags and claims. Quoted titles are the
 * authors' words and are not read.
 */
export function checkStory(
  story: CheckedStory,
  studyType: StudyType,
  record: CheckedRecord,
  claims: CheckedClaim[],
): Finding[] {
  const findings: Finding[] = []
  // Quoted titles and the journal's name ("Writing in Human Molecular Genetics") are not the story's own words.
  let text = [story.headline, story.dek, story.body, story.whyItMatters, story.caveats]
    .join('\n')
    .replace(/"[^"\n]*"|“[^”\n]*”/g, '""')
  if (record.journal) text = text.split(record.journal).join('the journal')
  for (const [re, fits, name] of DESIGN_WORDS) {
    const hit = text.match(re)
    if (hit && !fits.includes(studyType))
      findings.push({ kind: 'design', problem: `"${hit[0]}" (${name}) in a ${studyType} story` })
  }
  const tags = record.publicationTypes.map((t) => t.trim())
  if (
    DESIGN_WORDS[0][0].test(text) &&
    tags.some((t) => OBSERVATIONAL_TAGS.test(t)) &&
    !tags.some((t) => TRIAL_TAGS.test(t))
  ) {
    findings.push({
      kind: 'design',
      problem: 'a trial in the story; the record is tagged observational and not as a trial',
    })
  }
  const allowed = POPULATIONS[studyType]
  const claimKinds = new Set<Kind>()
  for (const c of claims) {
    const kind = organismKindOf(c.organism)
    if (!kind) continue
    // A claim whose own sentence names organisms is about those (perhaps others' work, "from yeast to primates");
    // one whose sentence names none is about the paper's own organism, which the study type says.
    const named = kindsNamed(c.evidence)
    if (named.size === 0) claimKinds.add(kind)
    const own = OWN_ORGANISM[studyType]
    if (named.size > 0 ? !named.has(kind) : own !== 'any' && !own.includes(kind)) {
      findings.push({
        kind: 'organism',
        problem: `a claim gives the organism as ${c.organism} in a ${studyType} paper ("${c.evidence.slice(0, 80)}")`,
      })
    }
  }
  for (const m of text.matchAll(IN_PHRASE)) {
    const kind = organismWordKind(m[2])
    if (!kind || MATERIAL.test(`${m[2]}${m[3]}`) || PROSPECT.test(text.slice(Math.max(0, m.index - 60), m.index)))
      continue
    if (allowed !== 'any' && !allowed.includes(kind))
      findings.push({ kind: 'organism', problem: `"in ${m[1]}${m[2]}" in a ${studyType} story` })
    else if (
      kind !== 'people' &&
      (studyType === 'animal' || studyType === 'invertebrate') &&
      claimKinds.size > 0 &&
      !claimKinds.has(kind)
    ) {
      findings.push({
        kind: 'organism',
        problem: `"in ${m[2]}" while the claims are about ${[...claimKinds].join(', ')}`,
      })
    }
  }
  return findings
}
