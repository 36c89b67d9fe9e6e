// One case, start to finish, inside the device host: the measurement protocol of docs/protocol.md, its steps cited
// by number. runCase runs steps 1 to 12 in order (12a with the `counters` option), time() steps 6 to 11 (one batch's
// steps 8 and 9 are in timed-iteration.ts); step 13 is the host's, once it has let go of the GPU (host.ts), and
// step 14, the statistics, is the worker's.
import * as cublas from '../../native/cublas.js'
import * as cuda from '../../native/cuda.js'
import { CudaError } from '../../native/errors.js'
import type { MeasureOptions } from '../../spec/options.js'
import { countCase } from './counters.js'
import { allocate, fillInputs, freeAll } from './buffers.js'
import { dropThrottled, type ClockedSample } from '../../shared/clock-filter.js'
import type { DeviceSession } from './device-session.js'
import type { CaseOutcome, CasePlan, TimingResult, VerifiedOutput } from '../../shared/messages.js'
import { stopReason } from '../../shared/stopping.js'
import type { SolutionCall, TimedCase } from './timed-case.js'
import { timedIterations, type TimedIterations } from './timed-iteration.js'
import { verifyCall, WrongAnswer } from './verify.js'

/** A batch of timed iterations aims at this much wall time between synchronizations. */
const BATCH_TARGET_MS = 25
const MAX_BATCH = 64

/** Protocol step 2: square fp32 products until the GPU runs at its working clocks, once per process. */
export function globalWarmup(session: DeviceSession, options: MeasureOptions): void {
  if (session.warmedUp || options.globalWarmupCount === 0) return
  const n = options.globalWarmupSize
  const bytes = n * n * 4
  const [a, b, c] = [cuda.malloc(bytes), cuda.malloc(bytes), cuda.malloc(bytes)] as const
  try {
    session.harness.fillUniform(a, n * n, 'float32', 1, -1, 1)
    session.harness.fillUniform(b, n * n, 'float32', 2, -1, 1)
    for (let i = 0; i < options.globalWarmupCount; i++) cublas.sgemm(a, b, c, n, n, n)
    cuda.synchronize()
  } finally {
    for (const p of [a, b, c]) cuda.free(p)
  }
  session.warmedUp = true
}

/** Protocol step 5: untimed calls, each on new inputs like the timed ones. */
function warmUp({ session, plan, buffers, solution, nextDraw }: TimedCase): void {
  const start = performance.now()
  for (let i = 0; i < plan.options.warmupRuns; i++) {
    // The first call pays for lazy module loading; after it, calls of a long kernel add nothing but time: warming
    // up ends once it has lasted minTimeMs.
    if (i > 0 && performance.now() - start >= plan.options.minTimeMs) break
    fillInputs(session, plan, buffers, nextDraw())
    solution()
    session.checkState('solution()', 'after an untimed warm-up call')
    cuda.synchronize()
  }
}

/**
 * Protocol steps 6 to 11: the timer set up, the priming batch, batches of timed iterations, the SM clock read while
 * each runs, until the stopping rule says enough; then the timer off.
 */
function time(timed: TimedCase): TimingResult {
  const { session, plan } = timed
  const iterations = timedIterations(timed, !plan.options.skipVerification) // 6
  let result: TimingResult
  try {
    result = timeBatches(session, plan.options, iterations)
  } catch (error) {
    try {
      iterations.dispose() // 11
    } catch {
      // The error that ended timing is the one to report: after a fault, tearing the timer down fails too.
    }
    throw error
  }
  iterations.dispose() // 11
  return result
}

function timeBatches(session: DeviceSession, options: MeasureOptions, iterations: TimedIterations): TimingResult {
  // 7: the priming batch, untimed: a graph's first launch uploads it, CUPTI's first flush allocates its buffers.
  let batchStart = performance.now()
  let checkingBefore = iterations.checkingMs
  iterations.enqueue(1)
  iterations.collect()
  // 8: the first batch is sized by the priming call too (which its first-time costs only make smaller): batches of a
  // long kernel stay one call, so an audited batch (whose samples are dropped) costs one call, not minIterations.
  let batch = nextBatchSize(batchStart, checkingBefore, 1, Math.min(options.minIterations, MAX_BATCH))
  const clocked: ClockedSample[] = []
  let droppedInterference = 0
  const start = performance.now()
  for (;;) {
    batchStart = performance.now()
    checkingBefore = iterations.checkingMs
    iterations.enqueue(batch) // 8
    // 9a: read while the batch runs: the clock the samples are taken at.
    const clock = session.smClockMHz()
    const { kept, interference } = iterations.collect() // 9b–9g
    droppedInterference += interference
    for (const ms of kept) clocked.push({ ms, smClockMHz: clock })
    const filtered = dropThrottled(clocked, session.maxSmClockMHz, options.throttleFraction) // 10a
    const elapsed = performance.now() - start
    const reason = stopReason(filtered.kept, elapsed, options) // 10b
    if (reason) {
      return {
        samplesMs: filtered.kept,
        droppedThrottled: filtered.dropped,
        droppedInterference,
        meanSmClockMHz: filtered.meanClockMHz,
        maxSmClockMHz: session.maxSmClockMHz,
        stopReason: reason,
        wallMs: elapsed,
        ...iterations.counts(),
      }
    }
    // 10c: the next batch, sized by this one's time.
    batch = nextBatchSize(batchStart, checkingBefore, batch, Math.min(MAX_BATCH, Math.max(1, options.maxIterations - filtered.kept.length)))
  }

  /**
   * Iterations that take about BATCH_TARGET_MS (at least one, at most `most`), by the time a batch of `count` has taken
   * since `startMs`, less its check: a slow reference check must not shrink batches (more batches, more checks).
   */
  function nextBatchSize(startMs: number, checkingBeforeMs: number, count: number, most: number): number {
    const perIterationMs = (performance.now() - startMs - (iterations.checkingMs - checkingBeforeMs)) / count
    return Math.max(1, Math.min(most, Math.round(BATCH_TARGET_MS / perIterationMs)))
  }
}

