// One timed iteration of the protocol, built once per case from the options. For every timed call:
//   1. fresh inputs: a draw of values the solution has never seen, queued as GPU work (so it pads as well);
//   2. padding: a cuBLAS matmul in front of the call (matmul), or nothing, the stream being held by a spin kernel
//      until the whole batch is queued (spin), so the host's enqueue never leaves the GPU waiting inside a window;
//   3. the L2 flush: reading a scratch buffer twice the L2 (a memset would leave dirty lines whose write-back is
//      charged to the timed call);
//   4. the call between its timer's marks: events on the legacy stream, CUPTI's kernel timestamps, the range
//      profiler's kernel durations, or a CUDA graph;
//   5. for one call picked at random, in batches drawn at random: its outputs copied aside and its inputs digested
//      after its window, then checked against the reference once the batch is done.
// Timing modes and padding kinds live here and nowhere else; measure.ts runs the batches and the stopping rule.
import { randomInt } from 'node:crypto'
import * as cublas from '../../native/cublas.js'
import * as cuda from '../../native/cuda.js'
import { CuptiError, type Cupti, type GpuSpan } from '../../native/cupti.js'
import type { ProfiledCall } from '../../native/range-profiler.js'
import type { MeasureOptions, TimingMode } from '../../spec/options.js'
import { bytesOfBuffer, fillInputs, type CaseBuffers } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import type { CasePlan } from '../../shared/messages.js'
import { auditCalls, screenBatch, type IterationRecord, type ScreenedBatch } from '../../shared/sample-screen.js'
import { checkCall, digestInputs } from './verify.js'

/** Calls the solution once on the case's buffers. */
export type SolutionCall = () => void

export class EscapedWorkError extends Error {
  override name = 'EscapedWork'
}

/** A spin that holds the stream for a whole batch gives up after this long, so a stalled host cannot hold the GPU. */
const BATCH_SPIN_TIMEOUT_NS = 1e9
/** Long enough for any solution() that does not wait for the GPU to return. */
const PROBE_SPIN_TIMEOUT_NS = 1e8
/** On average, checking picked calls may take this share of the timing loop's wall time. */
const CHECK_SHARE = 0.2
/** One batch in this many, drawn at random, is audited for escaped work (and the first batch always). */
const AUDIT_ONE_IN = 4
/** Repetitions of the held pre-window work whose fastest is the cover. */
const COVER_REPETITIONS = 3
const PICKED_CALL = 'in a timed call picked at random (its inputs were new to the solution)'

export interface TimedIterations {
  /** Solution calls behind one sample: 1, or the graph's batch in graph mode (samples are then per call). */
  readonly callsPerSample: number
  /** The events-mode stream audit: 'batches at random', 'off', or 'unavailable: <why>'. */
  readonly streamAudit: string
  /** Calls audited for escaped work so far (their batches give no samples). */
  readonly auditedCalls: number
  /** Why spin padding was abandoned for matmul padding in this case, if it was. */
  readonly paddingFallback: string | undefined
  /** Timed calls whose outputs and inputs were checked so far. */
  readonly checkedCalls: number
  /** Wall time spent checking them: not time the batches took. */
  readonly checkingMs: number
  /** Enqueues `count` iterations without waiting for the GPU. */
  enqueue(count: number): void
  /** Waits for the batch, audits it, checks its picked call, and returns its trusted samples (ms per call). */
  collect(): ScreenedBatch
  dispose(): void
}

/**
 * What happens around every timed call besides timing it: one call picked at random, in batches drawn at random, has
 * its outputs copied aside and its inputs digested right after its window; the batch's end checks them against the
 * reference on the same draw of inputs. The copy comes after the call returns, so no call can tell whether it is the
 * one checked. And no call may change the device state the harness measures in (device-state.ts), checked absolutely
 * after every call: the state a call finds is the harness's, whatever ran before it.
 */
class CallChecks {
  checked = 0
  /** Wall time spent checking picked calls so far. */
  spentMs = 0
  private picked?: number
  private lastCheckEnd = performance.now()
  private lastCheckMs = 0

  constructor(
    private readonly session: DeviceSession,
    private readonly plan: CasePlan,
    private readonly buffers: CaseBuffers,
    private readonly enabled: boolean,
  ) {}

