/** Absolute URLs in responses, all built from PUBLIC_BASE_URL (docs/contract-decisions.md: they must resolve). */
export const paperSiteUrl = (base: string, id: string) => `${base}/papers/${encodeURIComponent(id)}`
export const storyUrl = (base: string, paperId: string) => `${base}/stories/${encodeURIComponent(paperId)}`
export const topicSiteUrl = (base: string, slug: string) => `${base}/topics/${slug}`
export const topicFeedUrl = (base: string, slug: string) => `${base}/topics/${slug}/feed.xml`
export const entityApiUrl = (base: string, type: string, key: string) =>
  `${base}/api/v1/entities/${encodeURIComponent(type)}/${encodeURIComponent(key)}`
export const contradictionApiUrl = (base: string, id: string) =>
  `${base}/api/intelligence/contradictions/${encodeURIComponent(id)}`
