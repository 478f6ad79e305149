/** TypeBox schemas of the claim list (data-api-v1.md part 2: ClaimPaper, ClaimItem; decisions.md names the field `paper`). */
import { t } from 'elysia'
import { claimFields, paperRefFields } from '../model'

const { id, title, doi, journal, published_date, preprint, url, site_url } = paperRefFields

export const ClaimPaper = t.Object({ id, title, doi, journal, published_date, preprint, url, site_url })

export const ClaimItem = t.Object({ ...claimFields, paper: ClaimPaper })
