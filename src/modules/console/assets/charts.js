// Charts the service drew (SVG with a title, a text alternative and the numbers as a table), made
// into figures: the same markup as the overview's (screens/overview.js).
import { h, table } from './dom.js'

/**
 * A chart's SVG as a node. The markup is the service's own drawing (vega's SVG renderer escapes every
 * text it draws), parsed as XML, never as HTML: a script in it would not run, and the CSP allows none.
 */
export function svgNode(markup) {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml').documentElement
  return parsed.nodeName === 'svg' ? document.importNode(parsed, true) : h('p', {}, 'The chart could not be drawn.')
}

/** A figure: both drawings (the stylesheet shows one), the caption, and the numbers in a disclosure. */
export const chartFigure = (chart) => h('figure', { class: 'chart', id: chart.id, 'aria-labelledby': `${chart.id}-caption` },
  svgNode(chart.svg.wide), svgNode(chart.svg.narrow),
  h('figcaption', { id: `${chart.id}-caption` }, h('strong', {}, `${chart.title}. `), chart.description),
  h('details', {}, h('summary', {}, 'The numbers'),
    table(chart.title, chart.table.head, chart.table.rows.map((r) => r.map(String)))))
