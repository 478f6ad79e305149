/** TypeBox schema of StoryItem (the paper field is `paper`, docs/contract-decisions.md). */
import { t } from 'elysia'
import { PaperRef, Story } from '../model'

export const StoryItem = t.Object({
  ...Story.properties,
  paper_id: t.String({ pattern: '^(MED|PPR)-[0-9]+$' }),
  paper: PaperRef,
})