  /**
   * A new batch of `count` calls: returns the index of the one to check, or -1 for none. The first batch is always
   * checked; later ones at random, often enough that checking takes about CHECK_SHARE of the time on average (a
   * slow reference must not starve the timing), and never predictably.
   */
  pick(count: number): number {
    this.picked = undefined
    const sinceMs = performance.now() - this.lastCheckEnd
    const chance = this.checked === 0 ? 1 : (CHECK_SHARE * sinceMs) / Math.max(this.lastCheckMs, 1e-3)
    return Math.random() < chance ? randomInt(count) : -1
  }

  /** After a call's window has closed. */
  afterCall(draw: number, isPicked: boolean): void {
    if (isPicked && this.enabled) {
      for (const { got, saved } of this.buffers.outputs) cuda.memcpyAsync(saved.ptr, got.ptr, bytesOfBuffer(got))
      digestInputs(this.session, this.buffers, 1)
      this.picked = draw
    }
    this.session.checkState('solution()', 'after a timed call')
  }

  /** After the batch has finished on the GPU. */
  checkPicked(): void {
    if (this.picked === undefined) return
    const start = performance.now()
    checkCall(this.session, this.plan, this.buffers, this.picked, 'saved', PICKED_CALL)
    this.checked++
    this.lastCheckEnd = performance.now()
    this.lastCheckMs = this.lastCheckEnd - start
    this.spentMs += this.lastCheckMs
  }
}

/**
 * `nextDraw` numbers the draws of inputs across the whole case, so no two calls see the same values.
 * `checkOutputs` is false when verification is skipped.
 */
export function timedIterations(
  session: DeviceSession,
  plan: CasePlan,
  buffers: CaseBuffers,
  solution: SolutionCall,
  nextDraw: () => number,
  checkOutputs: boolean,
): TimedIterations {
  const timed: TimedCase = { session, plan, buffers, solution, nextDraw, checks: new CallChecks(session, plan, buffers, checkOutputs) }
  switch (plan.options.timing) {
    case 'cupti':
      return idleGpuIterations(timed, cuptiTimer(session))
    case 'profiler':
      return idleGpuIterations(timed, profilerTimer(session))
    default:
      return eventIterations(timed)
  }
}

/** What every timing mode works with. */
interface TimedCase {
  session: DeviceSession
  plan: CasePlan
  buffers: CaseBuffers
  solution: SolutionCall
  nextDraw: () => number
  checks: CallChecks
}

/**
 * `events` and `graph`: CUDA events on the legacy stream (where Tensara-style solutions launch) around each call,
 * or around a replay of `graphBatch` calls captured into a CUDA graph (hot: no flush between the calls inside it).
 * A third event before the fresh inputs measures the GPU time in front of each window, which, with the host's own
 * clock, shows whether the GPU could have idled inside the window (see sample-screen.ts).
 *
 * In `events` mode, batches drawn at random (the first always) are audited with CUPTI: all of every call's work, on
 * any stream, must lie inside its window. Their samples are not used: CUPTI's kernel tracing slowed a kernel of
 * 65,536 blocks by 10% on an H100, and a timed sample must not carry that. A solution cannot tell an audited batch
 * from another, so escaping the timer in some batches is caught as surely as in all of them.
 */
