// Sentence capitalisation for the synthetic corpus, in a file of its own because the topic profiles
// (./topic-profiles.ts) need it and the other wording helpers (./phrases.ts) need the designs built from them.

/**
 * Upper-cases the first letter of a sentence, except in mixed-case tokens such as mTOR, mtDNA,
 * iPSC or p16INK4a, which keep their spelling wherever they stand.
 */
export function cap(text: string): string {
  const first = text.charCodeAt(0)
  if (first < 97 || first > 122) return text
  const space = text.indexOf(' ')
  if (MIXED_CASE.test(space < 0 ? text.slice(1) : text.slice(1, space))) return text
  return text[0]!.toUpperCase() + text.slice(1)
}
const MIXED_CASE = /[A-Z0-9]/
