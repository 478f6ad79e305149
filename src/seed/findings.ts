/**
 * Result sentences, each with the claim an extractor would take from it. Writing the sentence and
 * the claim together is what guarantees that every claim's evidence is a sentence of its abstract
 * and that relation, direction and magnitude agree with what the sentence says.
 */
import type { LexiconEntry } from '../lexicon/lexicon'
import type { Design, Effect } from './design'
import type { Outcome } from './outcomes'
import { cap } from './capitalize'
import {
  measure,
  pValue,
  percent,
  population,
  ratio,
  relationFor,
  thousands,
  type Direction,
  type Relation,
} from './phrases'
import type { Random } from './random'

export type Side = { text: string; entity: LexiconEntry | null }

export type ClaimDraft = {
  subject: Side
  relation: Relation
  object: Side
  direction: Direction
  magnitude: string | null
}

/** gist: the finding as a short clause without statistics, not capitalised (titles, stories). */
export type Finding = { sentence: string; gist: string; claim: ClaimDraft | null }

/** What the comparison group is called, by study type and kind of intervention. */
export function control(d: Design): string {
  if (d.studyType === 'human_trial')
    return d.kind === 'lifestyle' ? 'usual care' : d.kind === 'procedure' ? 'sham treatment' : 'placebo'
  if (d.studyType === 'cells') return 'vehicle-treated cells'
  if (d.kind === 'lifestyle')
    return d.organism?.kind === 'invertebrate' ? 'fully fed controls' : 'ad libitum-fed controls'
  return d.organism?.kind === 'invertebrate' ? 'untreated controls' : 'vehicle-treated controls'
}

const side = (text: string, entity: LexiconEntry | null): Side => ({ text, entity })
const claim = (subject: Side, rd: [Relation, Direction], object: Side, magnitude: string | null): ClaimDraft => ({
  subject,
  relation: rd[0],
  object,
  direction: rd[1],
  magnitude,
})

