/**
 * TypeBox schemas of the claim list: ClaimPaper and ClaimItem, whose paper field is `paper`
 * (docs/contract-decisions.md).
 */
import { t } from 'elysia'
import { claimFields, paperRefFields } from '../model'

const { id, title, doi, journal, published_date, preprint, url, site_url } = paperRefFields

export const ClaimPaper = t.Object({ id, title, doi, journal, published_date, preprint, url, site_url })

export const ClaimItem = t.Object({ ...claimFields, paper: ClaimPaper })
