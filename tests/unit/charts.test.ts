// The charts on recorded results (tests/fixtures/results, read back as the JSON file holds them): one roofline per
// GPU and dtype with its roofs, log axes and every case as a point; scaling, sample and baseline charts with the
// points their data gives; the self-contained HTML page; the files written atomically; the `report` command.
import fs from 'node:fs'
import path from 'node:path'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { writeChartOutputs } from '../../src/report/chart-files.js'
import { allCharts, reportCharts } from '../../src/report/charts/index.js'
import type { ReportSource } from '../../src/report/charts/cases.js'
import type { Chart } from '../../src/report/charts/plot.js'
import { renderHtml } from '../../src/report/html.js'
import { buildResultsFile, serializeResultsFile, type ResultsFile } from '../../src/report/json.js'
import { outputFiles, resolveReportSettings } from '../../src/report/options.js'
import { writeReports } from '../../src/report/files.js'
import { loadFixture } from '../fixtures/results/index.js'
import { FIXTURE_ENDED, FIXTURE_TOOLS, fixtureResultsFile } from '../fixtures/results/results-file.js'
import { useScratch } from '../helpers/scratch.js'

const RUN: ReportSource[] = [{ name: 'results.json', file: fixtureResultsFile() }]

function svgOf(chart: Chart) {
  return parseHTML(`<!doctype html><html><body>${chart.svg}</body></html>`).document
}
const texts = (chart: Chart, selector: string) => [...svgOf(chart).querySelectorAll(selector)].map((e) => e.textContent ?? '')
const pointTitles = (chart: Chart) => texts(chart, 'g.points > * > title')
const byId = (charts: readonly Chart[], id: string) => {
  const chart = charts.find((c) => c.id === id)
  if (!chart) throw new Error(`no chart ${id} among ${charts.map((c) => c.id).join(', ')}`)
  return chart
}

