// One case, start to finish, inside the device host: allocate and fill inputs, compute the reference, verify
// the solution on poisoned outputs, then time it under the protocol of DESIGN.md §3 and verify it again.
import * as cuda from '../native/cuda.js'
import * as cublas from '../native/cublas.js'
import { CudaError } from '../native/errors.js'
import type { MeasureOptions } from '../options.js'
import { dropThrottled, type ClockedSample } from './clock-filter.js'
import { allocate, fillInputs, freeAll, type CaseBuffers } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import type { CaseOutcome, CasePlan, TimingResult, VerifiedOutput } from './protocol.js'
import { stopReason } from './stopping.js'
import { auditStreams, cuptiTimer, eventTimer, graphTimer, type TimedCall, type Timer } from './timers.js'

/** A batch of timed iterations aims at this much wall time between synchronizations. */
const BATCH_TARGET_MS = 25
const MAX_BATCH = 64

export class WrongAnswer extends Error {
  constructor(
    message: string,
    readonly outputs: VerifiedOutput[],
  ) {
    super(message)
  }
}

function runReference(session: DeviceSession, plan: CasePlan, args: unknown[]): void {
  const reference = plan.reference
  if (reference.kind === 'library') {
    session.fn(reference.target)(...args)
    cuda.checkLastError('reference kernel launch')
  } else {
    const [a, b, c, m, n, k] = args as [bigint, bigint, bigint, number, number, number]
    cublas.gemmEx(reference.dtype as keyof typeof cublas.CUDA_DATA_TYPE, a, b, c, m, n, k)
  }
  cuda.synchronize()
}

/** Poisons every output with NaN, runs the solution once and compares each output with the reference. */
function verify(
  session: DeviceSession,
  plan: CasePlan,
  buffers: CaseBuffers,
  call: () => void,
  when: string,
): VerifiedOutput[] {
  for (const { got } of buffers.outputs) session.harness.poison(got.ptr, got.count, got.dtype)
  call()
  cuda.synchronize()
  const results: VerifiedOutput[] = buffers.outputs.map(({ name, got, expected }) => ({
    name,
    elements: got.count,
    comparison: session.harness.compare(got.ptr, expected.ptr, got.count, got.dtype, plan.tolerance.rtol, plan.tolerance.atol),
  }))
  const bad = results.filter((r) => r.comparison.badCount > 0)
  if (bad.length > 0) {
    const lines = bad.map(({ name, elements, comparison: c }) => {
      return (
        `${name}: ${c.badCount} of ${elements} elements out of tolerance (rtol ${plan.tolerance.rtol}, atol ${plan.tolerance.atol})` +
        (c.nanCount ? `, ${c.nanCount} NaN (never written?)` : '') +
        `; first bad index ${c.firstBad}: expected ${c.expectedAtFirstBad}, got ${c.gotAtFirstBad}; ` +
        // NaN has no distance: a NaN-only failure would otherwise read "max abs error 0".
        `max abs error ${c.maxAbsError}${c.nanCount ? ' (NaN excluded)' : ''}`
      )
    })
    throw new WrongAnswer(`wrong answer ${when} in case '${plan.caseName}':\n  ${lines.join('\n  ')}`, results)
  }
  return results
}

function createTimer(session: DeviceSession, options: MeasureOptions, call: TimedCall): Timer {
  switch (options.timing) {
    case 'events':
      return eventTimer(session, options, call)
    case 'graph':
      return graphTimer(session, options, call)
    case 'cupti':
      return cuptiTimer(session, options, call)
  }
}

/** The timing loop (DESIGN §3.3–3.5): batches of timed iterations, clocks read mid-batch, the stopping rule. */
function time(session: DeviceSession, call: TimedCall, options: MeasureOptions, inputSets: number): TimingResult {
  const timer = createTimer(session, options, call)
  try {
    // One untimed batch: a graph's first launch uploads it, CUPTI's first flush allocates its buffers.
    timer.enqueue(1, 0)
    timer.collect()
    const clocked: ClockedSample[] = []
    const start = performance.now()
    let batch = Math.min(options.minIterations, MAX_BATCH)
    let iteration = 0
    for (;;) {
      const batchStart = performance.now()
      timer.enqueue(batch, iteration)
      iteration += batch
      // Read while the batch runs: the clock the samples are taken at.
      const clock = session.smClockMHz()
      for (const ms of timer.collect()) clocked.push({ ms, smClockMHz: clock })
      const filtered = dropThrottled(clocked, session.maxSmClockMHz, options.throttleFraction)
      const elapsed = performance.now() - start
      const reason = stopReason(filtered.kept, elapsed, options)
      if (reason) {
        return {
          samplesMs: filtered.kept,
          droppedThrottled: filtered.dropped,
          meanSmClockMHz: filtered.meanClockMHz,
          maxSmClockMHz: session.maxSmClockMHz,
          stopReason: reason,
          wallMs: elapsed,
          callsPerSample: timer.callsPerSample,
          inputSets,
        }
      }
      const perIterationMs = (performance.now() - batchStart) / batch
      const remaining = Math.max(1, options.maxIterations - filtered.kept.length)
      batch = Math.max(1, Math.min(MAX_BATCH, remaining, Math.round(BATCH_TARGET_MS / perIterationMs)))
    }
  } finally {
    timer.dispose()
  }
}

/** Errors that mean the CUDA context is gone: the device host must be replaced after reporting them. */
export function contextLost(error: unknown): boolean {
  // CuDriverError (driver-API launches of TypeScript solutions) is a CudaError too.
  return error instanceof CudaError && error.isSticky
}

/** `solution` is the case's entry point, from session.solution(plan.solution). */
export function runCase(session: DeviceSession, plan: CasePlan, solution: (...args: unknown[]) => unknown): CaseOutcome {
  const options = plan.options
  const timed = plan.mode === 'bench' && !options.disableTiming
  // Before allocating: the warmup's matrices must not compete with a large case for memory.
  if (timed) session.globalWarmup(options)
  const buffers = allocate(session, plan)
  try {
    const call: TimedCall = (iteration) => {
      solution(...buffers.argSets[iteration % buffers.argSets.length]!)
    }
    let outputs: VerifiedOutput[] = []
    if (!options.skipVerification) {
      runReference(session, plan, buffers.referenceArgs)
      outputs = verify(session, plan, buffers, () => call(0), 'before timing')
    }
    if (!timed) return { status: 'ok', outputs, verificationSkipped: options.skipVerification }
    for (let i = 0; i < options.warmupRuns; i++) call(i)
    cuda.synchronize()
    const streamAudit = options.timing === 'events' && options.auditStreams ? auditStreams(session, call) : 'off'
    const timing = { ...time(session, call, options, buffers.argSets.length), streamAudit }
    if (!options.skipVerification) {
      // New values in the same buffers: a solution that replays an answer cached from earlier calls fails here.
      fillInputs(session, plan, buffers, 0, 1)
      runReference(session, plan, buffers.referenceArgs)
      outputs = verify(session, plan, buffers, () => call(0), 'after timing (fresh inputs)')
    }
    return { status: 'ok', outputs, timing, verificationSkipped: options.skipVerification }
  } catch (error) {
    if (error instanceof WrongAnswer) return { status: 'wrong', message: error.message, outputs: error.outputs }
    throw error
  } finally {
    try {
      freeAll(buffers)
    } catch {
      // Only a lost context makes cudaFree fail; the error that lost it is already on its way to the worker.
    }
  }
}
