/** Reading the site's charts back: a figure's drawings, the values its bars announce, and its table of numbers. */

/** The markup of the figure with this id. */
export function figureOf(html: string, id: string): string {
  const start = html.indexOf(`<figure class="chart" id="${id}"`)
  if (start < 0) throw new Error(`no figure ${id}`)
  return html.slice(start, html.indexOf('</figure>', start) + '</figure>'.length)
}

/** The root tags of the figure's drawings, and their titles. */
export function drawingsOf(figure: string): { root: string; title: string }[] {
  return [...figure.matchAll(/(<svg [^>]*>)<title id="[^"]+">([^<]*)<\/title>/g)].map((m) => ({
    root: m[1],
    title: m[2],
  }))
}

const unescapeXml = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The values each bar of one drawing announces (Vega's aria-label "Field: value; Field: value"). */
export function barsOf(figure: string, variant: 'wide' | 'narrow' = 'wide'): Record<string, string>[] {
  const start = figure.indexOf(`class="chart-${variant}"`)
  const svg = figure.slice(start, figure.indexOf('</svg>', start))
  return [...svg.matchAll(/<path [^>]*aria-roledescription="bar"[^>]*>/g)]
    .map((m) => /aria-label="([^"]*)"/.exec(m[0])![1])
    .map((label) =>
      Object.fromEntries(
        unescapeXml(label)
          .split('; ')
          .map((kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]),
      ),
    )
}

/** The figure's table of numbers: its header and rows, numbers as numbers. */
export function tableOf(figure: string): { head: string[]; rows: (string | number)[][] } {
  const head = [...figure.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => unescapeXml(m[1]))
  const rows = [...figure.matchAll(/<tr>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<td( class="n")?>([^<]*)<\/td>/g)].map((c) =>
      c[1] ? Number(c[2].replace(/,/g, '')) : unescapeXml(c[2]),
    ),
  )
  return { head, rows }
}
