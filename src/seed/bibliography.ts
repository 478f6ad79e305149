/**
 * Bibliographic vocabulary for the synthetic corpus: journals and preprint servers with their DOI
 * shapes, author surnames, licences. DOIs embed the paper's own number, so they are as unique as
 * the paper ids.
 */
import { Weighted, type Random } from './random'

/** What a journal publishes: basic science, clinical studies, reviews, or outside aging biology. */
type Scope = 'basic' | 'clinical' | 'review' | 'general'

/** `doi(n, date)`: n is the paper's own number, date its YYYY-MM-DD publication (or index) date. */
type Journal = { name: string; doi: (n: string, date: string) => string; scopes: Scope[] }

const journal = (name: string, scopes: Scope[], doi: Journal['doi']): Journal => ({ name, doi, scopes })
const yy = (date: string) => date.slice(2, 4)
const year = (date: string) => date.slice(0, 4)

const JOURNALS: [Journal, number][] = [
  [journal('Aging Cell', ['basic', 'clinical', 'review'], (n) => `10.1111/acel.${n}`), 12],
  [journal('Nature Aging', ['basic', 'clinical', 'review'], (n, y) => `10.1038/s43587-0${yy(y)}-${n}-x`), 8],
  [journal('GeroScience', ['basic', 'clinical', 'review'], (n, y) => `10.1007/s11357-0${yy(y)}-${n}-4`), 8],
  [journal('Cell Metabolism', ['basic', 'clinical'], (n, y) => `10.1016/j.cmet.${year(y)}.${n}`), 4],
  [journal('Nature', ['basic'], (n, y) => `10.1038/s41586-0${yy(y)}-${n}-2`), 2],
  [journal('Cell', ['basic'], (n, y) => `10.1016/j.cell.${year(y)}.${n}`), 2],
  [journal('Science', ['basic'], (n) => `10.1126/science.${n}`), 1.5],
  [
    journal(
      'The Journals of Gerontology Series A, Biological Sciences and Medical Sciences',
      ['basic', 'clinical'],
      (n) => `10.1093/gerona/glaf${n}`,
    ),
    6,
  ],
  [journal('Ageing Research Reviews', ['review'], (n, y) => `10.1016/j.arr.${year(y)}.${n}`), 6],
  [journal('Nature Communications', ['basic', 'clinical'], (n, y) => `10.1038/s41467-0${yy(y)}-${n}-9`), 6],
  [journal('eLife', ['basic'], (n) => `10.7554/elife.${n}`), 3],
  [
    journal(
      'Proceedings of the National Academy of Sciences of the United States of America',
      ['basic'],
      (n) => `10.1073/pnas.${n}`,
    ),
    3,
  ],
  [journal('Cell Reports', ['basic'], (n, y) => `10.1016/j.celrep.${year(y)}.${n}`), 4],
  [
    journal('The Lancet Healthy Longevity', ['clinical', 'review'], (n, y) => `10.1016/s2666-7568(${year(y)})${n}-1`),
    2,
  ],
  [journal('Aging', ['basic', 'clinical'], (n) => `10.18632/aging.${n}`), 7],
  [journal('Nature Medicine', ['clinical'], (n, y) => `10.1038/s41591-0${yy(y)}-${n}-5`), 2],
  [journal('Mechanisms of Ageing and Development', ['basic', 'review'], (n, y) => `10.1016/j.mad.${year(y)}.${n}`), 3],
  [journal('Experimental Gerontology', ['basic', 'clinical'], (n, y) => `10.1016/j.exger.${year(y)}.${n}`), 4],
  [journal('npj Aging', ['basic', 'clinical'], (n, y) => `10.1038/s41514-0${yy(y)}-${n}-7`), 3],
  [journal('Autophagy', ['basic'], (n, y) => `10.1080/15548627.${year(y)}.${n}`), 1.5],
  [journal('Neurobiology of Aging', ['basic', 'clinical'], (n, y) => `10.1016/j.neurobiolaging.${year(y)}.${n}`), 3],
  [journal("Alzheimer's & Dementia", ['clinical'], (n) => `10.1002/alz.${n}`), 2],
  [journal('Journal of the American Geriatrics Society', ['clinical', 'general'], (n) => `10.1111/jgs.${n}`), 3],
  [journal('Age and Ageing', ['clinical', 'general'], (n) => `10.1093/ageing/afaf${n}`), 3],
  [journal('JAMA Network Open', ['clinical', 'general'], (n, y) => `10.1001/jamanetworkopen.${year(y)}.${n}`), 2],
  [journal('BMC Geriatrics', ['clinical', 'general'], (n, y) => `10.1186/s12877-0${yy(y)}-${n}-3`), 4],
  [journal('Frontiers in Aging', ['basic', 'review'], (n, y) => `10.3389/fragi.${year(y)}.${n}`), 3],
  [
    journal('International Journal of Molecular Sciences', ['basic', 'review', 'general'], (n) => `10.3390/ijms${n}`),
    5,
  ],
  [journal('Nutrients', ['clinical', 'review', 'general'], (n) => `10.3390/nu${n}`), 4],
  [journal('Scientific Reports', ['basic', 'clinical', 'general'], (n, y) => `10.1038/s41598-0${yy(y)}-${n}-0`), 5],
  [journal('PLoS One', ['basic', 'clinical', 'general'], (n) => `10.1371/journal.pone.${n}`), 4],
  [journal('Diabetes Care', ['clinical'], (n, y) => `10.2337/dc${yy(y)}-${n}`), 1],
]

