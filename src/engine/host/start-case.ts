// The start of a case inside the device host, protocol steps 1 to 5 of docs/protocol.md (cited by number): the GPU
// warmed up once per process, the case's buffers allocated, the solution verified once, then warmed up on new inputs.
// measure.ts and placement.ts go on from here.
import { GPU_STILL_WARM_MS, lockPath, msSinceGpuBusy } from '../../cache/gpu-lock.js'
import * as cublas from '../../native/cublas.js'
import * as cuda from '../../native/cuda.js'
import type { MeasureOptions } from '../../spec/options.js'
import { allocate, fillInputs, freeAll } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import type { CasePlan, VerifiedOutput } from '../../shared/messages.js'
import type { SolutionCall, TimedCase } from './timed-case.js'
import { verifyCall } from './verify.js'

/**
 * Protocol step 2: square fp32 products until the GPU runs at its working clocks, once per process, and not when any
 * process worked on the GPU a moment ago (the workers of a run each have a host on every GPU).
 */
export function globalWarmup(session: DeviceSession, options: MeasureOptions): void {
  if (session.warmedUp || options.globalWarmupCount === 0) return
  if (msSinceGpuBusy(lockPath(session.info.pciBusId)) < GPU_STILL_WARM_MS) {
    session.warmedUp = true
    return
  }
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

/**
 * Whether protocol step 5 makes its call `i` (from 0), `elapsedMs` into the warm-up: at most `warmupRuns` calls. The
 * first call pays for lazy module loading; after it, calls of a long kernel add nothing but time, so warming up ends
 * once it has lasted `minTimeMs`. A verified call (`verified`: the warm-up's time counts from its start) was such a
 * first call, and kept the GPU busy with the reference too: a case whose verification took `minTimeMs` needs no
 * warm-up call.
 */
export function warmsUpAgain(i: number, elapsedMs: number, verified: boolean, options: Pick<MeasureOptions, 'warmupRuns' | 'minTimeMs'>): boolean {
  if (i >= options.warmupRuns) return false
  return !((i > 0 || verified) && elapsedMs >= options.minTimeMs)
}

/**
 * Protocol step 5: untimed calls, each on new inputs like the timed ones. `verifiedSince`: when the verified call of
 * step 4 started, where there was one: it was the solution's first call, and the warm-up's time counts from it.
 */
function warmUp({ session, plan, buffers, solution, nextDraw }: TimedCase, verifiedSince?: number): void {
  const start = verifiedSince ?? performance.now()
  for (let i = 0; warmsUpAgain(i, performance.now() - start, verifiedSince !== undefined, plan.options); i++) {
    fillInputs(session, plan, buffers, nextDraw())
    solution()
    session.checkState('solution()', 'after an untimed warm-up call')
    cuda.synchronize()
  }
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
 * Which of steps 4 and 5 a case takes when it starts: both; or neither: a case that moves its buffers (placement.ts:
 * it has warmed up already, and checks go on on their schedule), and a paired side on a pair of processes after the
 * first (the same library was verified in the first pair's process of its side; this process's priming call, step 7,
 * is its first call, paying for lazy module loading as a warm-up call would, and as the case's first batch it is
 * checked against the reference, step 8a).
 */
export type OpeningSteps = 'verify and warm up' | 'none'

/**
 * Protocol steps 1 to 5 (step 2 and 5 only when the case is timed; 4 and 5 as `opening` says), the timed calls' buffers
 * at `placedAt` where given (buffers.ts allocate). Throws WrongAnswer when the first verification fails; the buffers are
 * freed when it throws.
 */
export function startCase(
  session: DeviceSession,
  plan: CasePlan,
  solution: (...args: unknown[]) => unknown,
  timed: boolean,
  opening: OpeningSteps = 'verify and warm up',
  placedAt?: cuda.DevicePtr,
): StartedCase {
  const options = plan.options
  // 1: whatever ran since the last case (a host thread of the solution's) must have left the harness's state too, and
  // any GPU work it left running ends before the case starts.
  cuda.synchronize()
  session.checkState("the solution's code", 'before the case started')
  // 2, before allocating: the warmup's matrices must not compete with a large case for memory.
  if (timed) session.phases.during('warmup', () => globalWarmup(session, options))
  const buffers = allocate(session, plan, placedAt) // 3
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
    const verifying = performance.now()
    const verified = opening === 'verify and warm up' && !options.skipVerification
    const outputs = verified ? verify('before timing') : [] // 4
    if (timed && opening !== 'none') session.phases.during('warmup', () => warmUp(timedCase, verified ? verifying : undefined)) // 5
    return { timed: timedCase, outputs, verify, free }
  } catch (error) {
    free()
    throw error
  }
}