/** An intervention's effect on one outcome, worded for the study type. */
export function effectFinding(rng: Random, d: Design, o: Outcome, effect: Effect, secondary = false): Finding {
  const i = d.intervention!
  const I = i.name
  const O = measure(o)
  const pop = population(d)
  // Cells from human donors are cells in a dish, not people: their findings are worded as any cell study's.
  const human = d.organism?.kind === 'human' && d.studyType !== 'cells'
  const rd = relationFor(o, effect, human)
  const subject = side(I, i)
  const object = side(O, o.entry)
  const x = percent(rng, 8, 46)
  const p = pValue(rng, effect !== 'none')
  const who = human ? 'older adults' : d.studyType === 'cells' ? d.system! : d.organism!.plural
  if (effect === 'none') {
    const sentence = rng.chance(0.5)
      ? `${cap(I)} did not significantly change ${O} in ${pop} (${p}).`
      : `${cap(O)} did not differ between ${I} and ${control(d)} (${p}).`
    return { sentence, gist: `${I} leaves ${O} unchanged in ${who}`, claim: claim(subject, rd, object, null) }
  }
  const [relation] = rd
  if (relation === 'extends_lifespan') {
    const sentence = rng.pick([
      `${cap(I)} extended median lifespan by ${x}% in ${pop} (${p}).`,
      `Compared with ${control(d)}, ${pop} receiving ${I} lived longer, with median lifespan increased by ${x}% ` +
        `(${p}).`,
      `${cap(I)} increased median lifespan by ${x}% and maximal lifespan by ${percent(rng, 4, 20)}% (${p}).`,
    ])
    return { sentence, gist: `${I} extends lifespan in ${who}`, claim: claim(subject, rd, object, `${x}%`) }
  }
  if (o.entry.key === 'lifespan') {
    const sentence = `${cap(I)} shortened median lifespan by ${x}% in ${pop} (${p}).`
    return { sentence, gist: `${I} shortens lifespan in ${who}`, claim: claim(subject, rd, object, `-${x}%`) }
  }
  if (relation === 'reduces_risk_of' || relation === 'protects_against') {
    if (human) {
      const r = ratio(rng, 'lower')
      const sentence =
        d.studyType === 'human_trial'
          ? `Fewer participants assigned to ${I} developed ${O} than those assigned to ${control(d)} (${r.text}).`
          : `${cap(I)} ${d.kind === 'lifestyle' ? 'adherence' : 'use'} was associated with a lower risk of ${O} ` +
            `(${r.text}).`
      return { sentence, gist: `${I} linked to lower risk of ${O}`, claim: claim(subject, rd, object, r.value) }
    }
    const sentence = `${cap(I)} protected ${who} against ${O}, reducing its severity by ${x}% (${p}).`
    return { sentence, gist: `${I} protects ${who} against ${O}`, claim: claim(subject, rd, object, `${x}%`) }
  }
  const up = rd[1] === 'increase'
  const verb = relation === 'improves' ? 'improved' : relation === 'impairs' ? 'impaired' : up ? 'increased' : 'reduced'
  const gistVerb = relation === 'improves' ? 'improves' : relation === 'impairs' ? 'impairs' : up ? 'raises' : 'lowers'
  const magnitude = `${up ? '' : '-'}${x}%`
  let sentence: string
  if (d.studyType === 'human_trial') {
    const other = (Number(x) * rng.float(0.05, 0.35)).toFixed(1)
    sentence = secondary
      ? `${cap(O)} also ${up ? 'rose' : 'fell'} more with ${I} than with ${control(d)} (${x}% vs ${other}%; ${p}).`
      : `After ${d.duration}, ${O} ${up ? 'rose' : 'fell'} by ${x}% with ${I} versus ${other}% with ${control(d)} ` +
        `(${p}).`
  } else if (human) {
    sentence =
      `${cap(I)} ${d.kind === 'lifestyle' ? 'adherence' : 'use'} was associated ` +
      `with ${up ? 'higher' : 'lower'} ${O} (${x}% difference; ${p}).`
  } else {
    sentence = rng.pick([
      `${cap(I)} ${verb} ${O} by ${x}% relative to ${control(d)} (${p}).`,
      `In ${pop}, ${I} ${verb} ${O} by ${x}% (${p}).`,
      `${cap(O)} was ${x}% ${up ? 'higher' : 'lower'} after ${I} than in ${control(d)} (${p}).`,
    ])
  }
  return { sentence, gist: `${I} ${gistVerb} ${O} in ${who}`, claim: claim(subject, rd, object, magnitude) }
}

/** A measure (or gene) that predicts an outcome, as cohort and modelling studies report it. */
export function associationFinding(rng: Random, d: Design, exposure: Side, polarity: 1 | -1, o: Outcome): Finding {
  const O = measure(o)
  const object = side(O, o.entry)
  const E = exposure.text
  const risk = o.entry.type === 'disease' || o.entry.key === 'mortality'
  if (d.effect === 'none') {
    const r = risk
      ? ratio(rng, 'none')
      : { value: `β = 0.0${rng.int(0, 4)}`, text: `β = 0.0${rng.int(0, 4)}, ${pValue(rng, false)}` }
    return {
      sentence: `${cap(E)} was not associated with ${O} after adjustment for age, sex and smoking (${r.text}).`,
      gist: `${E} does not predict ${O}`,
      claim: claim(exposure, ['associated_with', 'no_change'], object, r.value),
    }
  }
  const positive = polarity === o.polarity
  if (risk) {
    const r = ratio(rng, positive ? 'higher' : 'lower')
    const sentence = rng.chance(0.5)
      ? `Each standard deviation increase in ${E} was associated with a ${positive ? 'higher' : 'lower'} risk ` +
        `of ${O} (${r.text}).`
      : `Participants in the top quartile of ${E} had a ${positive ? 'higher' : 'lower'} risk of incident ${O} than ` +
        `those in the bottom quartile (${r.text}).`
    const rd: [Relation, Direction] = positive ? ['associated_with', 'increase'] : ['reduces_risk_of', 'decrease']
    return { sentence, gist: `${E} predicts ${O}`, claim: claim(exposure, rd, object, r.value) }
  }
  const beta = `β = ${positive ? '' : '−'}0.${rng.int(4, 39)}`
  return {
    sentence: `Higher ${E} was associated with ${positive ? 'greater' : 'lower'} ${O} (${beta}, ${pValue(rng, true)}).`,
    gist: `${E} tracks ${O}`,
    claim: claim(exposure, ['associated_with', positive ? 'increase' : 'decrease'], object, beta.replace('−', '-')),
  }
}

