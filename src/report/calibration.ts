// The calibration in reports (docs/calibration.md): what each timer read on kernels that hold the GPU for a
// known time (offset = median − held, ratio = median / held), the memory-bound kernels as ratios to the profiler's
// and ncu's readings, a timer's offset on the GPU (the median of its offsets on the held kernels), a line for the
// device header and the tables the CLI prints. Pure.
import type { Calibration, CalibrationKernel, CalibrationReading, CalibrationTimer } from '../shared/messages.js'
import { summarize } from '../shared/stats.js'
import { formatMeasuredOn, formatOffset, formatTime, renderTable } from './format.js'

type Held = Extract<CalibrationKernel, { kind: 'held' }>

/** A held kernel as a timer read it. */
export interface HeldReading {
  kernel: Held
  medianMs: number
  /** median − held, ms. */
  offsetMs: number
  /** median / held. */
  ratio: number
}

function reading(calibration: Calibration, timer: CalibrationTimer, kernel: string): CalibrationReading | undefined {
  return calibration.timers.find((t) => t.timer === timer)?.readings.find((r) => r.kernel === kernel)
}

const heldKernels = (calibration: Calibration) => calibration.kernels.filter((k): k is Held => k.kind === 'held')

/** What `timer` read on `kernel`, against the time it held the GPU; undefined when it has no reading. */
function heldReading(calibration: Calibration, timer: CalibrationTimer, kernel: Held): HeldReading | undefined {
  const r = reading(calibration, timer, kernel.name)
  return r && { kernel, medianMs: r.medianMs, offsetMs: r.medianMs - kernel.heldMs, ratio: r.medianMs / kernel.heldMs }
}

/** What `timer` read on each held kernel it timed. */
export function heldReadings(calibration: Calibration, timer: CalibrationTimer): HeldReading[] {
  return heldKernels(calibration).flatMap((kernel) => heldReading(calibration, timer, kernel) ?? [])
}

/** The offset of `timer` on the GPU: the median of its offsets on the held kernels; undefined when it has none. */
export function timerOffsetMs(calibration: Calibration, timer: CalibrationTimer): number | undefined {
  const offsets = heldReadings(calibration, timer).map((r) => r.offsetMs)
  return offsets.length === 0 ? undefined : summarize(offsets).median
}

/** A memory-bound kernel as a timer read it, against the profiler's and ncu's readings of it (where they exist). */
export interface MemoryReading {
  kernel: string
  timer: CalibrationTimer
  medianMs: number
  toProfiler?: number
  toNcu?: number
}

/** Each memory-bound kernel as every timer read it. */
export function memoryReadings(calibration: Calibration): MemoryReading[] {
  return calibration.kernels.flatMap((kernel) => {
    if (kernel.kind !== 'memory') return []
    const profiler = reading(calibration, 'profiler', kernel.name)?.medianMs
    const ncu = reading(calibration, 'ncu', kernel.name)?.medianMs
    return calibration.timers.flatMap(({ timer }) => {
      const r = reading(calibration, timer, kernel.name)
      if (!r) return []
      return [{ kernel: kernel.name, timer, medianMs: r.medianMs, toProfiler: profiler && r.medianMs / profiler, toNcu: ncu && r.medianMs / ncu }]
    })
  })
}

/** '5/20/100 µs'. */
function heldTimes(calibration: Calibration): string {
  return `${heldKernels(calibration)
    .map((k) => Number((k.heldMs * 1e3).toPrecision(6)))
    .join('/')} µs`
}

/** How finely the held kernels end: 'in 32 ns steps'. */
function stepText(calibration: Calibration): string {
  return calibration.globalTimerStepNs > 0 ? `in ${calibration.globalTimerStepNs} ns steps` : 'in steps of unknown size'
}

/** One line for the device header: each timer's offset, or that it could not run. */
export function calibrationLine(calibration: Calibration): string {
  const offsets = calibration.timers.map(({ timer, unavailable }) => {
    const offset = timerOffsetMs(calibration, timer)
    return `${timer} ${offset === undefined ? (unavailable ? 'unavailable' : '—') : formatOffset(offset)}`
  })
  return (
    `timing offsets on kernels held ${heldTimes(calibration)} (calibrated ${calibration.measuredAt.slice(0, 10)}, ` +
    `%globaltimer ${stepText(calibration)}): ${offsets.join('  ·  ')}`
  )
}

const ratio = (value: number | undefined, digits: number) => (value === undefined ? '—' : value.toFixed(digits))

/** The kernel's name on its first row only: the rows under it are its other timers. */
const named = <T extends { kernel: string }>(rows: readonly T[]) => rows.map((r, i) => (i > 0 && rows[i - 1]!.kernel === r.kernel ? '' : r.kernel))

/** The calibration in full: the held kernels, the memory-bound ones, each timer's offset, what could not run. */
export function describeCalibration(calibration: Calibration): string[] {
  const indent = (lines: string[]) => lines.map((line) => `  ${line}`)
  const held = heldKernels(calibration).flatMap((kernel) =>
    calibration.timers.flatMap(({ timer }) => {
      const r = heldReading(calibration, timer, kernel)
      return r ? [{ ...r, kernel: kernel.name, timer }] : []
    }),
  )
  const heldNames = named(held)
  const memory = memoryReadings(calibration)
  const memoryNames = named(memory)
  return [
    formatMeasuredOn(calibration),
    `kernels held ${heldTimes(calibration)} on %globaltimer (${stepText(calibration)}): offset = median − held, ratio = median / held`,
    ...indent(
      renderTable(
        ['kernel', 'timer', 'median', 'offset', 'ratio'],
        held.map((r, i) => [heldNames[i]!, r.timer, formatTime(r.medianMs), formatOffset(r.offsetMs), r.ratio.toFixed(3)]),
        ['left', 'left', 'right', 'right', 'right'],
      ),
    ),
    "memory-bound kernels (c = a + b, L2 cold): no known time, so each timer's median against the profiler's and ncu's",
    ...indent(
      renderTable(
        ['kernel', 'timer', 'median', '/ profiler', '/ ncu'],
        memory.map((r, i) => [memoryNames[i]!, r.timer, formatTime(r.medianMs), ratio(r.toProfiler, 2), ratio(r.toNcu, 2)]),
        ['left', 'left', 'right', 'right', 'right'],
      ),
    ),
    calibrationLine(calibration),
    ...calibration.timers.flatMap(({ timer, unavailable }) => (unavailable ? [`  ${timer} could not run: ${unavailable}`] : [])),
  ]
}
