/**
 * MeSH headings an indexer would give a synthetic MEDLINE paper, from a fixed vocabulary so the
 * loader can create every heading entity up front (type mesh, key = lowercased hyphenated name).
 */
import type { MeshHeading } from '../db/schema'
import type { Design } from './design'
import { cellSystems, invertebrates, vertebrates } from './organisms'
import { Weighted, type Random } from './random'
import { profiles } from './topic-profiles'

const DESIGN_MESH: Record<Design['studyType'], string[]> = {
  human_trial: ['Double-Blind Method', 'Treatment Outcome'],
  human_observational: ['Cohort Studies', 'Prospective Studies', 'Risk Factors'],
  animal: ['Disease Models, Animal'],
  invertebrate: ['Longevity'],
  cells: ['Cells, Cultured'],
  computational: ['Machine Learning', 'Computational Biology'],
  review: [],
  other: [],
}
const AGE_GROUPS = ['Aged', 'Aged, 80 and over', 'Middle Aged']
const QUALIFIER_COUNTS = new Weighted<number>([
  [0, 45],
  [1, 40],
  [2, 15],
])
const QUALIFIERS = [
  'physiology',
  'drug effects',
  'genetics',
  'metabolism',
  'pathology',
  'immunology',
  'blood',
  'prevention & control',
  'therapeutic use',
  'pharmacology',
]
/** Check tags and organisms take no qualifiers and are never major topics. */
const CHECK_TAGS = new Set(['Humans', 'Animals', 'Male', 'Female', ...AGE_GROUPS])

/** Every heading the generator can use. */
export const MESH_VOCABULARY: string[] = [
  ...new Set([
    'Aging',
    'Longevity',
    'Humans',
    'Animals',
    'Male',
    'Female',
    ...AGE_GROUPS,
    ...Object.values(DESIGN_MESH).flat(),
    ...Object.values(profiles).flatMap((p) => p.mesh),
    ...[...vertebrates.items, ...invertebrates.items, ...cellSystems.items.map((c) => c.organism)].flatMap(
      (o) => o.mesh,
    ),
  ]),
]

function qualifiers(rng: Random): string[] {
  const count = rng.weighted(QUALIFIER_COUNTS)
  return count === 0 ? [] : rng.sample(QUALIFIERS, count)
}

/** Headings in the order an indexer's record lists them: the main subjects first. */
export function meshHeadings(rng: Random, d: Design, limit: number): MeshHeading[] {
  const names: string[] = []
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name)
  }
  const topicMesh = rng.sample(d.profile.mesh, rng.int(1, 2))
  topicMesh.forEach(add)
  add('Aging')
  if (d.primary.lifespan || d.studyType === 'invertebrate') add('Longevity')
  if (d.organism) d.organism.mesh.forEach(add)
  if (d.organism?.kind === 'human' && d.studyType !== 'cells' && d.studyType !== 'review') {
    add('Aged')
    if (/50|55|midlife/.test(d.age)) add('Middle Aged')
    if (/70 years or older/.test(d.age)) add('Aged, 80 and over')
  }
  if (d.organism && d.organism.kind !== 'invertebrate' && d.studyType !== 'review' && d.studyType !== 'other') {
    if (d.sex !== 'female') add('Male')
    if (d.sex !== 'male') add('Female')
  }
  const designMesh = DESIGN_MESH[d.studyType]
  if (designMesh.length > 0) add(rng.pick(designMesh))
  return names.slice(0, Math.max(0, limit)).map((descriptor, i) => {
    const check = CHECK_TAGS.has(descriptor) || (d.organism?.mesh.includes(descriptor) ?? false)
    return {
      descriptor,
      major: !check && (i === 0 || (topicMesh.includes(descriptor) && rng.chance(0.4))),
      qualifiers: check ? [] : qualifiers(rng),
    }
  })
}
