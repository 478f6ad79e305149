/** The topics list: the fixed vocabulary of taxonomy.ts with its counts from the corpus snapshot. */
import { TOPIC_INFO } from '../../../taxonomy'
import type { TopicCounts } from '../stats/service'
import { topicFeedUrl, topicSiteUrl } from '../../../public-urls'

/** Every topic, in TOPIC_INFO order, zero counts included. */
export function listTopics(counts: TopicCounts, base: string) {
  return TOPIC_INFO.map(({ slug, name, description }) => ({
    slug,
    name,
    description,
    papers_7d: counts[slug].papers_7d,
    papers_total: counts[slug].papers_total,
    site_url: topicSiteUrl(base, slug),
    feed_url: topicFeedUrl(base, slug),
  }))
}