const byScope = new Map<Scope, Weighted<Journal>>(
  (['basic', 'clinical', 'review', 'general'] as Scope[]).map((scope) => [
    scope,
    new Weighted(JOURNALS.filter(([j]) => j.scopes.includes(scope))),
  ]),
)

export function pickJournal(rng: Random, scope: Scope): Journal {
  return rng.weighted(byScope.get(scope)!)
}

type Server = Journal & { clinical: boolean }

const SERVERS: [Server, number][] = [
  [{ ...journal('bioRxiv', [], (n, y) => `10.1101/${y.replaceAll('-', '.')}.${n}`), clinical: false }, 45],
  [{ ...journal('medRxiv', [], (n, y) => `10.1101/${y.replaceAll('-', '.')}.${n}`), clinical: true }, 20],
  [{ ...journal('Research Square', [], (n) => `10.21203/rs.3.rs-${n}/v1`), clinical: true }, 15],
  [{ ...journal('SSRN', [], (n) => `10.2139/ssrn.${n}`), clinical: true }, 10],
  [
    {
      ...journal('Preprints.org', [], (n, y) => `10.20944/preprints${year(y)}${y.slice(5, 7)}.${n}.v1`),
      clinical: false,
    },
    7,
  ],
  [{ ...journal('arXiv', [], (n, y) => `10.48550/arxiv.${yy(y)}${y.slice(5, 7)}.${n}`), clinical: false }, 3],
]
/** Basic science goes anywhere but medRxiv; clinical work anywhere but bioRxiv and arXiv. */
const basicServers = new Weighted(SERVERS.filter(([s]) => s.name !== 'medRxiv'))
const clinicalServers = new Weighted(SERVERS.filter(([s]) => s.clinical))

export function pickServer(rng: Random, clinical: boolean): Journal {
  return rng.weighted(clinical ? clinicalServers : basicServers)
}

/** Licence mix as Europe PMC reports it; null = none reported (all rights reserved). */
export const licences = new Weighted<string | null>([
  ['cc by', 40],
  ['cc0', 5],
  ['public domain', 3],
  ['cc by-sa', 5],
  ['cc by-nc', 12],
  ['cc by-nc-nd', 10],
  [null, 25],
])

const SURNAMES = (
  'Smith Wang Li Zhang Müller García Kim Nguyen Rossi Novak Kowalski Johansson Jensen Hansen Silva Santos ' +
  'Oliveira Costa Ferreira Martin Bernard Dubois Moreau Schmidt Schneider Fischer Weber Becker Hoffmann ' +
  'Tanaka Suzuki Sato Takahashi Watanabe Ito Yamamoto Nakamura Chen Liu Yang Huang Zhao Wu Zhou Xu Sun Ma ' +
  'Patel Shah Singh Kumar Gupta Sharma Iyer Rao Reddy Das Cohen Levi Friedman Katz Ivanova Petrov Sokolov ' +
  'Popescu Horváth Nagy Kovács Novák Dvořák Andersen Nielsen Larsen Virtanen Korhonen Mäkinen Okafor ' +
  'Adeyemi Mensah Banda Mwangi Haddad Khalil Nasser Rahman Hossain Ahmed Ali Hassan Yilmaz Kaya Demir ' +
  'Papadopoulos Georgiou Murphy Kelly Walsh OBrien Campbell Stewart Thompson Robinson Clarke Lewis Walker ' +
  'Young Allen Wright Scott Green Baker Adams Nelson Hill Ramirez Torres Flores Rivera Gomez Diaz Reyes ' +
  'Morales Ortiz Castillo Jiménez Ruiz Álvarez Romero Navarro Molina Delgado Castro Vargas Ramos Gil ' +
  'Barzilai Kirkland Kaeberlein Sinclair Partridge Horvath Belsky Ferrucci Lamming Miller Richardson ' +
  'Promislow Ocampo Serrano Campisi Tchkonia Verdin Auwerx Guarente Mair Dillin Brunet Wyss-Coray Rando'
)
  .split(' ')
  .map((name) => (name === 'OBrien' ? "O'Brien" : name))

const INITIALS = 'ABCDEFGHIJKLMNOPRSTVWYZ'

function author(rng: Random): string {
  const first = INITIALS[rng.int(0, INITIALS.length - 1)]!
  const initials = rng.chance(0.35) ? first + INITIALS[rng.int(0, INITIALS.length - 1)]! : first
  return `${rng.pick(SURNAMES)} ${initials}`
}

/** 'Surname A, Surname BC, Surname D, et al.': first three, then et al., as Europe PMC lists them. */
export function authorList(rng: Random): string {
  const count = rng.chance(0.08) ? rng.int(1, 2) : rng.chance(0.1) ? 3 : 4
  const names = [author(rng)]
  for (let i = 1; i < Math.min(count, 3); i++) names.push(author(rng))
  return count > 3 ? `${names.join(', ')}, et al.` : names.join(', ')
}

/** Cohorts human observational studies draw on. */
export const cohorts = [
  'UK Biobank',
  'Health and Retirement Study',
  'Framingham Heart Study',
  'Baltimore Longitudinal Study of Aging',
  'Women’s Health Initiative',
  'Dunedin Study',
  'English Longitudinal Study of Ageing',
  'Rotterdam Study',
  'China Health and Retirement Longitudinal Study',
  'NHANES',
  'Lothian Birth Cohort 1936',
  'Health ABC study',
  'CALERIE trial',
  'Generation Scotland',
  'Swedish Adoption/Twin Study of Aging',
  'Leiden Longevity Study',
]