describe('the roofline charts', () => {
  const { rooflines } = reportCharts(RUN)

  it('draw one chart per GPU and dtype, every case with a FLOP and byte count a point', () => {
    expect(rooflines.map((c) => [c.id, c.points])).toEqual([
      // sgemm-verdicts (4), wrong-answer (1 timed, 2 failed without a time), skipped-verification-throttled (2),
      // calibration-offsets (3)
      ['roofline-nvidia-h100-80gb-hbm3-float32', 12],
      ['roofline-nvidia-h200-float32', 2],
      ['roofline-nvidia-h100-80gb-hbm3-float16', 2],
      ['roofline-nvidia-rtx-a6000-float32', 3],
    ])
    for (const chart of rooflines) expect(svgOf(chart).querySelectorAll('g.points > *')).toHaveLength(chart.points)
  })

  it('draw the datasheet roof, and the measured one when the GPU has ceilings', () => {
    const roofLabels = (id: string) => texts(byId(rooflines, id), 'g.roof-label text')
    // fp32's roof is its fastest fp32-accurate path: 3×TF32 on tensor cores, 494.5 / 3 = 164.8 TFLOPS (over FP32's 67).
    expect(roofLabels('roofline-nvidia-h100-80gb-hbm3-float32')).toEqual(['H100 SXM datasheet: 164.8 TFLOPS, 3350 GB/s'])
    expect(roofLabels('roofline-nvidia-h100-80gb-hbm3-float16')).toEqual([
      'H100 SXM datasheet: 989.5 TFLOPS, 3350 GB/s',
      'measured (cuBLAS, copy): 744.0 TFLOPS, 2950 GB/s',
    ])
    // No datasheet entry for the A6000: its measured ceilings are the only roof.
    expect(roofLabels('roofline-nvidia-rtx-a6000-float32')).toEqual(['measured (cuBLAS, copy): 27.4 TFLOPS, 690 GB/s'])
    expect(svgOf(byId(rooflines, 'roofline-nvidia-h100-80gb-hbm3-float16')).querySelectorAll('g.roof-line path')).toHaveLength(2)
  })

  it('put both axes on a log scale labelled by decades', () => {
    const chart = byId(rooflines, 'roofline-nvidia-h100-80gb-hbm3-float32')
    const xTicks = texts(chart, 'g[aria-label="x-axis tick label"] text')
    expect(xTicks).toEqual(expect.arrayContaining(['0.01', '0.1', '1', '10', '100', '1K', '10K']))
    expect(texts(chart, 'g[aria-label="y-axis tick label"] text')).toEqual(expect.arrayContaining(['0.1', '1', '10', '100']))
    expect(texts(chart, 'g[aria-label="x-axis label"] text')).toEqual(['arithmetic intensity (FLOP/byte) →'])
  })

  it('label each point with its bench and case, and say why a case failed or is flagged', () => {
    const titles = pointTitles(byId(rooflines, 'roofline-nvidia-h100-80gb-hbm3-float32'))
    const title = (start: string) => titles.find((t) => t.startsWith(start)) ?? ''
    expect(title('tiled sgemm · 4096x4096x4096')).toContain('683 FLOP/byte')
    expect(title('tiled sgemm · 8192x4096x8192')).toContain('failed: regression')
    expect(title('vector add (offset bug) · n = 2^22')).toContain('failed: wrong answer')
    expect(title('sgemm (unverified) · 4096x4096x4096')).toContain('flagged: verification skipped')
    expect(title('sgemm (unverified) · 4096x4096x4096')).toContain('n 41 (dropped 6 throttled, 2 for a host stall or other GPU work) · CV ±0.70%, target 1.0% · stop: target-cv')
    // A noise-stable stop above the target CV is a detail of the hover text, not a flag.
    expect(title('vector add (offset bug) · n = 2^20')).toContain('n 214 · CV ±1.2%, target 1.0% · stop: noise-stable')
    expect(title('vector add (offset bug) · n = 2^20')).not.toMatch(/flagged|failed/)
    const h200 = pointTitles(byId(rooflines, 'roofline-nvidia-h200-float32'))
    // Above the datasheet roofline a case fails (unless allowAboveRoofline): the chart marks it failed, saying why.
    expect(h200.some((t) => t.includes('failed: faster than this GPU can go'))).toBe(true)
  })

  it('match their golden SVG files', async () => {
    for (const chart of rooflines) await expect(`${chart.svg}\n`).toMatchFileSnapshot(`./__golden__/charts/${chart.id}.svg`)
  })

  it('put several results files on one chart per GPU', () => {
    const two = reportCharts([
      { name: 'shard-1.json', file: fixtureResultsFile(['sgemm-verdicts']) },
      { name: 'shard-2.json', file: fixtureResultsFile(['skipped-verification-throttled', 'wrong-answer']) },
    ])
    expect(two.rooflines.map((c) => [c.id, c.points])).toEqual([['roofline-nvidia-h100-80gb-hbm3-float32', 9]])
  })
})

