// The table a kernel engineer reads: one row per case with runtime, throughput, bandwidth and roofline figures,
// plus a geometric-mean line and the device header. Pure: it renders recorded results.
import pc from 'picocolors'
import { formatPercent as formatChange } from '../baseline/verdict.js'
import { geometricMean } from '../engine/stats.js'
import type { DeviceReport } from '../engine/protocol.js'
import type { CaseResult, CaseVerdict, KernelBenchResult } from '../results.js'
import { formatBandwidth, formatBytes, formatCv, formatFlops, formatPercent, formatTime, renderTable, type Align } from './format.js'
import { gbPerSecond, roofline, type Roofline } from './metrics.js'
import { peaksFor } from './peaks.js'

const STOP_LABEL = { 'target-cv': 'cv', 'noise-stable': 'stable', 'max-iterations': 'max-n', 'max-time': 'max-time' } as const

export function renderDeviceHeader(device: DeviceReport, arch: string): string {
  const clock = Number.isFinite(device.startSmClockMHz) ? `${device.startSmClockMHz} MHz now, ` : ''
  return pc.bold(
    `${device.name}  ·  ${device.multiProcessors} SMs  ·  L2 ${formatBytes(device.l2CacheBytes)}  ·  ` +
      `${formatBytes(device.totalMemoryBytes)}  ·  SM clock ${clock}${device.maxSmClockMHz} MHz max  ·  ` +
      `driver ${device.driverRelease ?? device.driverVersion} (CUDA ${device.driverVersion})  ·  runtime ${device.runtimeVersion}  ·  ${arch}`,
  ) + (device.nvmlError ? `\n${pc.yellow(`clocks unknown (no throttle filtering): ${device.nvmlError}`)}` : '')
}

function caseRow(result: KernelBenchResult, c: CaseResult): string[] {
  const o = c.outcome
  if (o.status === 'wrong') return [c.name, pc.red('✗ wrong answer')]
  if (o.status === 'error') return [c.name, pc.red(`✗ ${o.errorName}`)]
  if (!c.summary || !o.timing) return [c.name, pc.green('✓ verified')]
  const s = c.summary
  const t = o.timing
  const line = caseRoofline(result, c)
  const sol =
    line === undefined ? '—' : line.solPercent > 100 ? pc.red(pc.bold(`${formatPercent(line.solPercent)} ⚠`)) : formatPercent(line.solPercent)
  const cv = formatCv(s.cv)
  return [
    c.name,
    formatTime(s.median),
    s.cv > result.options.targetCv ? pc.yellow(cv) : cv,
    formatFlops(c.flops / (s.median * 1e-3)),
    formatBandwidth(gbPerSecond(c.bytes, s.median)),
    formatPercent(line?.computePercent),
    formatPercent(line?.bandwidthPercent),
    sol,
    Number.isFinite(t.meanSmClockMHz) ? `${Math.round(t.meanSmClockMHz)}` : '—',
    t.droppedThrottled ? pc.yellow(`${s.n} (-${t.droppedThrottled})`) : `${s.n}`,
    STOP_LABEL[t.stopReason],
  ]
}

/** The 'vs baseline' cell: the TFLOPS change (red slower, green faster, dim within the bound), flagged on a floor. */
function verdictCell(v: CaseVerdict): string {
  const cell = baselineCell(v, v.change === undefined ? undefined : formatChange(v.change, true))
  return v.floors.length > 0 ? `${cell} ${pc.red('✗ floor')}` : cell
}

function baselineCell(v: CaseVerdict, change: string | undefined): string {
  switch (v.kind) {
    case 'regression':
      return pc.red(change ?? 'slower')
    case 'improvement':
      return pc.green(change ?? 'faster')
    case 'same':
      return pc.dim(change ?? 'same')
    case 'no-baseline':
      return pc.dim('new')
    case 'other-gpu':
      return pc.yellow('other GPU')
    case 'updated':
      return pc.dim(change === undefined ? 'recorded' : `recorded (${change})`)
    case 'untracked':
      return '—'
  }
}

const HEADER = ['case', 'median', 'cv', 'throughput', 'bandwidth', '% peak', '% bw', 'SOL', 'SM MHz', 'n', 'stop']
const ALIGN: Align[] = ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left']

/** The case rows, with a 'vs baseline' column when the CI guard judged any case. */
function caseTable(result: KernelBenchResult): string[] {
  const rows = result.cases.map((c) => caseRow(result, c))
  if (!result.cases.some((c) => c.verdict)) return renderTable(HEADER, rows, ALIGN)
  // Only timed rows (full width) carry a verdict, so the extra cell always lands in the last column.
  const judged = rows.map((row, i) => {
    const v = result.cases[i]!.verdict
    return v ? [...row, verdictCell(v)] : row
  })
  return renderTable([...HEADER, 'vs baseline'], judged, [...ALIGN, 'left'])
}

export function renderKernelResult(result: KernelBenchResult): string {
  const title = `${pc.bold(result.bench)} ${pc.dim(`${result.problem} · ${result.dtype} · ${result.solution}`)}`
  if (result.skipped) return `${title}\n  ${pc.yellow(`skipped: ${result.skipped}`)}`
  const lines = [title]
  if (result.options.skipVerification) lines.push(pc.red(pc.bold('  VERIFICATION SKIPPED: these numbers may come from a wrong kernel')))
  lines.push(...caseTable(result).map((l) => `  ${l}`))
  const timed = result.cases.filter((c) => c.summary)
  if (timed.length > 1) {
    const runtime = geometricMean(timed.map((c) => c.summary!.median))
    const flops = geometricMean(timed.map((c) => c.flops / (c.summary!.median * 1e-3)))
    lines.push(pc.dim(`  geometric mean over ${timed.length} cases: ${formatTime(runtime)}, ${formatFlops(flops)}`))
  }
  if (timed.some((c) => (caseRoofline(result, c)?.solPercent ?? 0) > 100)) {
    lines.push(pc.red(pc.bold('  ⚠ SOL above 100%: faster than the hardware allows, so the measurement missed work or hit a warm cache')))
  }
  return lines.join('\n')
}

/** The roofline of a timed case, or undefined when the GPU is not in the peak table. */
function caseRoofline(result: KernelBenchResult, c: CaseResult): Roofline | undefined {
  const peaks = result.device && peaksFor(result.device.name)
  return peaks && c.summary ? roofline(c.flops, c.bytes, c.summary.median, result.dtype, peaks) : undefined
}