/** Loss of a gene and what it does to an outcome (genetic studies without a drug). */
export function geneFinding(rng: Random, d: Design, o: Outcome): Finding {
  const G = d.gene.name
  const O = measure(o)
  const x = percent(rng, 10, 60)
  const subject = side(`loss of ${G}`, d.gene)
  // effect 'benefit' means the gene protects, so losing it harms
  const rd = relationFor(o, d.effect === 'none' ? 'none' : 'harm', d.organism?.kind === 'human')
  const p = pValue(rng, d.effect !== 'none')
  const how = d.studyType === 'animal' ? 'Deletion' : 'Knockdown' // cells and invertebrates use RNAi
  const sentence =
    d.effect === 'none'
      ? `${how} of ${G} did not alter ${O} (${p}), arguing against a rate-limiting role.`
      : o.entry.key === 'lifespan'
        ? `${how} of ${G} shortened median lifespan by ${x}% (${p}).`
        : `${how} of ${G} ${rd[1] === 'increase' ? 'increased' : 'reduced'} ${O} by ${x}% in ${population(d)} (${p}).`
  const magnitude = d.effect === 'none' ? null : `${rd[1] === 'increase' ? '' : '-'}${x}%`
  const verb = d.effect === 'none' ? 'spares' : o.entry.key === 'lifespan' ? 'shortens' : 'worsens'
  return { sentence, gist: `loss of ${G} ${verb} ${O}`, claim: claim(subject, rd, side(O, o.entry), magnitude) }
}

/** The mechanism: what the intervention (or the gene's loss) does to a gene and a pathway. */
export function mechanismFinding(rng: Random, d: Design): Finding {
  const gene = d.target ?? d.gene
  const G = gene.name
  const where = d.studyType === 'cells' ? d.system! : `the ${d.tissue.name}`
  const P = d.pathway.name
  const p = pValue(rng, true)
  if (d.intervention) {
    const cls = d.intervention.class ?? ''
    const down = d.target ? !/agonist|activat|precursor/.test(cls) : rng.chance(0.55)
    const what = rng.pick(['expression', 'activity', 'phosphorylation', 'protein levels'])
    const sentence =
      `${cap(d.intervention.name)} ${down ? 'reduced' : 'increased'} ${G} ${what} in ${where} ` +
      `and ${down ? 'dampened' : 'enhanced'} ${P} (${p}).`
    return {
      sentence,
      gist: `${d.intervention.name} acts through ${G}`,
      claim: claim(
        side(d.intervention.name, d.intervention),
        down ? ['decreases', 'decrease'] : ['increases', 'increase'],
        side(G, gene),
        null,
      ),
    }
  }
  const sentence = `Mechanistically, loss of ${G} impaired ${P} in ${where} (${p}).`
  return {
    sentence,
    gist: `${G} sustains ${P}`,
    claim: claim(side(`loss of ${G}`, gene), ['impairs', 'decrease'], side(P, d.pathway), null),
  }
}

const FREE_OUTCOMES = {
  vertebrate: ['rotarod performance', 'treadmill endurance', 'spontaneous locomotor activity', 'nest-building scores'],
  invertebrate: ['pharyngeal pumping', 'climbing ability', 'thermotolerance', 'resistance to oxidative stress'],
}