describe('the scaling, sample and baseline charts', () => {
  const charts = reportCharts(RUN)

  it('draw throughput and bandwidth against size per problem, one line and geometric mean per bench', () => {
    expect(charts.scaling.map((c) => [c.id, c.points])).toEqual([
      ['scaling-matrix-multiplication-tflops', 8],
      ['scaling-matrix-multiplication-bandwidth', 8],
      ['scaling-vector-addition-tflops', 9],
      ['scaling-vector-addition-bandwidth', 9],
    ])
    const gemm = byId(charts.scaling, 'scaling-matrix-multiplication-tflops')
    expect(texts(gemm, 'g.legend text')).toEqual([
      'tiled sgemm · float32 (geometric mean 17.0 TFLOPS)',
      'sgemm (unverified) · float32 (geometric mean 15.9 TFLOPS)',
      'wmma hgemm · float16 (geometric mean 136.7 TFLOPS)',
    ])
    expect(svgOf(gemm).querySelectorAll('g[aria-label="line"] path')).toHaveLength(3)
    // Benches of one problem on different GPUs are told apart by their GPU.
    expect(texts(byId(charts.scaling, 'scaling-vector-addition-tflops'), 'g.legend text')[2]).toBe('vector add · NVIDIA RTX A6000 (geometric mean 49.6 GFLOPS)')
  })

  it('summarise each timed case\'s kept samples in one point, with its quantiles, dropped samples and stop', () => {
    const bench = charts.benches.find((b) => b.bench.result.bench === 'sgemm (unverified)')!
    const samples = byId(bench.charts, 'samples-sgemm-unverified')
    const timing = loadFixture('skipped-verification-throttled').result!.cases.map((c) => (c.outcome.status === 'ok' ? c.outcome.timing!.samplesMs : []))
    expect(samples.points).toBe(2)
    expect(svgOf(samples).querySelectorAll('g.points > *')).toHaveLength(2)
    expect(samples.caption).toContain(`${timing[0]!.length + timing[1]!.length} kept samples of 2 timed cases`)
    // One circle per case and a range, a 5th–95th and a quartile mark: not one element per sample.
    expect(svgOf(samples).querySelectorAll('circle, path, line, rect').length).toBeLessThan(timing[1]!.length)
    expect(texts(samples, 'g[aria-label="y-axis tick label"] text').join('\n')).toMatch(/8192x8192x8192 · .* ms ±.*% · n 112 \(−\d+ throttled\)/)
    const [, second] = pointTitles(samples)
    const sorted = [...timing[1]!].sort((a, b) => a - b)
    const median = loadFixture('skipped-verification-throttled').result!.cases[1]!.summary!.median
    const max = `max +${((sorted.at(-1)! / median - 1) * 100).toFixed(2)}%`
    expect(second).toContain(max)
    expect(second).toContain('n 112 (dropped 23 throttled) · CV ±1.7%, target 1.0% · stop: max-time')
    expect(second).toContain('flagged: 23 of 135 samples dropped')
  })

  it('compare with the baseline only where the guard compared on this GPU', () => {
    const withBaseline = charts.benches.filter((b) => b.charts.some((c) => c.id.startsWith('baseline-')))
    expect(withBaseline.map((b) => b.bench.result.bench)).toEqual(['tiled sgemm'])
    const chart = byId(withBaseline[0]!.charts, 'baseline-tiled-sgemm')
    // The fourth case has no baseline: not compared, so not drawn.
    expect(chart.points).toBe(3)
  })

  it('draw each compared case\'s change as a point on its interval, coloured by the verdict, and list those without one', async () => {
    // The recorded verdicts (inconclusive, regression, improvement), one made unchanged and one without an interval.
    const bench = loadFixture('sgemm-verdicts')
    const cases = bench.result!.cases
    const judged = cases[0]!.verdict!
    cases[3]!.verdict = { ...judged, kind: 'unchanged', change: 0.004, interval: { low: -0.006, high: 0.014, confidence: 0.95 }, reason: 'the whole interval is within the tolerance 2.0%' }
    const reason = 'too few samples in the run (4) for a 95% interval of its median'
    const { interval: _, ...withoutInterval } = judged
    cases.push({ ...cases[0]!, name: '2048x2048x2048', verdict: { ...withoutInterval, change: -0.03, reason } })
    const file = JSON.parse(serializeResultsFile(buildResultsFile([bench], FIXTURE_TOOLS, FIXTURE_ENDED))) as ResultsFile
    const chart = byId(allCharts(reportCharts([{ name: 'synthetic.json', file }])), 'baseline-tiled-sgemm')

    // Per case: its change and interval, verdict and colour.
    const expected = [
      ['4096x4096x4096', '-1.6% [-2.2%, -0.9%]', 'inconclusive: the interval straddles the tolerance 2.0%, so the change may or may not exceed it', '#d97706'],
      ['8192x4096x8192', '-12.3% [-12.9%, -11.7%]', 'regression: the whole interval is slower than the tolerance 2.0%', '#dc2626'],
      ['4096x8192x4096', '+9.5% [+8.8%, +10.3%]', 'improvement: the whole interval is faster than the tolerance 2.0%', '#16a34a'],
      ['8192x8192x8192', '+0.4% [-0.6%, +1.4%]', 'unchanged: the whole interval is within the tolerance 2.0%', '#9ca3af'],
    ]
    expect(chart.points).toBe(4)
    expect(texts(chart, 'g[aria-label="y-axis tick label"] text')).toEqual(expected.map(([name, change]) => `${name} ${change}`))
    const dots = [...svgOf(chart).querySelectorAll('g.points > circle')]
    expect(dots.map((d) => d.getAttribute('fill'))).toEqual(expected.map((e) => e[3]))
    expect(dots.map((d) => d.querySelector('title')?.textContent)).toEqual(expected.map(([name, change, verdict]) => `${name}: ${change} (95% interval) · ${verdict}`))
    // One bar per interval in its verdict's colour, a rule at 0 and one at each side of the tolerance.
    const bars = [...svgOf(chart).querySelectorAll('g.interval line')]
    expect(bars.map((b) => b.getAttribute('stroke'))).toEqual(expected.map((e) => e[3]))
    expect(svgOf(chart).querySelectorAll('g.zero line')).toHaveLength(1)
    expect(svgOf(chart).querySelectorAll('g.tolerance line')).toHaveLength(2)
    expect(texts(chart, 'g.no-interval text')).toEqual([`2048x2048x2048: -3.0%, no interval: ${reason}`])
    await expect(`${chart.svg}\n`).toMatchFileSnapshot('./__golden__/charts/baseline-tiled-sgemm.svg')
  })

  it('give every chart a unique id, numbering benches of the same name', () => {
    const twice = allCharts(reportCharts([RUN[0]!, { name: 'again.json', file: fixtureResultsFile(['sgemm-verdicts']) }]))
    const ids = twice.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toContain('samples-tiled-sgemm-2')
  })
})

