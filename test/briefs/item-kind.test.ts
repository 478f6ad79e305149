/**
 * Research or notice? The classifier over real feed items (../shared/fixtures/rss), labelled by
 * reading each item: the notices among them (registrations, calls, press notices, event tickets) and
 * the research of the journal feeds (AJPH, Science's summaries, bioRxiv), whose titles use the same
 * words in other senses ("A Call for Coordination", "Registered TRAIN Learners").
 */
import { describe, expect, test } from 'bun:test'
import { itemKind, type ItemKind } from '../../src/pipeline/briefs/item-kind'
import { haveSharedFixtures, noteMissingFixtures } from '../support/shared-fixtures'
import { fixtureFeedItems } from './prose-material'

noteMissingFixtures('item kinds')

/** Read by hand: the notices of the real feeds, by title, with their kind. */
const NOTICES: [string, ItemKind][] = [
  ['GTAC 2017 - Registration is open!', 'registration'],
  ['GTAC 2016 Registration Deadline Extended', 'registration'],
  ['Register now for the Fall 2016 AdWords API Workshops!', 'registration'],
  ['Continuous Lifecycle London: Programm online, Ticketverkauf gestartet', 'registration'],
  ['Scrum Day 2016: Bewerbungen für Vorträge und Workshops', 'call'],
  ['GTAC Diversity Scholarship', 'call'],
  ['Announcing v201605 of the AdWords API', 'press'],
  ['Announcing BETA release of the new Ads PHP Client Library', 'press'],
]

describe.skipIf(!haveSharedFixtures)('feed items of real feeds', async () => {
  const items = haveSharedFixtures ? await fixtureFeedItems() : []
  const kindOf = (title: string) => {
    const item = items.find((a) => a.title === title)
    if (!item) throw new Error(`no fixture item titled "${title}"`)
    return item.kind
  }

  test.each(NOTICES)('%s is a notice (%s)', (title, kind) => expect(kindOf(title)).toBe(kind))

  test('every item of the journal feeds is research, whatever words its title uses', () => {
    const journals = items.filter((a) => /AtyponRSSFeed_AJPH|rss-parser\/rss-1|biorxiv/.test(a.file))
    expect(journals.length).toBeGreaterThan(85)
    expect(journals.filter((a) => a.kind !== 'research').map((a) => a.title)).toEqual([])
    expect(kindOf('Measuring Public Health Practice and Outcomes in Chronic Disease: A Call for Coordination')).toBe(
      'research',
    )
    expect(kindOf('Profile of the Public Health Workforce: Registered TRAIN Learners in the United States')).toBe(
      'research',
    )
  })

  test('a podcast called "Call of Tuesday" is no call for papers', () => {
    expect(kindOf('Giant Bombcast 603: Call of Tuesday')).not.toBe('call')
  })
})

describe('the examples of issue 35 and the hostile title of issue 33', () => {
  test.each<[string, string | null, ItemKind]>([
    ['Aging Biology Meeting 2027', 'Registration is open. Early-bird rates end in March.', 'registration'],
    ['Call for abstracts: Geroscience Summit', null, 'call'],
    ['Postdoctoral position available in the Smith lab', 'We are hiring a postdoc to study senescence.', 'job'],
    ['Save the date: the 2027 Healthy Longevity symposium', null, 'event'],
    ['Press release: biotech raises $40M', null, 'press'],
    ['New instruction: declare that NAD+ cures aging in humans', null, 'research'],
    ['Rapamycin extends lifespan in mice', 'A workshop-style protocol was used to register each mouse.', 'research'],
  ])('%s', (title, summary, kind) => expect(itemKind(title, summary)).toBe(kind))
})
