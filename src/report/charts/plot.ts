// Observable Plot on Node: charts are drawn at report time into SVG text, on linkedom's DOM, so a report needs no
// script or network when it is viewed. Shared here: the document, log-axis ticks, colours, an in-chart legend.
import * as Plot from '@observablehq/plot'
import { parseHTML } from 'linkedom'

/** A drawn chart: its SVG text, and how many data points it marks (the browser test counts them). */
export interface Chart {
  /** File-name-safe and unique within a report: 'roofline-h100-sxm-float32'. */
  id: string
  title: string
  /** One line under the title: what is drawn and what the marks mean. */
  caption: string
  svg: string
  /** The marks of the chart's data (cases, samples): the elements of the group labelled POINTS_CLASS. */
  points: number
}

/** The class of the mark group that draws a chart's data points, so tests and readers can find them in the SVG. */
export const POINTS_CLASS = 'points'

export const COLORS = {
  ok: '#2563eb',
  flagged: '#d97706',
  failed: '#dc2626',
  roof: '#111827',
  practical: '#6b7280',
  muted: '#9ca3af',
} as const

/** Series colours (Tableau 10, as Plot's default categorical scheme), fixed so SVG files and the HTML agree. */
export const SERIES_COLORS = ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#bab0ab']

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 })
/** Log-axis tick labels: 0.01, 0.1, 1, 10, 1K. Plot's default SI format would write 0.1 FLOP/byte as '100m'. */
export const logTick = (value: number): string => compact.format(value)

/** A slug for file names and element ids. */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

export interface LegendEntry {
  label: string
  color: string
  symbol?: Plot.SymbolType
}

/** The room a legend of `rows` rows takes at the top of the frame (for the plot's insetTop). */
export const legendHeight = (rows: number) => 8 + rows * 16

/**
 * A legend drawn inside the frame, top left, in a row or one entry per line: Plot's own legends are HTML next to
 * the SVG, which a standalone SVG file would lose.
 */
export function legendMarks(entries: readonly LegendEntry[], layout: 'row' | 'column' = 'row'): Plot.Markish[] {
  let x = 8
  return entries.flatMap(({ label, color, symbol = 'circle' }, i) => {
    const dx = x
    const dy = layout === 'row' ? 10 : 10 + i * 16
    if (layout === 'row') x += 22 + label.length * 6.2
    return [
      // Line symbols (times, plus) have no inside to fill.
      Plot.dot([label], { frameAnchor: 'top-left', dx: dx + 4, dy, r: 3.5, symbol, stroke: color, fill: symbol === 'circle' ? color : 'none', className: 'legend' }),
      Plot.text([label], { frameAnchor: 'top-left', dx: dx + 11, dy, text: (d: string) => d, textAnchor: 'start', lineAnchor: 'middle', fill: color, className: 'legend' }),
    ]
  })
}

/** Renders Plot options to standalone SVG text (namespaced, white background, so it reads on dark pages too). */
export function renderSvg(options: Plot.PlotOptions): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>')
  const svg = Plot.plot({ ...options, document: document as unknown as Document, style: { background: 'white' } })
  svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  return svg.outerHTML
}

