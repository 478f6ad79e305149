/**
 * Stories in plain words for newsworthy papers, assembled from what the analysis found (study type,
 * organism, intervention, claims with their direction and magnitude) rather than copied from the
 * abstract, so a story never republishes text whose licence forbids it. Caveats always name the
 * study type and the organism.
 */
import { TOPIC_INFO } from '../../../taxonomy'
import { findMentions, lookupTerm } from '../../../lexicon/matcher'
import { designPhrase, fitsStudyType, HUMAN, population, studyOrganism } from '../story-words'
import type { FoundClaim, FoundEntity, Judgement, PaperInput, StoryDraft } from '../types'

const VERB: Record<string, [string, string]> = {
  // [headline present tense, body past tense]
  extends_lifespan: ['extends', 'extended'],
  increases: ['raises', 'increased'],
  decreases: ['lowers', 'reduced'],
  protects_against: ['protects against', 'protected against'],
  associated_with: ['is linked to', 'was associated with'],
  no_effect_on: ['does not change', 'did not change'],
}

/** The lexicon key of the organism a claim is about (claims carry its Latin name), or null. */
function claimOrganismKey(c: FoundClaim): string | null {
  const entry = c.organism ? lookupTerm(c.organism) : undefined
  return entry?.type === 'organism' ? entry.key : null
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const article = (s: string) => (/^[aeiou]/i.test(s) ? `an ${s}` : `a ${s}`)

function clause(c: FoundClaim, tense: 0 | 1): string {
  const verb = VERB[c.relation]?.[tense] ?? c.relation.replace(/_/g, ' ')
  const object =
    c.relation === 'extends_lifespan' ? (c.object.entity?.name ?? 'lifespan') : (c.object.entity?.name ?? c.object.text)
  const subject = c.subject.entity?.name ?? c.subject.text
  const by = c.magnitude && tense === 1 && /%|fold/.test(c.magnitude) ? ` by ${c.magnitude}` : ''
  return `${subject} ${verb} ${object}${by}`
}

export function writeStory(
  paper: PaperInput,
  judgement: Judgement,
  entities: FoundEntity[],
  claims: FoundClaim[],
): StoryDraft {
  // Design and population come from the judgement and the record (story-words.ts): the organism is the one the
  // study type allows, so a yeast named in the background never becomes a trial's population.
  // Only an organism the title or abstract names: the story reports the abstract, and an indexer's heading alone
  // ("Mice" on an abstract that says "animals") is not something the abstract says.
  const named = new Set(
    findMentions(`${paper.title}\n${paper.abstract ?? ''}`)
      .filter((m) => m.entry.type === 'organism')
      .map((m) => m.entry.key),
  )
  const organismKey = studyOrganism(judgement.studyType, [
    ...entities.filter((e) => e.type === 'organism' && e.role === 'model' && named.has(e.key)).map((e) => e.key),
  ])
  const organism = organismKey ? entities.find((e) => e.type === 'organism' && e.key === organismKey) : undefined
  const where = population(judgement.studyType, organismKey)
  const design = designPhrase(judgement.studyType, paper)
  const topic = TOPIC_INFO.find((t) => t.slug === judgement.topic)!
  const intervention = entities.find((e) => e.type === 'intervention' && e.role === 'studied')
  const weight = (c: FoundClaim) =>
    c.confidence +
    (c.magnitude ? 0.1 : 0) +
    (c.relation === 'extends_lifespan' ? 0.1 : 0) +
    (c.context?.primary ? 0.05 : 0)
  const distinct = new Map<string, FoundClaim>()
  // A finding the abstract states about another organism ("extends lifespan from yeast to primates") is not this
  // study's.
  const own = claims.filter((c) => claimOrganismKey(c) === null || claimOrganismKey(c) === organismKey)
  for (const c of [...own].sort((a, b) => weight(b) - weight(a))) {
    const key =
      `${c.subject.entity?.key ?? c.subject.text}|${c.relation}|${c.object.entity?.key ?? c.object.text}`.toLowerCase()
    if (c.confidence >= 0.5 && !distinct.has(key)) distinct.set(key, c)
  }
  const findings = [...distinct.values()].slice(0, 3)
  const lead = findings[0]

  const title = paper.title.replace(/\.$/, '')
  const studied = intervention ? `the effects of ${intervention.name}` : `${topic.name.toLowerCase()}`
  // Without a finding the title is the headline, unless its words say another design or population than the
  // judgement: then the headline names only what the judgement says.
  const headline = lead
    ? capitalise(`${clause(lead, 0)}${where && judgement.studyType !== 'review' ? ` in ${where}` : ''}`)
    : !fitsStudyType(title, judgement.studyType)
      ? capitalise(`${design === 'paper' ? 'new work' : design}${where ? ` in ${where}` : ''} on ${studied}`)
      : title.length <= 100
        ? title
        : title.slice(0, title.lastIndexOf(' ', 96)) + '…'

  const dek =
    judgement.studyType === 'review'
      ? capitalise(`${article(design)} brings together research on ${studied}.`)
      : capitalise(
          `${article(design)}${where ? ` in ${where}` : ''} looked ` +
            `at ${studied}${lead ? ` and reports that ${clause(lead, 1)}` : ''}.`,
        )

  const n = organism?.detail?.n
  const unreviewed = paper.preprint ? ' (a preprint, not yet peer reviewed)' : ''
  const subjects = organismKey === HUMAN ? 'participants' : judgement.studyType === 'animal' ? 'animals' : 'subjects'
  const size =
    typeof n === 'number' && where && judgement.studyType !== 'cells'
      ? ` with ${n.toLocaleString('en-US')} ${subjects}`
      : ''
  const paragraphs = [
    `Writing in ${paper.journal || 'a research venue'}${unreviewed}, the authors of "${title}" report ` +
      `${article(design)}${where ? ` in ${where}` : ''}${size}.`,
  ]
  if (findings.length) {
    paragraphs.push(`According to the abstract, ${findings.map((c) => clause(c, 1)).join('; ')}.`)
  }
  const mechanisms = entities
    .filter((e) => e.role === 'mechanism')
    .slice(0, 3)
    .map((e) => e.name)
  if (mechanisms.length) paragraphs.push(`The work points to ${mechanisms.join(', ')} as part of the mechanism.`)

  const area =
    topic.slug === 'other'
      ? 'Geroscience asks which biological processes drive aging and which interventions slow them; '
      : `${topic.name} is one of the areas geroscience follows closely ` +
        `(${topic.description.replace(/\.$/, '').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())}); `
  const whyItMatters =
    area +
    (lead
      ? `this result adds evidence on whether ${lead.subject.entity?.name ?? lead.subject.text} ` +
        `affects ${lead.object.entity?.name ?? lead.object.text}.`
      : 'this paper adds to that evidence.')

  const caveats: string[] = [`This is ${article(design)}${where ? ` in ${where}` : ''}.`]
  if (judgement.studyType === 'animal' || judgement.studyType === 'invertebrate' || judgement.studyType === 'cells') {
    caveats.push('Results in animals or cells often do not carry over to people.')
  }
  if (judgement.studyType === 'human_observational')
    caveats.push('An observational study shows associations, not cause and effect.')
  if (judgement.studyType === 'review') caveats.push('A review summarises earlier work; it reports no new data.')
  if (
    !where &&
    judgement.studyType !== 'review' &&
    judgement.studyType !== 'other' &&
    judgement.studyType !== 'computational'
  )
    caveats.push('The abstract does not name the organism studied.')
  if (typeof n === 'number' && n < 30) caveats.push(`The sample was small (${n}).`)
  if (paper.preprint) caveats.push('The paper is a preprint and has not been peer reviewed.')
  caveats.push('This story is based on the abstract only.')

  return { headline, dek, body: paragraphs.join('\n\n'), whyItMatters, caveats: caveats.join(' ') }
}
