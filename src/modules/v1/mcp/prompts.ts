/** MCP prompts: common research questions, each a message that tells the agent which tools answer it. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] })

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'summarise_evidence',
    {
      title: 'Summarise the evidence for an intervention',
      description:
        'What the literature says about an intervention (or gene) and an outcome, by organism and study design.',
      argsSchema: {
        intervention: z.string().describe('An intervention or gene by any name: rapamycin, metformin, SIRT1.'),
        outcome: z.string().describe('The outcome, e.g. lifespan, healthspan, cognition.'),
      },
    },
    ({ intervention, outcome }) =>
      user(
        `Summarise the evidence that ${intervention} affects ${outcome}. Call get_evidence with subject ` +
          `"${intervention}" and ` +
          `object "${outcome}"; for each organism and direction, read the strongest papers with get_paper. Separate ` +
          `evidence in ` +
          'people (trials, then observational studies) from animal, invertebrate and cell studies, say where results ' +
          'disagree, and cite every paper by id and DOI. If get_evidence finds nothing, try search_papers and ' +
          'find_entities for other names.',
      ),
  )

  server.registerPrompt(
    'whats_new',
    {
      title: "What's new in a topic",
      description: 'The newest notable papers and stories of a topic.',
      argsSchema: { topic: z.string().describe('A topic slug from list_topics, e.g. senescence, mtor-rapamycin.') },
    },
    ({ topic }) =>
      user(
        `What is new in ${topic}? Call list_stories with topic "${topic}" for the stories written about notable ` +
          `papers, and ` +
          `search_papers or the resource geroscope://topics/${topic} for the newest papers. Report the three to five ` +
          `most ` +
          'important findings with their study type and organism, and cite each paper by id and DOI.',
      ),
  )

  server.registerPrompt(
    'entity_profile',
    {
      title: 'Profile of a gene or intervention',
      description: 'Everything the corpus holds about one entity: its papers, claims and the evidence they add up to.',
      argsSchema: {
        type: z.string().describe('gene, intervention, organism, pathway, ...'),
        name: z.string().describe('Its key, name or alias: SIRT1, rapamycin, NMN.'),
      },
    },
    ({ type, name }) =>
      user(
        `Give a profile of the ${type} ${name}. Call get_entity with type "${type}" and key "${name}" for its ` +
          `papers, and ` +
          `list_claims with subject "${name}" for what papers claim about it; group the claims by relation and ` +
          `organism, note ` +
          'contradictions, and cite papers by id and DOI.',
      ),
  )
}
