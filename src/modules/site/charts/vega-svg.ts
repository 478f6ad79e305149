/**
 * Vega-Lite specifications drawn as SVG on the server, with no browser and no script on the page.
 * Vega is loaded on the first chart (it is large: the pages that draw none never pay for it), and
 * drawings are kept by their specification's hash: the data is inside the specification, so a chart
 * is drawn again only when its numbers change. Drawing one takes tens of milliseconds against a few
 * for the rest of a page (scripts/bench-charts.ts measures both).
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'

type Drawer = (spec: object) => Promise<string>

let drawer: Promise<Drawer> | null = null

/** vega and vega-lite, imported once, as a function from a Vega-Lite specification to SVG markup. */
function loadDrawer(): Promise<Drawer> {
  drawer ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, lite]) => async (spec: object) => {
    const view = new vega.View(vega.parse(lite.compile(spec as never).spec), { renderer: 'none' })
    try {
      return await view.toSVG()
    } finally {
      view.finalize()
    }
  })
  return drawer
}

/** Drawings by specification hash; a drawing is a few tens of kilobytes. */
const drawings = new LRUCache<string, Promise<string>>({ max: 500 })

/** The SVG of a Vega-Lite specification: from the drawings kept when its hash is there, else drawn (and kept). */
export function drawSvg(spec: object): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify(spec)).digest('base64url')
  const kept = drawings.get(key)
  if (kept) return kept
  const drawn = loadDrawer().then((draw) => draw(spec))
  drawings.set(key, drawn)
  drawn.catch(() => drawings.delete(key)) // a failure is not kept
  return drawn
}

/** How many drawings are kept (for the benchmark and tests). */
export const keptDrawings = () => drawings.size

/** Forget every drawing (the benchmark's cold runs). */
export const forgetDrawings = () => drawings.clear()
