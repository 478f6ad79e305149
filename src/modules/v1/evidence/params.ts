/** The parameters of /api/v1/evidence: a question (subject and object, both required) and its optional narrowing. */
import { invalidParameter, quoted } from '../../../http/errors'
import { listParam, stringParam, type Param } from '../params'
import { curatedLexicon, curatedNamed } from '../../../lexicon/lexicon'
import { STUDY_TYPES } from '../../../taxonomy'

const MAX_LENGTH = 200

/** A required text: absent, empty or blank is a 400 naming it. */
function questionParam(description: string, example: string): Param<string> {
  const base = stringParam(description, MAX_LENGTH)
  return {
    ...base,
    schema: { ...base.schema, examples: [example] },
    required: true,
    parse: (raw, name) => {
      if (raw.trim() === '') throw invalidParameter(`${name} must not be empty`)
      return base.parse(raw, name)
    },
  }
}

const ORGANISM_NAMES = curatedLexicon.filter((e) => e.type === 'organism').map((e) => e.name)

/**
 * Any name of an organism the lexicon knows (mouse, mice, Mus musculus); anything else is a 400 rather than an empty
 * answer.
 */
const organismParam: Param<string> = {
  description:
    'Only claims in this organism: any name of an organism the service knows (mouse, mice and Mus musculus are one), ' +
    'matched as /api/v1/claims matches organism. An organism the service does not know is a 400.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_LENGTH,
    examples: ['mouse'],
    'x-allowed-values': ORGANISM_NAMES,
  },
  parse: (raw, name) => {
    if (raw.trim() === '') throw invalidParameter(`${name} must not be empty`)
    if (raw.length > MAX_LENGTH)
      throw invalidParameter(`${name} must be at most ${MAX_LENGTH} characters (got ${raw.length})`)
    if (!curatedNamed('organism', raw)) {
      throw invalidParameter(
        `${name} ${quoted(raw)} is not an organism the service knows; use a name such ` +
          `as ${ORGANISM_NAMES.slice(0, 6).join(', ')}`,
      )
    }
    return raw
  },
}

export const evidenceParams = {
  subject: questionParam(
    "What acts: an entity's key, name or any alias, ignoring case (rapamycin, sirolimus and CHEBI:9168 are one); " +
      'never a longer word that contains it (temsirolimus is its own entity). A subject that names no entity is a 404.',
    'rapamycin',
  ),
  object: questionParam(
    'The outcome, matched as /api/v1/claims matches object: an entity it names exactly (lifespan), with the ' +
      'unresolved claim objects whose text contains it; otherwise a case-insensitive substring of the object text.',
    'lifespan',
  ),
  organism: organismParam,
  study_type: listParam('Only claims from papers of these study types.', STUDY_TYPES),
}