/** A result an extractor could not map to the lexicon: its claim carries free text only. */
export function freeFinding(rng: Random, d: Design): Finding | null {
  const I = d.intervention?.name
  if (!I) return null
  if (d.studyType === 'human_trial') {
    const a = rng.int(12, 38)
    const events = rng.pick(['Gastrointestinal adverse events', 'Mild adverse events', 'Episodes of transient nausea'])
    return {
      sentence: `${events} were more common with ${I} than with ${control(d)} (${a}% vs ${rng.int(4, a - 3)}%).`,
      gist: `${events.toLowerCase()} with ${I}`,
      claim: claim(side(I, null), ['increases', 'increase'], side(events.toLowerCase(), null), `${a}%`),
    }
  }
  if (d.organism?.kind !== 'vertebrate' && d.organism?.kind !== 'invertebrate') return null
  const what = rng.pick(FREE_OUTCOMES[d.organism.kind])
  const x = percent(rng, 10, 55)
  return {
    sentence:
      `Treated ${d.organism.plural} also showed ${x}% better ${what} than ${control(d)} ` + `(${pValue(rng, true)}).`,
    gist: `${I} improves ${what}`,
    claim: claim(side(I, null), ['improves', 'increase'], side(what, null), `${x}%`),
  }
}

const PRESENT: Record<string, string> = {
  'had inconsistent effects on': 'has inconsistent effects on',
  increased: 'increases',
  extended: 'extends',
  improved: 'improves',
  impaired: 'impairs',
  reduced: 'reduces',
}

/** A review's summary sentence, with the claim it makes about the field. */
export function reviewFinding(rng: Random, d: Design, o: Outcome, secondary = false): Finding {
  const O = measure(o)
  const who = d.organism ? (d.organism.kind === 'human' ? 'humans' : d.organism.plural) : 'model organisms'
  if (d.intervention) {
    const rd = relationFor(o, d.effect, d.organism?.kind === 'human')
    const verb =
      rd[0] === 'associated_with'
        ? 'had inconsistent effects on'
        : rd[1] === 'increase'
          ? rd[0] === 'increases'
            ? 'increased'
            : rd[0] === 'extends_lifespan'
              ? 'extended'
              : 'improved'
          : rd[0] === 'impairs'
            ? 'impaired'
            : 'reduced'
    const sentence = secondary
      ? `${cap(d.intervention.name)} ${verb === 'had inconsistent effects on' ? verb : `likewise ${verb}`} ${O} in ` +
        `the ${thousands(rng.int(3, Math.max(3, d.n)))} studies that measured it.`
      : d.studyType === 'review'
        ? `Across ${thousands(d.n)} studies, ${d.intervention.name} ${verb} ${O} in ${who}, although effect sizes ` +
          `varied widely.`
        : `In the studies we discuss, ${d.intervention.name} ${verb} ${O} in ${who}, but the evidence remains thin.`
    const rdFixed: [Relation, Direction] = rd[0] === 'associated_with' ? ['associated_with', 'mixed'] : rd
    const present = PRESENT[verb]
    return {
      sentence,
      gist: `${d.intervention.name} ${present} ${O} in ${who}`,
      claim: claim(side(d.intervention.name, d.intervention), rdFixed, side(O, o.entry), null),
    }
  }
  return {
    sentence: secondary
      ? `${d.gene.name} was also linked to ${O} in ${thousands(rng.int(3, Math.max(3, d.n)))} of them.`
      : d.studyType === 'review'
        ? `Across ${thousands(d.n)} studies, ${d.gene.name} emerged as a recurrent regulator of ${O} in ${who}.`
        : `In the studies we discuss, ${d.gene.name} repeatedly appears as a regulator of ${O} in ${who}.`,
    gist: `${d.gene.name} regulates ${O}`,
    claim: claim(side(d.gene.name, d.gene), ['associated_with', 'mixed'], side(O, o.entry), null),
  }
}
