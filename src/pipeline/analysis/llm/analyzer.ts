/**
 * The model analyzer: each task (judge, entities, claims, story, support, article) sends its system
 * prompt from the prompts table and the paper record (quoted as untrusted data, src/pipeline/prompts/source-data.ts),
 * and takes back validated JSON. Entities and claims are resolved to lexicon entries where their names
 * match, so model and built-in results share keys. Stories are written only for papers the model judged newsworthy (2
 * or more).
 */
import type { Db } from '../../../db/client'
import { currentPrompt } from '../../prompts/service'
import type { Analyzer, ArticleInput, PaperAnalysis } from '../analyzer'
import { lookupTerm } from '../../../lexicon/matcher'
import { checkSupport, claimOrganismKeys } from '../support'
import { sideEntity } from '../side-entity'
import { designPhrase, population, studyOrganism, withArticle } from '../story-words'
import type { StudyType } from '../../../taxonomy'
import type { ClaimSide, FoundClaim, FoundEntity, PaperInput } from '../types'
import { LlmClient, type LlmClientOptions, type Validator } from './client'
import { sourceMessage } from '../../prompts/source-data'
import {
  ARTICLE_FORMAT,
  CLAIMS_FORMAT,
  claimsValidator,
  ENTITIES_FORMAT,
  JUDGE_FORMAT,
  STORY_FORMAT,
  SUPPORT_FORMAT,
  validateArticle,
  validateEntities,
  validateJudge,
  validateStory,
  validateSupport,
} from './schemas'

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9+]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80) || 'unnamed'

/** A lexicon entry of the same type when the name (or the quoted mention) names one; else a slug key. */
function resolve(type: string, name: string, mention?: unknown): Omit<FoundEntity, 'role' | 'detail'> {
  for (const term of [name, typeof mention === 'string' ? mention : null]) {
    const entry = term ? lookupTerm(term) : undefined
    if (entry && entry.type === type)
      return { type, key: entry.key, name: entry.name, ids: entry.ids as Record<string, string> }
  }
  return { type, key: slug(name), name, ids: {} }
}

/** A side the model wrote as a lexicon name or alias, in any case ("Sirolimus", "p16INK4a"), is that entity. */
function claimSide(text: string): ClaimSide {
  return { text, entity: sideEntity(text) }
}

/** The paper record as quoted source data (source-data.ts), after what to answer. */
function paperMessage(paper: PaperInput, format: string, extra = ''): string {
  return sourceMessage([`Answer with one JSON object only, shaped like ${format}.`, extra], {
    title: paper.title,
    abstract: paper.abstract,
    journal: paper.journal,
    preprint: paper.preprint,
    publication_types: paper.publicationTypes,
    mesh_headings: paper.meshHeadings.map((h) => h.descriptor),
    keywords: paper.keywords,
  })
}

/**
 * The design and population words the story must use, from the judgement and the record (story-words.ts), so the
 * model's story cannot disagree with the paper's judgement; the support check holds back one that does.
 */
function storyBrief(paper: PaperInput, studyType: StudyType, claims: FoundClaim[]): string {
  const where = population(studyType, studyOrganism(studyType, claimOrganismKeys(claims)))
  return (
    `Call the study ${withArticle(designPhrase(studyType, paper))}${where ? ` in ${where}` : ''}, in those words; ` +
    `name no other design, ` +
    'and no other organism or population as where the study was done.'
  )
}

export function llmAnalyzer(db: Db, options: LlmClientOptions): Analyzer & { client: LlmClient } {
  const client = new LlmClient(options)
  const ask = async <T>(task: string, user: string, validate: Validator<T>) => {
    const prompt = await currentPrompt(db, task)
    return client.completeJson(task, prompt.body, user, validate)
  }
  return {
    client,
    model: options.model,
    concurrency: options.concurrency,
    promptVersion: async () => `judge-v${(await currentPrompt(db, 'judge')).version}`,
    articlePromptVersion: async () => `article-v${(await currentPrompt(db, 'article')).version}`,
    usage: () => client.usage(),

    async analyzePaper(paper: PaperInput): Promise<PaperAnalysis> {
      const judgement = await ask('judge', paperMessage(paper, JUDGE_FORMAT), validateJudge)
      if (!paper.abstract) return { judgement, entities: [], claims: [], story: null }
      const abstract = paper.abstract
      const [rawEntities, rawClaims] = await Promise.all([
        ask('entities', paperMessage(paper, ENTITIES_FORMAT), validateEntities),
        ask('claims', paperMessage(paper, CLAIMS_FORMAT), claimsValidator(abstract)),
      ])
      const entities: FoundEntity[] = rawEntities.map((e) => ({
        ...resolve(e.type, e.name, e.detail?.mention),
        role: e.role,
        detail: e.detail,
      }))
      const claims: FoundClaim[] = rawClaims.map((c) => ({
        subject: claimSide(c.subject),
        relation: c.relation,
        object: claimSide(c.object),
        organism: c.organism,
        context: c.context,
        direction: c.direction,
        magnitude: c.magnitude,
        evidence: c.evidence,
        confidence: c.confidence ?? 0.7,
      }))
      let story: PaperAnalysis['story'] = null
      if (judgement.newsworthiness >= 2) {
        const draft = await ask(
          'story',
          paperMessage(paper, STORY_FORMAT, storyBrief(paper, judgement.studyType, claims)),
          validateStory,
        )
        const check = await ask(
          'support',
          sourceMessage([`Answer with one JSON object only, shaped like ${SUPPORT_FORMAT}.`], {
            abstract,
            story: {
              headline: draft.headline,
              dek: draft.dek,
              body: draft.body,
              why_it_matters: draft.whyItMatters,
              caveats: draft.caveats,
            },
          }),
          validateSupport,
        )
        // The model's verdict, bounded by the same rule-based check built-in stories get.
        const rules = checkSupport(draft, `${paper.title} ${abstract}`, {
          studyType: judgement.studyType,
          record: paper,
          claimOrganisms: claimOrganismKeys(claims),
        })
        story = {
          ...draft,
          support: Math.min(check.support, rules.support),
          model: options.model,
          problems: [...check.problems, ...rules.problems],
        }
      }
      return { judgement, entities, claims, story }
    },

    async analyzeArticle(article: ArticleInput) {
      const answer = await ask(
        'article',
        sourceMessage([`Answer with one JSON object only, shaped like ${ARTICLE_FORMAT}.`], {
          title: article.title,
          summary: article.summary,
          link: article.link,
        }),
        validateArticle,
      )
      return { summary: answer.summary, keyPoints: answer.keyPoints, tags: answer.tags, entities: [], claims: [] }
    },
  }
}
