/**
 * Brief material built without a database from the demo corpus generator (src/seed) and from the
 * real feed items of ../shared/fixtures/rss, each item shaped as select.ts shapes it, so the prose
 * the composer writes for them can be read and checked.
 */
import { readdirSync, statSync } from 'node:fs'
import { analyzeArticleBuiltin } from '../../src/pipeline/analysis/builtin/article'
import { itemKind } from '../../src/pipeline/briefs/item-kind'
import type { ArticleItem, Material, PaperItem } from '../../src/pipeline/briefs/select'
import { decodeFeed } from '../../src/pipeline/ingest/rss/decode'
import { parseFeed } from '../../src/pipeline/ingest/rss/parse'
import { entryByKey } from '../../src/lexicon/lexicon'
import { generateCorpus } from '../../src/seed/corpus'
import { sharedFixtureBytes, sharedFixtureDir } from '../support/shared-fixtures'

/** A claim side's entity by the name the entities table gives it (select.ts reads the name from there). */
const nameOf = (e: { type: string; key: string } | null) => (e ? entryByKey(e.type, e.key)?.name : undefined)

/** The analysed, aging-relevant papers of a demo-like corpus, as brief items. */
export function demoPapers(papers = 600, seed = 1): PaperItem[] {
  const items: PaperItem[] = []
  for (const b of generateCorpus({ papers, seed, endDate: '2026-11-16', days: 30 })) {
    const p = b.paper
    if (p.judgedAt === null || (p.relevance ?? 0) < 2) continue
    items.push({
      ref: `P${items.length + 1}`,
      id: p.id,
      title: p.title,
      journal: p.journal,
      publishedDate: p.publishedDate,
      indexedDate: p.indexedDate,
      url: p.url,
      studyType: p.studyType,
      topic: p.topic,
      relevance: p.relevance ?? 0,
      newsworthiness: p.newsworthiness ?? 0,
      preprint: p.preprint,
      claims: b.claims.slice(0, 2).map((c) => ({
        subject: nameOf(c.subjectEntity) ?? c.subjectText,
        subjectKey: c.subjectEntity ? `${c.subjectEntity.type}:${c.subjectEntity.key}` : null,
        relation: c.relation,
        object: nameOf(c.objectEntity) ?? c.objectText,
        objectKey: c.objectEntity ? `${c.objectEntity.type}:${c.objectEntity.key}` : null,
        organism: c.organism,
        direction: c.direction,
        magnitude: c.magnitude,
      })),
      story: b.story ? { headline: b.story.headline, dek: b.story.dek } : null,
    })
  }
  return items
}

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(dir + f).isDirectory() ? walk(`${dir}${f}/`) : [dir + f]))

/** Every item of the real feeds (read with the service's own decoder and parser), analysed by the built-in analyzer. */
export async function fixtureFeedItems(): Promise<(ArticleItem & { file: string })[]> {
  const out: (ArticleItem & { file: string })[] = []
  const root = `${sharedFixtureDir}rss/`
  for (const path of walk(root)
    .filter((f) => /\.(xml|rss|atom|rdf)$/.test(f) && !f.includes('/expected/'))
    .sort()) {
    const file = path.slice(root.length)
    let articles
    try {
      articles = (await parseFeed(decodeFeed(sharedFixtureBytes(`rss/${file}`), null).text)).articles
    } catch {
      continue // the ill-formed feeds the parser refuses
    }
    const source = file
      .split('/')
      .pop()!
      .replace(/\.[a-z.]+$/, '')
    for (const a of articles) {
      const analysis = analyzeArticleBuiltin({ id: out.length + 1, title: a.title, summary: a.summary, link: a.link })
      out.push({
        file,
        ref: `A${out.length + 1}`,
        id: out.length + 1,
        title: a.title,
        link: a.link,
        source,
        publishedAt: a.publishedAt?.toISOString() ?? null,
        summary: analysis.summary,
        keyPoints: analysis.keyPoints,
        tags: analysis.tags,
        paperId: null,
        kind: itemKind(a.title, analysis.summary),
      })
    }
  }
  return out
}

export function materialOf(papers: PaperItem[], items: ArticleItem[]): Material {
  return {
    papers,
    articles: items.filter((a) => a.kind === 'research'),
    notices: items.filter((a) => a.kind !== 'research'),
    papersInWindow: papers.length,
    disagreements: [],
  }
}
