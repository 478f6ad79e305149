// Sources: GET/POST /api/sources, PATCH (enable, disable) and DELETE /api/sources/{id}, and a
// scrape of one source (POST /api/scrape with its id).
import { api, get, post } from '../api.js'
import { announce, append, begin, externalLink, field, formatTime, h, replace, table } from '../dom.js'
import { actionButton, confirmButton, input, onSubmit, submit, words } from '../forms.js'
import { scrapeResult } from './results.js'

export async function render(main) {
  begin(main, 'Sources', 'The RSS and Atom feeds the scraper reads every half hour, with how their last fetch went.')
  const list = h('div', { id: 'source-list' })
  const result = h('div', { id: 'scrape-result' })
  const name = input({ name: 'name', required: true, maxlength: '200' })
  const form = h('form', { class: 'card', 'aria-labelledby': 'add-source' },
    h('h2', { id: 'add-source' }, 'Add a source'),
    field('Name', name),
    field('Feed URL', input({ name: 'url', type: 'url', required: true, maxlength: '2048', placeholder: 'https://example.org/feed.xml' }), 'An http or https RSS or Atom feed.'),
    field('Tags', input({ name: 'tags', maxlength: '400' }), 'Optional, separated by commas: lowercase letters, digits and "-".'),
    h('div', { class: 'field check' }, h('input', { type: 'checkbox', name: 'enabled', id: 'source-enabled', checked: true }), h('label', { for: 'source-enabled' }, 'Enabled')),
    submit('Add source'))
  append(main, list, result, form)

  const refresh = async () => {
    const answer = await get('/api/sources')
    replace(list, table('RSS sources', ['Name', 'Feed', 'Tags', 'Enabled', 'Last status', 'Last fetched', 'Last error', 'Articles', 'Actions'],
      answer.data.map((source) => [
        source.name, externalLink(source.url), source.tags.join(', ') || '—', source.enabled ? 'yes' : 'no',
        h('span', { class: `badge ${source.last_status}` }, source.last_status), formatTime(source.last_fetched_at),
        source.last_error ?? '—', String(source.article_count), actions(source),
      ])))
  }
  const actions = (source) => h('div', { class: 'actions' },
    actionButton(source.enabled ? 'Disable' : 'Enable', async () => {
      await api('PATCH', `/api/sources/${source.id}`, { enabled: !source.enabled })
      announce(`${source.name}: ${source.enabled ? 'disabled' : 'enabled'}.`)
      await refresh()
    }, { 'aria-label': `${source.enabled ? 'Disable' : 'Enable'} ${source.name}` }),
    actionButton('Scrape now', async () => {
      announce(`Scraping ${source.name}…`)
      const answer = await post('/api/scrape', { source_ids: [source.id] })
      replace(result, scrapeResult(answer.data))
      announce(`Scrape of ${source.name} done: ${answer.data.counts.added} articles added.`)
      await refresh()
    }, { 'aria-label': `Scrape now: ${source.name}` }),
    confirmButton('Delete', `Confirm: delete ${source.name}`, async () => {
      const answer = await api('DELETE', `/api/sources/${source.id}`)
      announce(`${source.name} deleted, with ${answer.data.deleted_articles} articles.`)
      await refresh()
    }, { 'aria-label': `Delete ${source.name}` }))

  onSubmit(form, async (data) => {
    const answer = await post('/api/sources', {
      name: data.get('name'), url: data.get('url'), tags: words(data.get('tags')), enabled: data.get('enabled') === 'on',
    })
    announce(`Source ${answer.data.name} added.`)
    form.reset()
    await refresh()
    name.focus()
  })
  await refresh()
}
