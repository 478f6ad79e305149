/**
 * Query parameters shared by admin areas, declared like /api/v1's (src/http/params.ts): each
 * parses its raw value with a 400 that names it, and describes itself for the OpenAPI document.
 */
import { invalidParameter } from '../../http/errors'
import { organismRef } from '../../pipeline/intelligence/vocabulary'
import { ENTITY_TYPES } from '../../lexicon/lexicon'
import type { Param } from '../../http/params'

/** Entity types a claim side or an entity filter can name (the lexicon's, and MeSH headings). */
export const FILTER_ENTITY_TYPES = [...ENTITY_TYPES, 'mesh'] as const

/** 'type:key' with a known type; the key may itself hold colons (gene:HGNC:3942). Null when malformed. */
export function parseEntityKey(raw: string): string | null {
  const at = raw.indexOf(':')
  if (at < 1 || at === raw.length - 1 || raw.length > 300) return null
  return (FILTER_ENTITY_TYPES as readonly string[]).includes(raw.slice(0, at)) ? raw : null
}

export const entityMessage = (name: string, raw: string) =>
  `${name} must be type:key with a type among ${FILTER_ENTITY_TYPES.join(', ')} (e.g. intervention:CHEBI:9168 or ` +
  `gene:HGNC:3942; got "${raw}")`

export function entityParam(description: string): Param<string> {
  return {
    description: `${description}, as type:key (e.g. intervention:CHEBI:9168, gene:HGNC:3942); see /api/v1/entities.`,
    schema: {
      type: 'string',
      pattern: `^(${FILTER_ENTITY_TYPES.join('|')}):.+$`,
      maxLength: 300,
      examples: ['intervention:CHEBI:9168'],
    },
    parse: (raw, name) => {
      const key = parseEntityKey(raw)
      if (!key) throw invalidParameter(entityMessage(name, raw))
      return key
    },
  }
}

/** Any common or Latin name of an organism, or its taxon (mouse, mice, Mus musculus, NCBITaxon:10090): one key. */
export function organismParam(description: string): Param<string> {
  return {
    description:
      `${description}: a common or Latin name or an NCBITaxon id (mouse, mice, Mus musculus and ` +
      `NCBITaxon:10090 are one organism).`,
    schema: { type: 'string', minLength: 1, maxLength: 200, examples: ['Mus musculus'] },
    parse: (raw, name) => {
      if (raw.trim() === '' || raw.length > 200)
        throw invalidParameter(`${name} must be an organism name of 1 to 200 characters`)
      return organismRef(raw).key
    },
  }
}