describe('the HTML page', () => {
  const charts = reportCharts(RUN)
  const html = renderHtml(RUN, charts)
  const { document } = parseHTML(html)

  it('holds every chart with its point count, and loads nothing', () => {
    const figures = [...document.querySelectorAll('figure.chart')]
    expect(figures.map((f) => f.id)).toEqual(allCharts(charts).map((c) => c.id))
    for (const f of figures) expect(f.querySelectorAll('g.points > *')).toHaveLength(Number(f.getAttribute('data-points')))
    expect(html).not.toMatch(/<script|<link|<img|\ssrc=|\shref=|@import|url\(/i)
  })

  it('shows the devices, versions, warnings, options and errors', () => {
    const text = document.body.textContent ?? ''
    expect(text).toContain('NVIDIA H100 80GB HBM3  ·  132 SMs')
    expect(text).toContain('peaks: measured ceilings (cuBLAS 8192³, D2D copy')
    expect(text).toContain('timing offsets on kernels held 5/20/100 µs (calibrated 2026-11-23')
    expect(text).toContain('results.json: ended 2026-11-21T14:05:00.000Z · vitest-kernel-bench 0.1.0 · Vitest 4.1.12 · Node v20.19.0')
    expect(text).toContain('VERIFICATION SKIPPED')
    expect(text).toContain('SOL above 100%')
    expect(text).toContain("✗ case 'n = 2^22'")
    expect(document.querySelectorAll('details table')).toHaveLength(7)
  })

  it("lists the cases a bench's supports declined, which the JSON keeps", () => {
    const sgemm = loadFixture('sgemm-verdicts')
    const unsupported = [{ name: '100x100x100', reason: 'm % 128' }]
    const file = JSON.parse(serializeResultsFile(buildResultsFile([{ ...sgemm, result: { ...sgemm.result!, unsupported } }], FIXTURE_TOOLS, FIXTURE_ENDED))) as ResultsFile
    expect(file.benches[0]!.result!.unsupported).toEqual(unsupported)
    const { document } = parseHTML(renderHtml([{ name: 'results.json', file }], reportCharts([{ name: 'results.json', file }])))
    expect(document.body.textContent).toContain("not supported by the solution, not run: '100x100x100' (m % 128)")
  })
})

describe('writing the charts', () => {
  const dir = useScratch('kb-charts-')

  it('writes the page and one SVG per chart, replacing them whole, with no temp files left', () => {
    const outputs = { html: path.join(dir(), 'kernelbench.html'), svg: path.join(dir(), 'charts') }
    fs.writeFileSync(outputs.html, 'an earlier run')
    expect(writeChartOutputs(RUN, outputs)).toEqual([outputs.html, outputs.svg])
    expect(fs.readFileSync(outputs.html, 'utf8')).toBe(renderHtml(RUN, reportCharts(RUN)))
    const svgs = fs.readdirSync(outputs.svg).sort()
    expect(svgs).toEqual(allCharts(reportCharts(RUN)).map((c) => `${c.id}.svg`).sort())
    expect(fs.readFileSync(path.join(outputs.svg, 'roofline-nvidia-h200-float32.svg'), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(fs.readdirSync(dir()).sort()).toEqual(['charts', 'kernelbench.html'])
  })

  it('are written by the reporter after the JSON file, from the same results', () => {
    const files = { json: path.join(dir(), 'kb.json'), html: path.join(dir(), 'kb.html') }
    const benches = [loadFixture('sgemm-verdicts')]
    expect(writeReports(benches, files, FIXTURE_TOOLS, FIXTURE_ENDED)).toEqual([files.json, files.html])
    expect(parseHTML(fs.readFileSync(files.html, 'utf8')).document.querySelectorAll('figure.chart')).toHaveLength(5)
  })

  it('go where the options and KERNELBENCH_HTML say, relative to the root', () => {
    const settings = resolveReportSettings({ html: 'report/kb.html', svg: 'report/charts' })
    expect(outputFiles(settings, {}, '/root')).toMatchObject({ html: '/root/report/kb.html', svg: '/root/report/charts' })
    expect(outputFiles(settings, { KERNELBENCH_HTML: 'ci.html' }, '/root').html).toBe('/root/ci.html')
    expect(() => resolveReportSettings({ svg: '' })).toThrow('option svg must be a non-empty file path')
  })
})

describe('the report command (npx tsx src/cli/cli.ts report)', () => {
  const cli = (...args: string[]) => runCli('report', ...args)
  const dir = useScratch('kb-report-')

  it('draws several saved results files on one page', () => {
    const shards = ['sgemm-verdicts', 'wrong-answer'] as const
    const files = shards.map((name) => {
      const file = path.join(dir(), `${name}.json`)
      fs.writeFileSync(file, JSON.stringify(fixtureResultsFile([name])))
      return file
    })
    const html = path.join(dir(), 'out.html')
    const run = cli(...files, '--html', html, '--svg', path.join(dir(), 'svg'))
    expect(run.stderr.replace(/npm warn.*\n/g, '')).toBe('')
    expect(run.status).toBe(0)
    const page = parseHTML(fs.readFileSync(html, 'utf8')).document
    expect(page.querySelector('#roofline-nvidia-h100-80gb-hbm3-float32')?.getAttribute('data-points')).toBe('7')
    expect(page.body.textContent).toContain('wrong-answer.json: ended')
    expect(fs.readdirSync(path.join(dir(), 'svg'))).toContain('roofline-nvidia-h100-80gb-hbm3-float32.svg')
  })

  it('refuses a file that is not a results file, and a call without an output', () => {
    const bad = path.join(dir(), 'bad.json')
    fs.writeFileSync(bad, '{"benches": []}')
    expect(cli(bad, '--html', path.join(dir(), 'x.html')).stderr).toContain('is not a vitest-kernel-bench results file')
    const noOutput = cli(bad)
    expect(noOutput.status).toBe(2)
    expect(noOutput.stderr).toContain('report needs --html <file>, --svg <dir> or both')
  })
})

describe('the speed-of-light chart', () => {
  // Two benches of a `counters` run on an H100 (2026-11-24), as its results file holds them, samples cut to 20.
  const file = JSON.parse(fs.readFileSync(new URL('../fixtures/results/counters-h100.json', import.meta.url), 'utf8'))
  const charts = allCharts(reportCharts([{ name: 'counters.json', file }]))

  it('draws one point per case with counters, each named with its verdict and its two throughputs', () => {
    const vectorAdd = byId(charts, 'speed-of-light-vector-add-float4')
    expect(vectorAdd.points).toBe(7)
    const titles = pointTitles(vectorAdd)
    expect(titles).toHaveLength(7)
    expect(titles.filter((t) => t.includes('memory-bound (DRAM'))).toHaveLength(6)
    expect(titles[0]).toMatch(/^n = 2\^20: latency-bound \(grid of 0\.97 waves; SM 5%, memory 54%\) \(SM [\d.]+%, memory [\d.]+%\)$/)
  })

  it('colours the cases by what bounds them, with a legend of the verdicts present', () => {
    const conv = byId(charts, 'speed-of-light-conv-2d-tiled')
    expect(conv.points).toBe(6)
    expect(texts(conv, 'g.legend text').sort()).toEqual(['balanced', 'compute-bound', 'memory-bound'])
  })

  it('has no such chart for a bench without counters', () => {
    expect(allCharts(reportCharts(RUN)).filter((c) => c.id.startsWith('speed-of-light'))).toEqual([])
  })
})
