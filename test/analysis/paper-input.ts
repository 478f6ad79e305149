/** A paper record for analyzer tests: every field explicit, MeSH given as descriptor names (major with a *). */
import type { PaperInput } from '../../src/pipeline/analysis/types'

export function paperInput(
  overrides: Partial<Omit<PaperInput, 'meshHeadings'>> & { mesh?: string[] } = {},
): PaperInput {
  const { mesh = [], ...rest } = overrides
  return {
    id: 'MED-1',
    title: 'A study',
    abstract: null,
    journal: 'Aging Cell',
    preprint: false,
    publicationTypes: ['Journal Article'],
    keywords: [],
    chemicals: [],
    ...rest,
    meshHeadings: mesh.map((m) => ({ descriptor: m.replace(/\*$/, ''), major: m.endsWith('*'), qualifiers: [] })),
  }
}

export const RAPAMYCIN_MICE = paperInput({
  id: 'MED-100',
  title: 'Rapamycin extends lifespan in aged mice',
  abstract:
    'Aging is the main risk factor for chronic disease. Here we treated 40 male C57BL/6J mice aged 20 months with rapamycin (14 ppm in the diet) for 12 weeks. ' +
    'Rapamycin extended median lifespan by 12% and reduced SASP expression in the liver. mTOR signalling was inhibited by rapamycin. ' +
    'These findings suggest rapamycin protects against age-related frailty.',
  journal: 'Nature Aging',
  mesh: ['Animals', 'Mice', 'Aging*', 'Sirolimus*', 'Male'],
  keywords: ['rapamycin', 'aging'],
  chemicals: [{ name: 'Sirolimus', registry: 'W36ZG6FT64' }],
})