/** Errors that mean the CUDA context is gone: the device host must be replaced after reporting them. */
export function contextLost(error: unknown): boolean {
  // CuDriverError (driver-API launches of TypeScript solutions) is a CudaError too.
  return error instanceof CudaError && error.isSticky
}

/** A case after protocol steps 1 to 4 (5 too when timed): its buffers allocated, the solution verified once. */
export interface StartedCase {
  timed: TimedCase
  outputs: VerifiedOutput[]
  /** Protocol step 4 or 12: one verified call on fresh inputs (none when verification is skipped). */
  verify(when: string): VerifiedOutput[]
  /** Frees the buffers; after a lost context, quietly. */
  free(): void
}

/**
 * Protocol steps 1 to 5 (step 2 and 5 only when the case is timed). A paired side that moves its buffers (`moving`)
 * leaves out steps 4 and 5: it has warmed up already, and the first batch at the new place always has a call checked
 * against the reference (step 8a). Throws WrongAnswer when the first verification fails; the buffers are freed when
 * it throws.
 */
export function startCase(
  session: DeviceSession,
  plan: CasePlan,
  solution: (...args: unknown[]) => unknown,
  timed: boolean,
  moving = false,
): StartedCase {
  const options = plan.options
  // 1: whatever ran since the last case (a host thread of the solution's) must have left the harness's state too, and
  // any GPU work it left running ends before the case starts.
  cuda.synchronize()
  session.checkState("the solution's code", 'before the case started')
  // 2, before allocating: the warmup's matrices must not compete with a large case for memory.
  if (timed) session.phases.during('warmup', () => globalWarmup(session, options))
  const buffers = allocate(session, plan) // 3
  const free = () => {
    try {
      freeAll(buffers)
    } catch {
      // Only a lost context makes cudaFree fail; the error that lost it is already on its way to the worker.
    }
  }
  // Every call of the case gets its own draw of inputs; draw 0 is the same data for the case in every run.
  let draws = 0
  const nextDraw = () => draws++
  const call: SolutionCall = () => {
    solution(...buffers.args)
  }
  const verify = (when: string): VerifiedOutput[] =>
    options.skipVerification ? [] : session.phases.during('verify', () => verifyCall(session, plan, buffers, call, nextDraw(), when))
  const timedCase: TimedCase = { session, plan, buffers, solution: call, nextDraw }
  try {
    const outputs = moving ? [] : verify('before timing') // 4
    if (timed && !moving) session.phases.during('warmup', () => warmUp(timedCase)) // 5
    return { timed: timedCase, outputs, verify, free }
  } catch (error) {
    free()
    throw error
  }
}

/** A verification that failed, as the outcome that reports it; any other error is thrown on. */
export function wrongAnswerOutcome(error: unknown): { status: 'wrong'; message: string; outputs: VerifiedOutput[] } {
  if (error instanceof WrongAnswer) return { status: 'wrong', message: error.message, outputs: error.outputs }
  throw error
}

/** `solution` is the case's entry point, from session.solution(plan.solution). */
export function runCase(session: DeviceSession, plan: CasePlan, solution: (...args: unknown[]) => unknown): CaseOutcome {
  const options = plan.options
  const timed = plan.mode === 'bench' && !options.disableTiming
  let started: StartedCase
  try {
    started = startCase(session, plan, solution, timed)
  } catch (error) {
    return wrongAnswerOutcome(error)
  }
  try {
    if (!timed) return { status: 'ok', outputs: started.outputs, verificationSkipped: options.skipVerification }
    const timing = session.phases.during('timing', () => time(started.timed)) // 6–11
    const outputs = started.verify('after timing (fresh inputs)') // 12
    const counters = options.counters ? session.phases.during('counters', () => countCase(started.timed)) : undefined // 12a
    return { status: 'ok', outputs, timing, verificationSkipped: options.skipVerification, ...(counters && { counters }) }
  } catch (error) {
    return wrongAnswerOutcome(error)
  } finally {
    started.free()
  }
}
