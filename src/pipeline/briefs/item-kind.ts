/**
 * Is a feed item research, or a notice about the field (an event, a registration, a call for
 * papers or talks, a job, a press notice)? Decided from the item's title and the first sentence
 * of its summary by phrases, each of which names the notice itself ("registration is open",
 * "call for abstracts", "we are hiring"), so a paper titled "... A Call for Coordination" or
 * "Registered TRAIN Learners" stays research. Notices are set apart in a brief, never findings.
 * The phrases were written and checked against the real feed items of ../shared/fixtures/rss
 * (test/briefs/item-kind.test.ts).
 */

export const NOTICE_KINDS = ['registration', 'call', 'job', 'event', 'press'] as const
export type ItemKind = 'research' | (typeof NOTICE_KINDS)[number]

/** What a reader is told each kind of notice is. */
export const NOTICE_LABEL: Record<(typeof NOTICE_KINDS)[number], string> = {
  registration: 'a registration notice',
  call: 'a call for contributions',
  job: 'a job notice',
  event: 'an event notice',
  press: 'a press notice',
}

const EVENT_NOUN =
  '(?:conference|congress|symposium|symposia|webinar|workshop|summit|meeting|seminar|colloquium|hackathon|retreat' +
  '|course|school|lecture|konferenz|tagung)s?'

/** In order: the first kind whose phrase occurs wins. */
const RULES: [ItemKind, RegExp][] = [
  [
    'registration',
    /\bregistration\b[^.!?]{0,40}\b(?:is |are |now )*(?:open|opens|closing|closes|deadline|extended|ends)\b/i,
  ],
  ['registration', /\bregister (?:now|today|here|by|before|for (?:the|our|this)\b)/i],
  [
    'registration',
    new RegExp(
      String.raw`\b(?:early[- ]bird|ticket sales|tickets (?:are )?(?:on sale|available)|ticketverkauf` +
        String.raw`|anmeldung (?:ist )?(?:offen|gestartet))\b`,
      'i',
    ),
  ],
  [
    'call',
    new RegExp(
      String.raw`\bcalls? for (?:papers|abstracts|proposals|submissions|nominations|applications|applicants` +
        String.raw`|participants|speakers|talks|posters|reviewers|contributions|chapters|entries)\b`,
      'i',
    ),
  ],
  [
    'call',
    new RegExp(
      String.raw`\b(?:abstract|submission|nomination|application)s? (?:deadline|(?:are |is )?(?:now )?(?:open` +
        String.raw`|invited|welcome|due))\b`,
      'i',
    ),
  ],
  ['call', /\b(?:submit|send) (?:your|an|a) (?:abstract|paper|proposal|talk|poster|application)\b/i],
  ['call', /\b(?:scholarships?|travel (?:grants?|awards?)|bewerbungen? für|einreichungen)\b/i],
  [
    'job',
    new RegExp(
      String.raw`\b(?:we(?:'re| are) hiring|now hiring|is hiring|join our (?:team|lab|group)|job (?:opening` +
        String.raw`|opportunit|posting|advert|offer|vacanc)\w*|vacanc(?:y|ies)|stellenangebot` +
        String.raw`|stellenausschreibung)\b`,
      'i',
    ),
  ],
  [
    'job',
    new RegExp(
      String.raw`\b(?:post-?doc(?:toral)?|ph\.?d\.?|faculty|tenure[- ]track|research(?:er)?|technician|scientist` +
        '|fellow(?:ship)?|assistant|associate) (?:positions?|openings?|vacanc(?:y|ies)|posts?' +
        String.raw`|studentships?) (?:available|open|in|at)\b`,
      'i',
    ),
  ],
  ['job', /^(?:job|position|vacancy|hiring)\s*[:|-]/i],
  [
    'event',
    new RegExp(
      String.raw`\b(?:save the date|join us (?:for|at) (?:the|our|this) (?:\w+ ){0,3}(?:conference|congress` +
        '|symposium|webinar|workshop|summit|meeting|seminar|colloquium|lecture)|live from|(?:programme' +
        '|program|agenda) (?:is )?(?:online|announced|now available)|keynote speakers?' +
        String.raw`|call for registration)\b`,
      'i',
    ),
  ],
  ['event', new RegExp(`\\b(?:upcoming|annual|international|virtual|online|free) ${EVENT_NOUN}\\b`, 'i')],
  [
    'event',
    new RegExp(
      `\\b${EVENT_NOUN} (?:on|in|at) (?:january|february|march|april|may|june|july|august|september|october|november` +
        `|december|\\d{1,2} )`,
      'i',
    ),
  ],
  [
    'press',
    new RegExp(
      String.raw`\b(?:press release|news release|media (?:advisory|alert)|for immediate release|(?:is ` +
        '|are )?(?:pleased|proud|excited|delighted|happy) to announce|statement (?:from|by' +
        String.raw`|on behalf of))\b`,
      'i',
    ),
  ],
  ['press', /^announcing\b/i],
]

/** The first sentence of a summary: notices say what they are at once. */
const firstSentence = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s/)[0] ?? ''

export function itemKind(title: string, summary: string | null): ItemKind {
  const text = `${title.replace(/\s+/g, ' ').trim()}\n${firstSentence(summary ?? '')}`
  for (const [kind, pattern] of RULES) if (pattern.test(text)) return kind
  return 'research'
}
