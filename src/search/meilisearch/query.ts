/**
 * Our query syntax (the contract's: words, "quoted phrases", OR, -exclusions, as PostgreSQL's
 * websearch_to_tsquery reads it) translated for Meilisearch, which understands phrases and
 * -exclusions (v1.8+) but has no OR. An OR query becomes several branches, one Meilisearch query
 * each, merged by federated multi-search: `a b OR c d` means a AND (b OR c) AND d, so its
 * branches are "a b d" and "a c d". Exclusions apply to every branch.
 */

/** GLP-1 and GLP1, IL-6 and IL6 are one name: the same rule as the SQL function geroscope_search_text. */
export const joinNumberHyphens = (text: string) => text.replace(/([\p{L}\p{N}])-(\p{N})/gu, '$1$2')

/** More alternatives than this are not worth a query each; PostgreSQL answers such a query instead. */
export const MAX_BRANCHES = 16

export type MeiliQuery = { branches: string[]; exclusions: string[] }

type Operand = { text: string; negated: boolean }

function tokenize(q: string): (Operand | 'OR')[] {
  const tokens: (Operand | 'OR')[] = []
  const pattern = /(-?)"([^"]*)("?)|(\S+)/g
  for (const match of joinNumberHyphens(q).matchAll(pattern)) {
    if (match[2] !== undefined) {
      const words = match[2].trim().split(/\s+/).filter(Boolean).join(' ')
      if (words) tokens.push({ text: `"${words}"`, negated: match[1] === '-' })
      continue
    }
    const word = match[4]
    if (word === 'OR') tokens.push('OR')
    else if (word.startsWith('-')) {
      const rest = word.replace(/^-+/, '')
      if (rest) tokens.push({ text: rest, negated: true })
    } else tokens.push({ text: word, negated: false })
  }
  return tokens
}

/** null: too many alternatives for Meilisearch (more than MAX_BRANCHES). */
export function translateQuery(q: string): MeiliQuery | null {
  const groups: string[][] = [] // AND of groups; each group is an OR of operands
  const exclusions: string[] = []
  let joinNext = false
  for (const token of tokenize(q)) {
    if (token === 'OR') {
      joinNext = groups.length > 0 // a leading or doubled OR is a plain word to nobody: ignore it
      continue
    }
    if (token.negated) {
      exclusions.push(`-${token.text}`)
      joinNext = false
      continue
    }
    if (joinNext) groups[groups.length - 1].push(token.text)
    else groups.push([token.text])
    joinNext = false
  }
  let branches = ['']
  for (const group of groups) {
    branches = branches.flatMap((prefix) => group.map((operand) => (prefix ? `${prefix} ${operand}` : operand)))
    if (branches.length > MAX_BRANCHES) return null
  }
  return { branches: branches.filter(Boolean), exclusions }
}

/** The `q` of one Meilisearch query: a branch and every exclusion. */
export const branchQuery = (branch: string, exclusions: string[]) => [branch, ...exclusions].join(' ').trim()