function eventIterations(timed: TimedCase): TimedIterations {
  const { session, plan, buffers, solution, nextDraw, checks } = timed
  const options = plan.options
  let padding = options.padding
  let paddingFallback: string | undefined
  if (padding === 'spin' && solutionWaitsForGpu(timed)) {
    padding = 'matmul'
    paddingFallback =
      'solution() waits for the GPU (it synchronizes or copies to the host), which a spin kernel holding the stream ' +
      'turns into a stall: padded with a matmul instead'
  }
  let coverMs = measureCover(timed, padding)
  // Captured last: nothing that can throw comes between the capture and the dispose() that destroys it.
  const graph = options.timing === 'graph' ? captureGraph(session, solution, options.graphBatch) : undefined
  const invoke: SolutionCall = graph === undefined ? solution : () => cuda.graphLaunch(graph)
  const callsPerSample = graph === undefined ? 1 : options.graphBatch
  const audit = options.timing === 'events' && options.auditStreams ? auditAvailable(session) : undefined
  const auditor = typeof audit === 'object' ? audit : undefined
  let auditing = false
  let auditedCalls = 0
  let pending: Array<{ draw: number; events: [bigint, bigint, bigint]; hostMs: number; callHostMs: number }> = []
  // The case's screened records under the current padding: what is usual for its host times.
  let screened: IterationRecord[] = []

  return {
    callsPerSample,
    streamAudit: audit === undefined ? 'off' : auditor ? 'batches at random' : (audit as string),
    get auditedCalls() {
      return auditedCalls
    },
    get paddingFallback() {
      return paddingFallback
    },
    get checkedCalls() {
      return checks.checked
    },
    get checkingMs() {
      return checks.spentMs
    },
    enqueue(count) {
      const events = session.events(3 * count)
      const pick = checks.pick(count)
      pending = []
      auditing = auditor !== undefined && (auditedCalls === 0 || randomInt(AUDIT_ONE_IN) === 0)
      if (auditing) auditor!.start()
      const tag = (id: number, work: () => void) => (auditing ? tagged(auditor!, id, work) : work())
      if (padding === 'spin') hold(session, BATCH_SPIN_TIMEOUT_NS)
      try {
        for (let i = 0; i < count; i++) {
          const draw = nextDraw()
          const [preWindow, windowStart, windowEnd] = events.slice(3 * i, 3 * i + 3) as [bigint, bigint, bigint]
          const hostStart = performance.now()
          cuda.eventRecord(preWindow)
          // The audit's opening mark is the end of this work: nothing extra is queued in front of the window.
          tag(auditId(draw, 'before'), () => queuePreWindow(timed, padding, draw))
          cuda.eventRecord(windowStart)
          const callStart = performance.now()
          tag(auditId(draw, 'work'), invoke)
          const callEnd = performance.now()
          cuda.eventRecord(windowEnd)
          const hostEnd = performance.now()
          if (auditing) tagged(auditor!, auditId(draw, 'after'), () => marker(session))
          checks.afterCall(draw, i === pick)
          pending.push({ draw, events: [preWindow, windowStart, windowEnd], hostMs: hostEnd - hostStart, callHostMs: callEnd - callStart })
        }
      } finally {
        if (padding === 'spin') release(session)
      }
    },
    collect() {
      cuda.synchronize()
      if (auditing) {
        try {
          auditBatch(auditor!, pending.map((p) => p.draw))
        } finally {
          auditing = false
          auditor!.stop()
        }
        auditedCalls += pending.length
        checks.checkPicked()
        return { kept: [], interference: 0 }
      }
      checks.checkPicked()
      const records = pending.map(({ events: [preWindow, windowStart, windowEnd], hostMs, callHostMs }) => ({
        sampleMs: cuda.eventElapsedMs(windowStart, windowEnd) / callsPerSample,
        preWindowMs: cuda.eventElapsedMs(preWindow, windowStart),
        hostMs,
        callHostMs,
      }))
      if (padding === 'spin' && spinTimedOut(session)) {
        // The batch was not all queued while the spin held the stream: none of its windows can be trusted.
        padding = 'matmul'
        paddingFallback = 'the spin kernel timed out before the batch was queued (the host stalled): padded with a matmul instead'
        coverMs = measureCover(timed, padding)
        screened = []
        return { kept: [], interference: records.length }
      }
      const screen = screenBatch(records, coverMs, padding === 'matmul', screened)
      screened.push(...records)
      return screen
    },
    dispose() {
      // A batch that threw while audited (a refused call, a failed check) left CUPTI tracing on: the next case
      // would be timed under it.
      if (auditing) {
        auditing = false
        auditor!.stop()
      }
      if (graph !== undefined) cuda.graphExecDestroy(graph)
    },
  }
}

/** Times one call on an idle GPU by the GPU's own record of the call's work. */
interface IdleGpuTimer {
  readonly mode: TimingMode
  /** What it means that a call has no sample: the timer saw none of its work. */
  readonly sawNothing: string
  /** Runs `call`, the solution on draw `draw`'s inputs, timed. */
  time(draw: number, call: SolutionCall): void
  /** After synchronizing: the sample (ms) of each of `draws`, timed since the last read, or undefined where none. */
  read(draws: readonly number[]): Array<number | undefined>
  stop(): void
}

/**
 * `cupti` and `profiler`: every call starts on an idle GPU (synchronized after its inputs and the flush) and ends on
 * one (synchronized before the next inputs, which a private stream's work is not ordered before), so nothing the
 * harness queues overlaps any of its work, and the timer reads the GPU's own record of that work, on any stream;
 * padding is not needed, since the host's enqueue is left out.
 */
