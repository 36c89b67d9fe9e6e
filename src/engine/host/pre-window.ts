// The work in front of a timed window (docs/protocol.md, steps 8c to 8e: fresh inputs, padding, the L2 flush), the
// spin kernel that holds the stream while a batch is queued (8a, 8i, 9f), and the two untimed measurements made with
// it before timing: the probe call (6b) and the cover (6c).
import * as cublas from '../../native/cublas.js'
import * as cuda from '../../native/cuda.js'
import type { MeasureOptions } from '../../spec/options.js'
import { fillInputs } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import type { TimedCase } from './timed-case.js'

/** A spin that holds the stream for a whole batch gives up after this long, so a stalled host cannot hold the GPU. */
export const BATCH_SPIN_TIMEOUT_NS = 1e9
/** Long enough for any solution() that does not wait for the GPU to return. */
const PROBE_SPIN_TIMEOUT_NS = 1e8
/** Repetitions of the held pre-window work whose fastest is the cover. */
const COVER_REPETITIONS = 3

/**
 * Protocol steps 8c–8e: queues the work in front of a window: draw `draw`'s inputs, then with matmul padding a cuBLAS
 * fp32 product that keeps the GPU busy while the host enqueues what follows it, then the L2 flush.
 */
export function queuePreWindow({ session, plan, buffers }: TimedCase, padding: MeasureOptions['padding'], draw: number): void {
  fillInputs(session, plan, buffers, draw) // 8c
  if (padding === 'matmul') {
    // 8d: the padding
    const { a, b, c, size } = session.paddingMatrices(plan.options.paddingSize)
    cublas.sgemm(a, b, c, size, size, size)
  }
  flushL2(session, plan.options) // 8e
}

/**
 * Protocol step 8e: evicts the solution's data from L2 by reading a buffer of flushFactor × L2 (or writing it, for
 * comparison).
 */
export function flushL2(session: DeviceSession, options: MeasureOptions): void {
  if (options.flush === 'none') return
  const { ptr, bytes, sink } = flushBufferOf(session, options)
  if (options.flush === 'read') session.harness.flushRead(ptr, bytes, sink)
  else cuda.memsetAsync(ptr, 0, bytes)
}

/** The kernels emptyL2 launches. */
export const EMPTY_L2_KERNELS = 2

/**
 * The counters' flush (step 12a): the read flush, then the flush buffer's lines discarded from L2, so that L2 holds
 * nothing, as after Nsight Compute's cache flush, rather than the flush buffer's clean lines. EMPTY_L2_KERNELS kernels.
 */
export function emptyL2(session: DeviceSession, options: MeasureOptions): void {
  const { ptr, bytes, sink } = flushBufferOf(session, options)
  session.harness.flushRead(ptr, bytes, sink)
  session.harness.discardL2(ptr, bytes)
}

/** flushFactor × L2, in whole 16-byte words. */
function flushBufferOf(session: DeviceSession, options: MeasureOptions) {
  return session.flushBuffer(Math.ceil((options.flushFactor * session.info.l2CacheBytes) / 16) * 16)
}

/** Holds the legacy stream with the spin kernel until release(), or until `timeoutNs` passes on the GPU. */
export function hold(session: DeviceSession, timeoutNs: number): void {
  const flag = session.spinFlag()
  session.harness.setFlag(flag.host, 0)
  session.harness.spin(flag.device, timeoutNs, flag.timedOut)
}

export function release(session: DeviceSession): void {
  session.harness.setFlag(session.spinFlag().host, 1)
}

/** After synchronizing: whether the last spin gave up before it was released. */
export function spinTimedOut(session: DeviceSession): boolean {
  return cuda.readBytes(session.spinFlag().timedOut, 4).readInt32LE() !== 0
}

/**
 * Protocol step 6b, the probe call: whether solution() waits for its own GPU work before returning (a synchronize, a
 * copy to the host): with the stream held by a spin it then cannot return until the spin gives up, which the spin
 * records.
 */
export function probeWaitsForGpu({ session, plan, buffers, solution, nextDraw }: TimedCase): boolean {
  hold(session, PROBE_SPIN_TIMEOUT_NS)
  try {
    fillInputs(session, plan, buffers, nextDraw())
    solution()
  } finally {
    release(session)
  }
  cuda.synchronize()
  session.checkState('solution()', 'after the untimed call that tests whether it waits for the GPU')
  return spinTimedOut(session)
}

/**
 * Protocol step 6c, the cover: the GPU time of the work in front of a window (fresh inputs, padding, flush) with the
 * stream held until all of it is queued, so it contains no wait for the host: the least time the GPU needs before it
 * reaches a window.
 */
export function measureCover(timed: TimedCase, padding: MeasureOptions['padding']): number {
  const { session, nextDraw } = timed
  const [start, end] = session.events(2) as [bigint, bigint]
  // Once unheld first: what the work allocates (the flush buffer, padding matrices) and the harness kernels that CUDA
  // loads at their first launch both wait for the GPU, which a spin keeps busy until it gives up (a second).
  queuePreWindow(timed, padding, nextDraw())
  cuda.synchronize()
  let fastest = Infinity
  for (let i = 0; i < COVER_REPETITIONS; i++) {
    hold(session, BATCH_SPIN_TIMEOUT_NS)
    try {
      cuda.eventRecord(start)
      queuePreWindow(timed, padding, nextDraw())
      cuda.eventRecord(end)
    } finally {
      release(session)
    }
    cuda.synchronize()
    fastest = Math.min(fastest, cuda.eventElapsedMs(start, end))
  }
  return fastest
}
