// Self-calibration, inside the device host: harness kernels whose duration is known (they hold the GPU for 5, 20 and
// 100 µs of its global timer) or has a reference (a memory-bound add of 64 Ki and 64 Mi floats, whose reference is
// the profiler's reading, or ncu's), timed in every timing mode by the same code that times a bench: each kernel's
// entry point in the harness library is a case's solution, called by runCase. What a mode reads minus the held time
// is that mode's offset on this GPU (src/report/calibration.ts). The worker caches the record per GPU
// (src/cache/calibration-cache.ts); calibration-launches.ts launches the same kernels for Nsight Compute.
import * as cuda from '../../native/cuda.js'
import { DEFAULT_MEASURE_OPTIONS, TIMING_MODES, type MeasureOptions, type TimingMode } from '../../spec/options.js'
import { allocate, fillInputs, freeAll } from './buffers.js'
import { CALIBRATION_KERNELS } from '../../shared/calibration-kernels.js'
import type { DeviceSession } from './device-session.js'
import { contextLost, runCase } from './measure.js'
import { globalWarmup } from './start-case.js'
import type { ArgPlan, CallTarget, Calibration, CalibrationKernel, CalibrationReading, CasePlan, TimerCalibration } from '../../shared/messages.js'
import { summarize } from '../../shared/stats.js'

/** %globaltimer changes the step probe watches for, and the reads it gives up after (a timer that never moves). */
const STEP_CHANGES = 1000
const STEP_READS = 10_000_000

/** A kernel's entry point in the harness (kb_calibration_hold or kb_calibration_add) and its arguments but the last. */
function entryPoint(kernel: CalibrationKernel): { entry: string; args: ArgPlan[] } {
  if (kernel.kind === 'held') {
    return { entry: 'kb_calibration_hold', args: [{ kind: 'scalar', ctype: 'size_t', value: Math.round(kernel.heldMs * 1e6) }] }
  }
  const n = kernel.floats
  const range = [-1, 1] as const
  return {
    entry: 'kb_calibration_add',
    args: [
      { kind: 'input', name: 'a', dtype: 'float32', count: n, range },
      { kind: 'input', name: 'b', dtype: 'float32', count: n, range },
      { kind: 'output', name: 'c', dtype: 'float32', count: n },
      { kind: 'scalar', ctype: 'size_t', value: n },
    ],
  }
}

/**
 * The case that calls a calibration kernel as a bench calls its solution, with `options` (verification off: the
 * kernel has no reference). In 'graph' timing its entry point launches on the per-thread default stream, which a
 * graph can capture, as a solution compiled for 'graph' timing does.
 */
export function calibrationPlan(session: DeviceSession, kernel: CalibrationKernel, options: MeasureOptions): CasePlan & { solution: CallTarget } {
  const { entry, args } = entryPoint(kernel)
  // The last argument, perThreadStream.
  const all: ArgPlan[] = [...args, { kind: 'scalar', ctype: 'int', value: options.timing === 'graph' ? 1 : 0 }]
  return {
    benchName: 'calibration',
    caseName: kernel.name,
    seed: 0,
    args: all,
    tolerance: { rtol: 0, atol: 0 },
    solution: { library: session.harness.library, entry, params: all.map((arg) => (arg.kind === 'scalar' ? arg.ctype : 'void *')) },
    reference: { kind: 'none' },
    mode: 'bench',
    options: { ...options, skipVerification: true },
  }
}

function reading(session: DeviceSession, kernel: CalibrationKernel, options: MeasureOptions): CalibrationReading {
  const plan = calibrationPlan(session, kernel, options)
  const outcome = runCase(session, plan, session.fn(plan.solution))
  const timing = outcome.status === 'ok' ? outcome.timing : undefined
  if (!timing?.samplesMs.length) throw new Error(`no sample was kept: ${JSON.stringify(timing ?? outcome)}`)
  const { median, cv, n } = summarize(timing.samplesMs)
  return { kernel: kernel.name, medianMs: median, cv, samples: n }
}

/**
 * Every kernel timed in one mode. A mode that cannot time here (the profiler without access to the counters, no
 * CUPTI) is recorded with the reason; a lost context ends the calibration.
 */
function timerCalibration(session: DeviceSession, timer: TimingMode): TimerCalibration {
  const options: MeasureOptions = { ...DEFAULT_MEASURE_OPTIONS, timing: timer }
  const readings: CalibrationReading[] = []
  for (const kernel of CALIBRATION_KERNELS) {
    try {
      readings.push(reading(session, kernel, options))
    } catch (error) {
      if (contextLost(error)) throw error
      const e = error as Error
      return { timer, readings: [], unavailable: `${kernel.name}: ${e.name}: ${e.message}` }
    }
  }
  return { timer, readings }
}

/** How finely a kernel watching %globaltimer can end on this GPU, ns (0 when the timer never moved). */
function globalTimerStepNs(session: DeviceSession): number {
  const word = session.scratch()
  session.harness.globalTimerStep(STEP_CHANGES, STEP_READS, word)
  cuda.synchronize()
  return Number(cuda.readBytes(word, 8).readBigUInt64LE())
}

/** Times every calibration kernel in every timing mode with the default protocol, after the global warmup. */
export function measureCalibration(session: DeviceSession): Calibration {
  globalWarmup(session, DEFAULT_MEASURE_OPTIONS)
  const timers = TIMING_MODES.map((mode) => timerCalibration(session, mode))
  return {
    version: 1,
    measuredAt: new Date().toISOString(),
    gpu: session.measuredOn(),
    maxSmClockMHz: session.maxSmClockMHz,
    globalTimerStepNs: globalTimerStepNs(session),
    kernels: [...CALIBRATION_KERNELS],
    timers,
  }
}

/**
 * Launches each calibration kernel `repeats` times, one at a time, on the inputs a timed case's first draw gets, for
 * a profiler watching this process (calibration-launches.ts). After the global warmup, as in measureCalibration.
 */
export function launchCalibrationKernels(session: DeviceSession, repeats: number): void {
  globalWarmup(session, DEFAULT_MEASURE_OPTIONS)
  for (const kernel of CALIBRATION_KERNELS) {
    const plan = calibrationPlan(session, kernel, DEFAULT_MEASURE_OPTIONS)
    const buffers = allocate(session, plan)
    try {
      fillInputs(session, plan, buffers, 0)
      const call = session.fn(plan.solution)
      for (let i = 0; i < repeats; i++) {
        call(...buffers.args)
        cuda.synchronize()
      }
    } finally {
      freeAll(buffers)
    }
  }
}
