/**
 * A chart as the site shows it: a figure whose SVG is labelled by a title and a text alternative,
 * drawn twice (for wide screens and for phones: text drawn for 700 px is unreadable scaled to 390),
 * the stylesheet showing one; under it the numbers as a table and where to get them from the Data API.
 */
import { escapeXml as e } from '../render'
import { drawSvg } from './vega-svg'

/** Drawing widths: the page's column on a wide screen, and a 390 px phone's less the margins. */
export const WIDE = 680
export const NARROW = 320

export type ChartTable = { head: string[]; rows: (string | number)[][] }

export type Chart = {
  id: string // unique on its page: the figure's id and its title's and description's
  title: string
  description: string // the text alternative: what the chart shows, in a sentence or two
  spec: (width: number) => object // the Vega-Lite specification at a drawing width
  table: ChartTable
  api?: string // the Data API request with the same numbers
  widths?: { wide: number; narrow: number } // drawing widths other than the page column's (a sparkline's)
}

/** The root <svg> labelled by its <title> and <desc>, its size left to the stylesheet (width 100%). */
function labelled(svg: string, id: string, variant: string, c: Chart): string {
  const open = svg.indexOf('>')
  const root = svg
    .slice(0, open)
    .replace(/ width="[\d.]+"/, '')
    .replace(/ height="[\d.]+"/, '')
    .replace(' class="marks"', '')
  const ids = `${id}-${variant}`
  return (
    `${root} role="img" aria-labelledby="${ids}-t ${ids}-d" class="chart-${variant}${c.widths ? ' chart-small' : ''}"` +
    `>` +
    `<title id="${ids}-t">${e(c.title)}</title><desc id="${ids}-d">${e(c.description)}</desc>${svg.slice(open + 1)}`
  )
}

function tableHtml(c: Chart): string {
  const cell = (v: string | number) =>
    typeof v === 'number' ? `<td class="n">${v.toLocaleString('en')}</td>` : `<td>${e(v)}</td>`
  return (
    `<div class="scroll" role="region" aria-label="${e(`${c.title}: the numbers`)}" tabindex="0"><table>` +
    `<thead><tr>${c.table.head.map((h) => `<th scope="col">${e(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${c.table.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table></div>`
  )
}

/** Both drawings of a chart, each labelled by its title and description. */
export async function drawChart(c: Chart): Promise<{ wide: string; narrow: string }> {
  const widths = c.widths ?? { wide: WIDE, narrow: NARROW }
  const [wide, narrow] = await Promise.all([drawSvg(c.spec(widths.wide)), drawSvg(c.spec(widths.narrow))])
  return { wide: labelled(wide, c.id, 'wide', c), narrow: labelled(narrow, c.id, 'narrow', c) }
}

/** The figure's HTML: heading, both drawings, the text alternative shown, the numbers in a disclosure. */
export async function chartFigure(c: Chart): Promise<string> {
  const { wide, narrow } = await drawChart(c)
  return (
    `<figure class="chart" id="${e(c.id)}" aria-labelledby="${e(c.id)}-caption">` +
    `${wide}${narrow}` +
    `<figcaption id="${e(c.id)}-caption"><strong>${e(c.title)}.</strong> ${e(c.description)}</figcaption>` +
    `<details><summary>The numbers</summary>${tableHtml(c)}` +
    (c.api ? `<p class="meta">As data: <code>${e(c.api)}</code> (Data API key required).</p>` : '') +
    '</details></figure>'
  )
}