function idleGpuIterations(timed: TimedCase, timer: IdleGpuTimer): TimedIterations {
  const { solution, nextDraw, checks } = timed
  let draws: number[] = []
  return {
    callsPerSample: 1,
    streamAudit: 'off',
    auditedCalls: 0,
    paddingFallback: undefined,
    get checkedCalls() {
      return checks.checked
    },
    get checkingMs() {
      return checks.spentMs
    },
    enqueue(count) {
      const pick = checks.pick(count)
      draws = []
      for (let i = 0; i < count; i++) {
        const draw = nextDraw()
        queuePreWindow(timed, 'none', draw)
        cuda.synchronize()
        timer.time(draw, solution)
        // Work on a private stream is not ordered before the next draw's inputs and flush on the legacy stream, nor
        // before the checked copy of the outputs: wait for every stream.
        cuda.synchronize()
        checks.afterCall(draw, i === pick)
        draws.push(draw)
      }
    },
    collect() {
      cuda.synchronize()
      const samples = timer.read(draws)
      checks.checkPicked()
      const kept = draws.map((draw, i) => {
        const ms = samples[i]
        if (ms === undefined) throw new Error(`timing '${timer.mode}': ${timer.sawNothing} (draw ${draw}); does it launch anything?`)
        return ms
      })
      return { kept, interference: 0 }
    },
    dispose: () => timer.stop(),
  }
}

/**
 * `cupti`: one sample is the time the GPU was busy with the work one call launched, on any stream: the union of its
 * kernels', copies' and memsets' intervals from CUPTI's timestamps (each tagged with the call's draw through an
 * external correlation id). The union leaves out the gaps in which the GPU waited for the host to launch the call's
 * next kernel.
 */
function cuptiTimer(session: DeviceSession): IdleGpuTimer {
  const cupti = session.cupti()
  cupti.start()
  return {
    mode: 'cupti',
    sawNothing: 'CUPTI saw no GPU work from solution()',
    time: (draw, call) => tagged(cupti, draw, call),
    read(draws) {
      const spans = readSpans(cupti, 'cupti')
      return draws.map((draw) => {
        const span = spans.get(draw)
        return span && Number(span.busyNs) / 1e6
      })
    },
    stop: () => cupti.stop(),
  }
}

/**
 * `profiler`: one sample is Nsight Compute's gpu__time_duration.sum summed over the kernels one call launched, on
 * any stream, read through CUPTI's range profiler in one session per call (each kernel its own range, serialized as
 * ncu serializes them). Copies and memsets are not kernels and do not count, as in ncu. The range profiler is on
 * only while this case times, so it never runs beside the activity API of `cupti` timing or the stream audit.
 */
function profilerTimer(session: DeviceSession): IdleGpuTimer {
  const profiler = session.rangeProfiler()
  profiler.enable(session.info.index)
  const calls = new Map<number, ProfiledCall>()
  return {
    mode: 'profiler',
    sawNothing: 'the range profiler saw no kernel from solution()',
    time(draw, call) {
      try {
        calls.set(draw, profiler.timeCall(call))
      } catch (error) {
        // A fault of the call fails the session's end too: synchronizing raises the fault itself, as the CUDA error
        // that gets the device host replaced.
        if (error instanceof CuptiError) cuda.synchronize()
        throw error
      }
    },
    read(draws) {
      const samples = draws.map((draw) => {
        const call = calls.get(draw)
        return call && call.kernels > 0 ? call.ms : undefined
      })
      calls.clear()
      return samples
    },
    stop: () => profiler.disable(),
  }
}

/**
 * Queues the work in front of a window: draw `draw`'s inputs, then with matmul padding a cuBLAS fp32 product that
 * keeps the GPU busy while the host enqueues what follows it, then the L2 flush.
 */
function queuePreWindow({ session, plan, buffers }: TimedCase, padding: MeasureOptions['padding'], draw: number): void {
  fillInputs(session, plan, buffers, draw)
  if (padding === 'matmul') {
    const { a, b, c, size } = session.paddingMatrices(plan.options.paddingSize)
    cublas.sgemm(a, b, c, size, size, size)
  }
  flushL2(session, plan.options)
}

/** Evicts the solution's data from L2 by reading a buffer of flushFactor × L2 (or writing it, for comparison). */
function flushL2(session: DeviceSession, options: MeasureOptions): void {
  if (options.flush === 'none') return
  const { ptr, bytes, sink } = session.flushBuffer(Math.ceil((options.flushFactor * session.info.l2CacheBytes) / 16) * 16)
  if (options.flush === 'read') session.harness.flushRead(ptr, bytes, sink)
  else cuda.memsetAsync(ptr, 0, bytes)
}

/** Holds the legacy stream with the spin kernel until release(), or until `timeoutNs` passes on the GPU. */
function hold(session: DeviceSession, timeoutNs: number): void {
  const flag = session.spinFlag()
  session.harness.setFlag(flag.host, 0)
  session.harness.spin(flag.device, timeoutNs, flag.timedOut)
}

