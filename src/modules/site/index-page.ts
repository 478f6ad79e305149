/**
 * The site's index (/topics): every topic with its paper counts, and the most-studied entities of
 * each type (genes, interventions, organisms…), each linked to its page. Home links here and to the
 * most-studied entities themselves (mostStudiedHtml).
 */
import type { EntityListRow } from '../../resources/entities/queries'
import { topicSiteUrl } from '../../public-urls'
import type { TopicInfo } from '../../taxonomy'
import { entitySitePath } from './links'
import { escapeXml as e } from './render'

const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`

/** Entities as a list of links with their paper counts. */
export const entityListHtml = (rows: EntityListRow[]) =>
  `<ul class="items">${rows
    .map(
      (x) =>
        `<li><a href="${e(entitySitePath(x.type, x.key))}">${e(x.name)}</a> ` +
        `<span class="meta">${e(x.type)} · ${count(x.paperCount, 'paper')}</span></li>`,
    )
    .join('')}</ul>`

/** Home's short list of the most-studied entities, and the way to the index. */
export function mostStudiedHtml(rows: EntityListRow[]): string {
  if (rows.length === 0) return ''
  return `<section aria-labelledby="most-studied"><h2 id="most-studied">Most-studied genes, drugs and organisms</h2>
${entityListHtml(rows)}
<p><a href="/topics">All topics and most-studied entities</a></p></section>`
}

/** The whole index: topics, then the most-studied entities by type (most papers first within each). */
type CountedTopic = TopicInfo & { papers_total: number; papers_7d: number }

export function indexPage(
  base: string,
  topics: CountedTopic[],
  entities: EntityListRow[],
): { title: string; body: string } {
  const types = [...new Set(entities.map((x) => x.type))]
  return {
    title: 'Topics and most-studied entities',
    body: `<h1>Topics and most-studied entities</h1>
<section aria-labelledby="topics"><h2 id="topics">Topics</h2><ul class="items">${topics
      .map(
        (t) =>
          `<li><a href="${e(topicSiteUrl(base, t.slug))}">${e(t.name)}</a> ` +
          `<span class="meta">${count(t.papers_total, 'paper')}, ` +
          `${t.papers_7d.toLocaleString('en')} this week · ${e(t.description)}</span></li>`,
      )
      .join('')}</ul></section>
<section aria-labelledby="entities"><h2 id="entities">Most-studied entities</h2>
${entities.length ? '' : '<p>No entities yet.</p>'}
${types
  .map(
    (type, i) =>
      `<h3 id="type-${i}">${e(type[0].toUpperCase() + type.slice(1))}s</h3>` +
      entityListHtml(entities.filter((x) => x.type === type)),
  )
  .join('\n')}</section>
<p class="meta">Entities are ranked by the number of papers that involve them, counted by Geroscope.</p>`,
  }
}
