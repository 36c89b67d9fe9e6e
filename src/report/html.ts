// The run as one self-contained HTML page: the devices, versions and sources, the roofline per GPU and dtype, the
// scaling charts per problem, and per bench its sample distributions, changes against the baseline and options. The
// charts are SVG drawn at report time and the styles are inline: the page loads nothing, and needs no script (a
// point's details are its SVG <title>, which browsers show on hover). Pure.
import { allCharts, type ReportCharts } from './charts/index.js'
import type { ReportSource } from './charts/cases.js'
import type { Chart } from './charts/plot.js'
import { SOL_WARNING, VERIFICATION_SKIPPED_WARNING, benchDetails, deviceLine, deviceNotes, deviceRecordLines, geometricMeanLine, hasSolAbove100, unsupportedNote } from './kernel-table.js'
import type { BenchRecord, ResultRecord } from './json.js'

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1600px; padding: 0 16px; color: #111827; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #e5e7eb; } h3 { font-size: 15px; }
.meta, figcaption, .note { color: #4b5563; } .warn { color: #b91c1c; font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure.chart { margin: 0; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px; background: white; }
figure.chart figcaption { max-width: 720px; margin-bottom: 4px; }
g.points > *:hover { stroke: #111827; stroke-width: 2.5; }
table { border-collapse: collapse; } td, th { padding: 1px 10px 1px 0; text-align: left; font-variant-numeric: tabular-nums; }
pre { background: #f9fafb; padding: 8px; overflow-x: auto; }
`

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ENTITIES[c]!)

function figure(chart: Chart): string {
  return (
    `<figure class="chart" id="${escape(chart.id)}" data-points="${chart.points}">` +
    `<figcaption><strong>${escape(chart.title)}</strong><br>${escape(chart.caption)}</figcaption>${chart.svg}</figure>`
  )
}

const chartRow = (charts: readonly Chart[]) => (charts.length > 0 ? `<div class="charts">${charts.map(figure).join('')}</div>` : '')

function sourcesSection(sources: readonly ReportSource[]): string {
  const rows = sources.map(({ name, file }) => {
    const v = file.versions
    const gpu = v.nvidiaDriver ? ` · NVIDIA driver ${v.nvidiaDriver} (CUDA ${v.cudaDriver}) · CUDA runtime ${v.cudaRuntime}` : ''
    return `<li>${escape(`${name}: ended ${file.createdAt} · vitest-kernel-bench ${v.vitestKernelBench} · Vitest ${v.vitest} · Node ${v.node}${gpu}`)}</li>`
  })
  return `<ul class="meta">${rows.join('')}</ul>`
}

/** Each distinct device once, with its measured ceilings, its calibration and the notes on where its peaks come from. */
function devicesSection(sources: readonly ReportSource[]): string {
  const blocks = new Set<string>()
  for (const { file } of sources) {
    for (const { result } of file.benches) {
      if (!result?.device || !result.arch) continue
      const lines = [
        `<p><strong>${escape(deviceLine(result.device, result.arch, result.devices))}</strong>`,
        ...deviceRecordLines(result).map((line) => `<br>${escape(line)}`),
        ...deviceNotes(result.device, result.ceilings).map((note) => `<br><span class="note">${escape(note)}</span>`),
        '</p>',
      ]
      blocks.add(lines.join(''))
    }
  }
  return blocks.size > 0 ? [...blocks].join('') : '<p class="note">no GPU in these results</p>'
}

const percent = (value: number) => `${value.toFixed(1)}%`

/** The counters of each case (the `counters` option): the verdict and ncu's speed-of-light figures, or why none. */
function countersTable(result: ResultRecord): string {
  const rows = result.cases.flatMap((c) => {
    const counters = c.counters
    if (!counters) return []
    if (counters.status !== 'ok') return [`<tr><th>${escape(c.name)}</th><td colspan="7" class="note">${escape(counters.reason)}</td></tr>`]
    const m = counters.aggregate.metrics
    const cells = [
      counters.verdict.text,
      percent(m['sm__throughput.avg.pct_of_peak_sustained_elapsed']),
      percent(m['gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed']),
      percent(m['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed']),
      percent(m['l1tex__t_sector_hit_rate.pct']),
      percent(m['lts__t_sector_hit_rate.pct']),
      `${percent(m['sm__warps_active.avg.pct_of_peak_sustained_active'])} of ${percent(counters.aggregate.theoreticalOccupancyPct ?? NaN)}`,
    ]
    return [`<tr><th>${escape(c.name)}</th>${cells.map((cell) => `<td>${escape(cell)}</td>`).join('')}</tr>`]
  })
  if (rows.length === 0) return ''
  const header = ['case', 'bound', 'compute (SM)', 'memory', 'DRAM', 'L1 hit', 'L2 hit', 'occupancy (achieved of theoretical)']
  return `<table class="counters"><tr>${header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr>${rows.join('')}</table>`
}

function optionsTable(options: object): string {
  const rows = Object.entries(options).map(([key, value]) => `<tr><th>${escape(key)}</th><td>${escape(JSON.stringify(value))}</td></tr>`)
  return `<details><summary>measurement options</summary><table>${rows.join('')}</table></details>`
}

function benchSection(source: string, record: BenchRecord, charts: readonly Chart[], showSource: boolean): string {
  const r = record.result
  const caption = [...(showSource ? [source] : []), record.file, ...(r ? [...benchDetails(r), r.device?.name ?? 'no GPU'] : [])]
  const parts = [`<h3>${escape(`${record.state}: ${record.name}`)}</h3>`, `<p class="meta">${escape(caption.join(' · '))}</p>`]
  if (r?.skipped) parts.push(`<p class="note">skipped: ${escape(r.skipped)}</p>`)
  if (r && !r.skipped) {
    if (r.options.skipVerification) parts.push(`<p class="warn">${escape(VERIFICATION_SKIPPED_WARNING)}</p>`)
    if (hasSolAbove100(r)) parts.push(`<p class="warn">${escape(SOL_WARNING)}</p>`)
    const means = geometricMeanLine(r)
    if (means) parts.push(`<p>${escape(means)}</p>`)
    const unsupported = unsupportedNote(r)
    if (unsupported) parts.push(`<p class="note">${escape(unsupported)}</p>`)
    parts.push(chartRow(charts), countersTable(r), optionsTable(r.options))
  }
  if (record.errors.length > 0) parts.push(`<pre>${escape(record.errors.join('\n\n'))}</pre>`)
  return `<section class="bench">${parts.join('\n')}</section>`
}

export function renderHtml(sources: readonly ReportSource[], charts: ReportCharts): string {
  const showSource = sources.length > 1
  const chartsOf = (record: BenchRecord) => charts.benches.find((b) => b.bench.record === record)?.charts ?? []
  const benches = sources.flatMap(({ name, file }) => file.benches.map((record) => benchSection(name, record, chartsOf(record), showSource)))
  const count = allCharts(charts).length
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kernel benchmarks</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Kernel benchmarks</h1>
${sourcesSection(sources)}
<p class="meta">${count} charts; hover a point for its details.</p>
<h2>Devices</h2>
${devicesSection(sources)}
<h2>Roofline</h2>
${chartRow(charts.rooflines) || '<p class="note">no timed case with a FLOP and a byte count</p>'}
<h2>Throughput and bandwidth against size</h2>
${chartRow(charts.scaling) || '<p class="note">no timed case</p>'}
<h2>Benches</h2>
${benches.join('\n')}
</body>
</html>
`
}