function release(session: DeviceSession): void {
  session.harness.setFlag(session.spinFlag().host, 1)
}

/** After synchronizing: whether the last spin gave up before it was released. */
function spinTimedOut(session: DeviceSession): boolean {
  return cuda.readBytes(session.spinFlag().timedOut, 4).readInt32LE() !== 0
}

/**
 * Whether solution() waits for its own GPU work before returning (a synchronize, a copy to the host): with the
 * stream held by a spin it then cannot return until the spin gives up, which the spin records.
 */
function solutionWaitsForGpu({ session, plan, buffers, solution, nextDraw }: TimedCase): boolean {
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
 * The GPU time of the work in front of a window (fresh inputs, padding, flush) with the stream held until all of
 * it is queued, so it contains no wait for the host: the least time the GPU needs before it reaches a window.
 */
function measureCover(timed: TimedCase, padding: MeasureOptions['padding']): number {
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

/**
 * Captures `calls` back-to-back calls into a CUDA graph on the per-thread default stream (solutions are compiled
 * with `--default-stream per-thread` in graph mode, because the legacy stream cannot be captured).
 */
function captureGraph(session: DeviceSession, solution: SolutionCall, calls: number): cuda.GraphExecHandle {
  let graph: cuda.GraphExecHandle
  try {
    graph = cuda.captureGraph(cuda.PER_THREAD_STREAM, () => {
      for (let i = 0; i < calls; i++) solution()
    })
  } catch (error) {
    throw new Error(
      `timing 'graph': solution() could not be captured into a CUDA graph (${(error as Error).message}). A capturable ` +
        'solution only launches work (no synchronization, memory allocation or copies to the host inside solution()); ' +
        "use timing 'events' or 'cupti' otherwise.",
    )
  }
  try {
    session.checkState('solution()', 'after capturing its calls into a CUDA graph')
  } catch (error) {
    cuda.graphExecDestroy(graph)
    throw error
  }
  return graph
}

/** Runs `fn` with its GPU work tagged `id` for CUPTI. */
function tagged(cupti: Cupti, id: number, fn: () => void): void {
  cupti.push(id)
  try {
    fn()
  } finally {
    cupti.pop()
  }
}

/** A 4-byte memset on the legacy stream after a window: a mark on CUPTI's timeline where the timed stream stands. */
function marker(session: DeviceSession): void {
  cuda.memsetAsync(session.scratch(), 0, 4)
}

const AUDIT_ROLES = ['work', 'before', 'after'] as const
const auditId = (draw: number, role: (typeof AUDIT_ROLES)[number]): number => 3 * draw + AUDIT_ROLES.indexOf(role)

/** CUPTI for the stream audit, or why it cannot run here (then timing goes on, and the result says so). */
function auditAvailable(session: DeviceSession): Cupti | string {
  try {
    const cupti = session.cupti()
    cupti.start()
    cupti.stop()
    return cupti
  } catch (error) {
    return `unavailable: ${(error as Error).message.split('\n')[0]}`
  }
}

function readSpans(cupti: Cupti, what: string): Map<number, GpuSpan> {
  cupti.flush()
  const lost = cupti.lostRecords()
  if (lost > 0) throw new Error(`${what}: CUPTI lost ${lost} activity records, so spans may miss work; use fewer iterations per batch or timing 'events'`)
  return new Map(cupti.read().map((span) => [span.id, span]))
}

/** Fails the case when any call of the batch left work outside its window. */
function auditBatch(cupti: Cupti, draws: readonly number[]): void {
  const spans = readSpans(cupti, 'stream audit')
  const calls = draws.map((draw) => ({
    work: spans.get(auditId(draw, 'work')),
    before: spans.get(auditId(draw, 'before')),
    after: spans.get(auditId(draw, 'after')),
  }))
  const { escaped, worstUs, unjudged } = auditCalls(calls)
  if (unjudged > 0) throw new Error(`stream audit: CUPTI did not record the work around ${unjudged} of ${draws.length} calls`)
  if (escaped > 0) {
    throw new EscapedWorkError(
      `${escaped} of ${draws.length} timed calls in a batch left GPU work outside their timed window (by up to ` +
        `${worstUs.toFixed(1)} µs): solution() uses a stream that the legacy default stream does not wait for (a ` +
        'non-blocking stream?), so CUDA events would not time all of its work. Launch on the default stream or a ' +
        "blocking stream, or join your streams to it before returning; timing: 'cupti' times every stream.",
    )
  }
}
