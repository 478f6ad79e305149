/**
 * What the learned judge sees of a paper: binary features named by where they come from.
 *   t:word   a word of the title            s:word  a word of the aim or conclusion sentences
 *   a:word   a word anywhere in the abstract  b:w1_w2 two words side by side in the title or abstract
 *   pt:type  a publication type               m:heading  a MeSH descriptor (absent for new papers and preprints)
 *   r...     what the written rules concluded (./rules-as-features.ts), so the model learns where to trust them
 * Words are lower-cased runs of letters and digits (hyphenated words kept whole and split); numbers become #.
 */
import type { PaperInput } from '../types'
import type { Reading } from '../builtin/reading'

const STOP = new Set(
  (
    'a an and are as at be been but by for from had has have in into is it its of on or than that the their these ' +
    'this those to was were which while with we our not no also can may more most such other both each between after ' +
    'before during over under within about using used use than then there they them he she his her who whom what ' +
    'when where how all any some one two'
  ).split(' '),
)

const NUMBER = /^\d[\d.,-]*$/

/** The lower-cased words of a text as the features name them (numbers as #, hyphenated words whole and in parts). */
export function words(text: string): string[] {
  const out: string[] = []
  for (const raw of text.toLowerCase().match(/[a-z0-9α-ω][a-z0-9α-ω+-]*/g) ?? []) {
    const digit = raw.charCodeAt(0) <= 57
    const token = digit && NUMBER.test(raw) ? '#' : raw.endsWith('-') ? raw.replace(/-+$/, '') : raw
    if (token.length < 2 && token !== '#') continue
    out.push(token)
    if (token.includes('-'))
      for (const part of token.split('-')) if (part.length >= 2 && !STOP.has(part)) out.push(part)
  }
  return out
}

export const contentWord = (w: string) => !STOP.has(w)
const content = (ws: string[]) => ws.filter(contentWord)

export function textFeatures(paper: PaperInput, reading: Reading, withMesh = true): Set<string> {
  const features = new Set<string>()
  const titleWords = words(reading.title)
  for (const w of content(titleWords)) features.add(`t:${w}`)
  for (const part of reading.parts) {
    if (part.role !== 'aim' && part.role !== 'conclusion') continue
    for (const w of content(words(part.text))) features.add(`s:${w}`)
  }
  const abstractWords = words(reading.abstract)
  for (const w of content(abstractWords)) features.add(`a:${w}`)
  for (const seq of [titleWords, abstractWords]) {
    for (let i = 1; i < seq.length; i++)
      if (!(STOP.has(seq[i - 1]) && STOP.has(seq[i]))) features.add(`b:${seq[i - 1]}_${seq[i]}`)
  }
  for (const type of paper.publicationTypes) features.add(`pt:${type.trim().toLowerCase()}`)
  if (withMesh) for (const h of paper.meshHeadings) features.add(`m:${h.descriptor.toLowerCase()}`)
  if (!reading.abstract) features.add('no-abstract')
  return features
}
