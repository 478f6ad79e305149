/** Contradiction groups and gaps in their response shape; claims follow the licence rule of /api/v1. */
import type { GroupRow, PairClaimRow, PairRow } from '../../../pipeline/intelligence/contradictions'
import { explainGap, type GapPaperRow, type GapRow } from '../../../pipeline/intelligence/gaps'
import { contradictionApiUrl, paperSiteUrl } from '../../../public-urls'
import { serializeClaim, serializeClaimPaper } from '../../../resources/claims/serialize'
import type { StudyType, TopicSlug } from '../../../taxonomy'
import type { GapKind } from '../../../pipeline/intelligence/gaps'

export const contradictionUrl = contradictionApiUrl

/** A stored side key: 'type:key' names an entity (the key may hold colons), 'text:...' does not. */
export function side(key: string | null, label: string | null) {
  if (key === null) return null
  const at = key.indexOf(':')
  const type = key.slice(0, at)
  const resolved = type !== 'text' && type !== 'topic'
  return { key, label: label ?? key, entity: resolved ? { type, key: key.slice(at + 1), name: label ?? key } : null }
}

function pairSide(row: PairClaimRow, weight: number, base: string) {
  const p = row.paper
  return {
    weight: Math.round(weight * 1e6) / 1e6,
    claim: serializeClaim(row, p.abstractLicense),
    paper: {
      ...serializeClaimPaper(p, base),
      indexed_date: p.indexedDate,
      study_type: p.studyType as StudyType | null,
      topic: p.topic as TopicSlug | null,
    },
  }
}

/** A pair whose claims were replaced since the snapshot (re-analysis) is left out. */
function serializePair(pair: PairRow, claims: Map<number, PairClaimRow>, base: string) {
  const up = claims.get(pair.increase_claim_id)
  const down = claims.get(pair.decrease_claim_id)
  if (!up || !down) return null
  return {
    score: pair.score,
    organism: { key: pair.organism_key, name: pair.organism },
    conditions: pair.conditions,
    increase: pairSide(up, Number(pair.increase_weight), base),
    decrease: pairSide(down, Number(pair.decrease_weight), base),
  }
}

export function serializeGroup(g: GroupRow, pairs: PairRow[], claims: Map<number, PairClaimRow>, base: string) {
  return {
    id: g.id,
    subject: side(g.subjectKey, g.subjectLabel)!,
    object: side(g.objectKey, g.objectLabel)!,
    score: g.score,
    papers: { increase: g.papersIncrease, decrease: g.papersDecrease },
    claims: { increase: g.claimsIncrease, decrease: g.claimsDecrease },
    organisms: g.organismKeys.map((key, i) => ({ key, name: g.organisms[i] ?? key })),
    topics: g.topics as TopicSlug[],
    latest_date: g.latestDate,
    pairs: pairs.map((p) => serializePair(p, claims, base)).filter((p) => p !== null),
    url: contradictionUrl(base, g.id),
  }
}

export function serializeGap(g: GapRow, papers: Map<string, GapPaperRow>, base: string) {
  const { title, explanation } = explainGap(g)
  return {
    id: g.id,
    kind: g.kind as GapKind,
    title,
    explanation,
    score: g.score,
    counts: g.counts,
    subject: side(g.subjectKey, g.subjectLabel),
    object: side(g.objectKey, g.objectLabel),
    topics: g.topics as TopicSlug[],
    papers: [...new Set(g.paperIds)]
      .map((id) => papers.get(id))
      .filter((p) => p !== undefined)
      .slice(0, 3)
      .map((p) => ({
        id: p.id,
        title: p.title,
        journal: p.journal,
        published_date: p.publishedDate,
        indexed_date: p.indexedDate,
        url: p.url,
        site_url: paperSiteUrl(base, p.id),
        study_type: p.studyType as StudyType | null,
      })),
    contradiction_id: g.contradictionId,
    contradiction_url: g.contradictionId ? contradictionUrl(base, g.contradictionId) : null,
    series: g.series ?? null,
  }
}
