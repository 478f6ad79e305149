/**
 * The one spelling every alias look-up compares: lower case, accents and Greek letters spelled out,
 * and everything but letters, digits and "+" dropped, so "p16-INK4a", "p16 INK4a" and "P16INK4A" are
 * one alias, "TNF-α" is "TNF-alpha", and "NAD+" stays apart from "NAD". The lexicon stores aliases in
 * this form (entities.aliases) and queries normalise what the user typed the same way.
 */
const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ω: 'omega',
}

export function normalizeAlias(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[αβγδεκλμω]/g, (c) => GREEK[c])
    .replace(/[^\p{L}\p{N}+]+/gu, '')
}
