/**
 * The Vega-Lite specifications of the site's charts, one function per kind of chart, each drawn at a
 * given width. Text is sized to stay readable on a phone; every mark keeps Vega's own aria-label
 * (its values in words), so a screen reader can walk the bars.
 */
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'

const narrow = (width: number) => width < 500
const INK = '#1d1d1f'

function base(width: number, height: number) {
  return {
    $schema: SCHEMA,
    width,
    height,
    autosize: { type: 'fit-x', contains: 'padding' }, // the width is the page's; the height is the plot's own
    background: 'white',
    config: {
      font: 'system-ui, sans-serif',
      axis: {
        labelFontSize: 12,
        titleFontSize: 12,
        titleFontWeight: 'normal',
        labelColor: INK,
        titleColor: INK,
        labelOverlap: 'greedy',
      },
      legend: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: 'normal', labelColor: INK, labelLimit: 200 },
      view: { stroke: null },
    },
  }
}

/** Papers per month, stacked by a category (topic) in the order given (a stack follows its colour's sort). */
export function monthlyStacked(
  values: { month: string; group: string; papers: number }[],
  groups: string[],
  groupTitle: string,
  stepTitle = 'Month indexed',
  valueTitle = 'Papers',
) {
  return (width: number) => ({
    ...base(width, narrow(width) ? 200 : 220),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'month', type: 'ordinal', title: stepTitle, axis: { labelAngle: -60 } },
      y: { field: 'papers', type: 'quantitative', title: valueTitle, axis: { tickMinStep: 1 } },
      color: {
        field: 'group',
        type: 'nominal',
        title: groupTitle,
        sort: groups,
        scale: { domain: groups, scheme: 'tableau20' },
        legend: { orient: 'bottom', direction: 'horizontal', columns: narrow(width) ? 1 : 3 },
      },
    },
  })
}

/** One count per ordered step (months, years): vertical bars. */
export function steps(values: { step: string; papers: number }[], stepTitle: string, valueTitle = 'Papers') {
  return (width: number) => ({
    ...base(width, narrow(width) ? 180 : 200),
    data: { values },
    mark: { type: 'bar', color: '#0a58a8' },
    encoding: {
      x: { field: 'step', type: 'ordinal', title: stepTitle, axis: { labelAngle: values.length > 8 ? -60 : 0 } },
      y: { field: 'papers', type: 'quantitative', title: valueTitle, axis: { tickMinStep: 1 } },
    },
  })
}

/** Counts by an unordered category, largest first: horizontal bars. */
export function shares(values: { label: string; count: number }[], labelTitle: string, countTitle: string) {
  return (width: number) => ({
    ...base(width, Math.max(60, 26 * values.length)),
    data: { values },
    mark: { type: 'bar', color: '#0a58a8' },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        title: labelTitle,
        sort: '-x',
        axis: { labelLimit: narrow(width) ? 120 : 240 },
      },
      x: { field: 'count', type: 'quantitative', title: countTitle, axis: { tickMinStep: 1 } },
    },
  })
}

/** Words for a claim's direction, and their colours: up, down, flat, mixed, unknown. */
export const DIRECTIONS = ['increase', 'decrease', 'no change', 'mixed', 'not stated']
const DIRECTION_COLOURS = ['#1a7f37', '#b42318', '#6e7781', '#9a6700', '#b8b8b8']

/**
 * Claims by organism (rows) and direction (colour, in a fixed order), stacked horizontally. Rows of
 * another kind (contradiction groups) name their field and title, and may keep the order given.
 */
export function directions(
  values: { direction: string; claims: number; [row: string]: string | number }[],
  row: { field: string; title: string; sort?: string[]; directions?: string[] } = {
    field: 'organism',
    title: 'Organism',
  },
) {
  const domain = row.directions ?? DIRECTIONS
  const range = domain.map((d) => DIRECTION_COLOURS[DIRECTIONS.indexOf(d)])
  const rows = new Set(values.map((v) => v[row.field])).size
  return (width: number) => ({
    ...base(width, Math.max(60, 28 * rows)),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: {
        field: row.field,
        type: 'nominal',
        title: row.title,
        sort: row.sort ?? '-x',
        axis: { labelLimit: narrow(width) ? 110 : 240 },
      },
      x: { field: 'claims', type: 'quantitative', title: 'Claims', axis: { tickMinStep: 1 } },
      color: {
        field: 'direction',
        type: 'nominal',
        title: 'Direction',
        sort: domain,
        scale: { domain, range },
        legend: { orient: 'bottom', direction: 'horizontal', columns: narrow(width) ? 3 : 5 },
      },
    },
  })
}

/** Several counts per day as lines with points, one colour per series in the order given. */
export function dailyLines(
  values: { day: string; series: string; count: number }[],
  series: string[],
  valueTitle: string,
) {
  return (width: number) => ({
    ...base(width, narrow(width) ? 180 : 200),
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'day', type: 'ordinal', title: 'Day (UTC)', axis: { labelAngle: -60 } },
      y: { field: 'count', type: 'quantitative', title: valueTitle, axis: { tickMinStep: 1 } },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        sort: series,
        scale: { domain: series, range: ['#0a58a8', '#1a7f37', '#b42318', '#9a6700'] },
        legend: { orient: 'bottom', direction: 'horizontal' },
      },
    },
  })
}

/**
 * A sparkline: papers per period, oldest first, as a line with a point per period, the recent ones
 * in red. No axes (the figure's table holds the numbers); each point announces its period and count.
 */
export function sparkline(values: { period: string; papers: number; window: string }[], windows: [string, string]) {
  return (width: number) => {
    const x = { field: 'period', type: 'ordinal', title: 'Period', sort: null, axis: null }
    const y = { field: 'papers', type: 'quantitative', title: 'Papers', axis: null, scale: { zero: true } }
    return {
      ...base(width, 44),
      data: { values },
      layer: [
        // the points speak
        { mark: { type: 'line', color: '#6e7781', strokeWidth: 1.5, aria: false }, encoding: { x, y } },
        {
          mark: { type: 'point', filled: true, size: 28, opacity: 1 },
          encoding: {
            x,
            y,
            color: {
              field: 'window',
              type: 'nominal',
              title: 'Window',
              scale: { domain: windows, range: ['#6e7781', '#b42318'] },
              legend: null,
            },
          },
        },
      ],
    }
  }
}
