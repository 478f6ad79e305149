/** Small readers of study details stated in a sentence: dose, route, duration, strain, sex, age, n, magnitude. */

const NUMBER_WORDS =
  '(?:\\d+(?:[.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|eighteen|twenty-four)'

const DOSE = new RegExp(
  String.raw`\b\d+(?:\.\d+)?\s?(?:mg\/kg(?:\/day|\/d)?|mg|µg|μg|ug|g\/kg|ppm|mM|µM|μM|uM|nM|IU` +
    String.raw`|mg\/day)(?:\s?(?:per day|daily|\/day))?`,
)
const ROUTE = new RegExp(
  String.raw`\b(orally|oral gavage|gavage|in the diet|dietary|in drinking water|intraperitoneal(?:ly)?` +
    String.raw`|subcutaneous(?:ly)?|intravenous(?:ly)?|topical(?:ly)?|intranasal(?:ly)?|by injection|oral)\b`,
  'i',
)
const DURATION = new RegExp(`\\bfor ${NUMBER_WORDS}(?:\\s|-)(?:days?|weeks?|months?|years?)\\b`, 'i')
const STRAIN = new RegExp(
  String.raw`\b(C57BL\/6J?|C57BL\/6N|BALB\/c|DBA\/2J?|UM-HET3|129\/Sv|Sprague[- ]Dawley|Wistar|Fischer 344|F344` +
    String.raw`|N2 Bristol|N2|w1118|Canton-S|SAMP8|SAMR1)\b`,
)
const AGE = new RegExp(
  `\\b(?:aged? ${NUMBER_WORDS}(?:\\s?(?:-|to|–)\\s?${NUMBER_WORDS})?\\s(?:days?|weeks?|months?|years?)` +
    `|${NUMBER_WORDS}-(?:day|week|month|year)-old|old|aged|young|middle-aged|older adults|elderly)\\b`,
  'i',
)
const N = new RegExp(
  String.raw`\b(?:n\s?=\s?(\d[\d,]*)|(\d[\d,]*)\s(?:[\w/-]+\s){0,2}?(?:participants|patients|subjects` +
    String.raw`|individuals|adults|women|men|mice|rats|animals|volunteers|people|children))\b`,
  'i',
)
const MAGNITUDE = new RegExp(
  String.raw`(?:by\s)?(?:\d+(?:\.\d+)?\s?%|\d+(?:\.\d+)?-fold|(?:hazard|odds) ratio[^,;.]{0,12}\d\.\d+|\b(?:HR` +
    String.raw`|OR|RR)\s?[=:]?\s?\d\.\d+)`,
  'i',
)

const first = (re: RegExp, text: string) => text.match(re)?.[0] ?? null

export const readDose = (s: string) => first(DOSE, s)
export const readRoute = (s: string) => {
  const r = first(ROUTE, s)?.toLowerCase() ?? null
  if (r === null) return null
  if (r === 'orally' || r === 'oral' || r === 'gavage' || r === 'oral gavage') return 'oral'
  if (r === 'dietary' || r === 'in the diet') return 'diet'
  return r.replace(/ly$/, '')
}
export const readDuration = (s: string) => first(DURATION, s)?.replace(/^for /i, '') ?? null
export const readStrain = (s: string) => first(STRAIN, s)
export const readAge = (s: string) => first(AGE, s)?.toLowerCase() ?? null
export function readSex(s: string): string | null {
  const male = /\b(males?|men)\b/i.test(s)
  const female = /\b(females?|women)\b/i.test(s)
  return male && female ? 'both' : male ? 'male' : female ? 'female' : null
}
export function readN(s: string): number | null {
  const m = s.match(N)
  if (!m) return null
  const n = Number((m[1] ?? m[2]).replace(/,/g, ''))
  return Number.isFinite(n) && n > 0 && n < 10_000_000 ? n : null
}
export const readMagnitude = (s: string) => first(MAGNITUDE, s)?.replace(/^by\s/i, '').trim() ?? null

/** Drops keys without a value, and the whole object when nothing is left. */
export function compact(detail: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
  for (const key in detail) {
    const value = detail[key]
    if (value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0))
      out[key] = value
  }
  return Object.keys(out).length ? out : null
}
