// Protocol step 12a (the `counters` option): untimed runs of one call, after the case's timing and its last verified
// call: one traced by CUPTI's activity API for the launch configurations of its kernels, then one per pass of Nsight
// Compute's speed-of-light and occupancy metrics under CUPTI's range profiler. Nothing timed runs while it does: the
// timer is off (step 11) and no sample is taken after it. Where this machine cannot read the counters, the case keeps
// its timing and its outcome says why they are missing.
import { countCall } from '../../native/counters.js'
import * as cuda from '../../native/cuda.js'
import { CuptiError } from '../../native/cupti.js'
import { CudaError } from '../../native/errors.js'
import { asUnavailable, ProfilerUnavailableError } from '../../native/range-profiler.js'
import type { CaseCountersOutcome } from '../../shared/counters.js'
import { fillInputs } from './buffers.js'
import { TamperingDetected } from './code-integrity.js'
import { EMPTY_L2_KERNELS, emptyL2 } from './pre-window.js'
import type { TimedCase } from './timed-case.js'

/**
 * Step 12a: the counted call, run once for its launches and twice per pass of the metrics (the second kept), each
 * pass on the same fresh inputs, the kept call right after L2 is emptied (as ncu replays a kernel: same data, cold
 * caches, whatever the timing's flush option); then the state check of every call.
 */
export function countCase({ session, plan, buffers, solution, nextDraw }: TimedCase): CaseCountersOutcome {
  const start = performance.now()
  const costMs = () => performance.now() - start
  const draw = nextDraw()
  const prepare = () => {
    fillInputs(session, plan, buffers, draw)
    cuda.synchronize()
  }
  const flush = () => emptyL2(session, plan.options)
  let outcome: CaseCountersOutcome
  try {
    const device = session.info.index
    const counted = session.cuptiOwnership.whileReleased('solution()', () =>
      countCall(session.rangeProfiler(), session.cupti(), device, { prepare, flush, flushKernels: EMPTY_L2_KERNELS, call: solution }),
    )
    outcome =
      counted.kernels.length === 0
        ? { status: 'failed', reason: 'solution() launched no kernel (copies and memsets have no counters)', costMs: costMs() }
        : { status: 'ok', kernels: counted.kernels, passes: counted.passes, limits: cuda.smLimits(device), costMs: costMs() }
  } catch (error) {
    if (error instanceof CudaError || error instanceof TamperingDetected) throw error
    // A fault of the call fails CUPTI's session too: synchronizing raises the fault itself, as the CUDA error that
    // gets the device host replaced.
    if (error instanceof CuptiError) cuda.synchronize()
    const unavailable = error instanceof ProfilerUnavailableError ? error : error instanceof CuptiError ? asUnavailable(error, 'counters') : undefined
    outcome = unavailable
      ? { status: 'unavailable', reason: unavailable.message, costMs: costMs() }
      : { status: 'failed', reason: `the counters could not be read: ${(error as Error).message}`, costMs: costMs() }
  }
  session.checkState('solution()', 'after the call whose counters were read (step 12a)')
  return outcome
}
