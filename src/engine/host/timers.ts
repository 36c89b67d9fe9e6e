// How each timing mode times the calls of a batch (docs/protocol.md, cited by step): `events` and `graph` with CUDA
// events, padding and the stream audit; `cupti` and `profiler` on an idle GPU, by the GPU's own record of a call's
// work. Timing modes and padding kinds live here and nowhere else; timed-iteration.ts runs their steps in order.
import * as cuda from '../../native/cuda.js'
import { CuptiError } from '../../native/cupti.js'
import type { ProfiledCall } from '../../native/range-profiler.js'
import type { MeasureOptions, TimingMode } from '../../spec/options.js'
import type { TimingResult } from '../../shared/messages.js'
import { screenBatch, type IterationRecord, type ScreenedBatch } from '../../shared/sample-screen.js'
import type { DeviceSession } from './device-session.js'
import { BATCH_SPIN_TIMEOUT_NS, hold, measureCover, probeWaitsForGpu, queuePreWindow, release, spinTimedOut } from './pre-window.js'
import { readSpans, StrayWorkError, StreamAudit, tagged } from './stream-audit.js'
import type { SolutionCall, TimedCase } from './timed-case.js'

/** What a timer counts for the result. */
export type TimerCounts = Pick<TimingResult, 'callsPerSample' | 'paddingFallback' | 'streamAudit' | 'auditedCalls' | 'hostShare'>

/**
 * One timing mode's part of each step of a batch; timed-iteration.ts calls them in the protocol's order. `Read` is
 * what the timer reads of a batch before its picked call is checked, for the samples after it.
 */
export interface CallTimer<Read = unknown> {
  counts(): TimerCounts
  /** Protocol step 8a, before the batch's first call. */
  startBatch(count: number): void
  /**
   * Protocol steps 8b–8f: one call on draw `draw`'s inputs, queued or timed; then `after`, the harness's own work that
   * follows the call (8g–8h: the picked call's outputs saved), which a stream audit must not take for the solution's.
   */
  timeCall(draw: number, after: () => void): void
  /** Protocol step 8i, after the batch's last call (or one that threw). */
  endBatch(): void
  /** Protocol step 9c, after synchronizing. */
  read(): Read
  /** Protocol steps 9e–9g: the batch's trusted samples (ms per call). */
  samples(read: Read): ScreenedBatch
  /**
   * Protocol step 10d: times, as this mode times a call, a harness kernel that holds the GPU for `ns` of its own clock,
   * tagged as draw `draw` would be; the reading in ms.
   */
  timeHeld(ns: number, draw: number): number
  /**
   * Protocol step 10d inside a batch: after the batch's last call (and endBatch), queues the held kernel of timeHeld,
   * read with the batch (read), where timing it on its own would take a read of its own; heldMs gives its reading.
   */
  queueHeld(ns: number, draw: number): void
  /** After read(): the reading (ms) of the kernel queueHeld queued in this batch. */
  heldMs(read: Read): number
  /** Protocol step 10c, before the buffers are freed: lets go of what holds them (a captured graph). */
  leavePlace(): void
  /**
   * Protocol step 10c, at the buffers' new place: what belongs to a place set up again (the cover, a graph). What
   * belongs to the solution stays: the probe's finding, the records screened so far, the audit's schedule.
   */
  enterPlace(timed: TimedCase): void
  /** Protocol step 11. */
  dispose(): void
}

/** Protocol step 6: the case's timer, set up for its timing mode (untimed GPU work: steps 6a–6e). */
export function callTimer(timed: TimedCase): CallTimer {
  switch (timed.plan.options.timing) {
    case 'cupti':
      return new IdleGpuCalls(timed, cuptiTimer(timed.session))
    case 'profiler':
      return new IdleGpuCalls(timed, profilerTimer(timed.session))
    default:
      return new EventTimer(timed)
  }
}

const PROBE_FALLBACK =
  'solution() waits for the GPU (it synchronizes or copies to the host), which a spin kernel holding the stream ' +
  'turns into a stall: padded with a matmul instead'
const SPIN_TIMEOUT_FALLBACK = 'the spin kernel timed out before the batch was queued (the host stalled): padded with a matmul instead'

/** The padding of `events` and `graph` timing, from step 6c on (or from a fallback on, 9f). */
interface Padding {
  kind: MeasureOptions['padding']
  /** Why this is matmul padding where the options ask for spin: the result's `paddingFallback`. */
  fallback?: string
  /** Protocol step 6c: the least GPU time in front of a window under this padding. */
  coverMs: number
  /** The case's records screened under this padding (9g): what is usual for its host times. */
  screened: IterationRecord[]
}

/** Protocol step 6c: pads with `kind` from now on, its cover measured. */
function usePadding(timed: TimedCase, kind: MeasureOptions['padding'], fallback?: string): Padding {
  return { kind, fallback, coverMs: measureCover(timed, kind), screened: [] }
}

/** What the host recorded of one call in `events` and `graph` timing. */
interface EventCall {
  draw: number
  /** Before the pre-window work (8b), the window's start and end (8f). */
  events: [bigint, bigint, bigint]
  /** Host time from recording the first event to recording the last. */
  hostMs: number
  /** Host time inside solution() (or the graph's launch). */
  callHostMs: number
}

/**
 * `events` and `graph`: CUDA events on the legacy stream (where Tensara-style solutions launch) around each call,
 * or around a replay of `graphBatch` calls captured into a CUDA graph (hot: no flush between the calls inside it).
 * A third event before the fresh inputs measures the GPU time in front of each window, which, with the host's own
 * clock, shows whether the GPU could have idled inside the window (see sample-screen.ts). In `events` mode, batches
 * drawn at random are audited with CUPTI (stream-audit.ts).
 */
class EventTimer implements CallTimer<void> {
  private readonly session: DeviceSession
  private padding: Padding
  private graph?: cuda.GraphExecHandle
  private invoke: SolutionCall
  private readonly callsPerSample: number
  private readonly audit: StreamAudit
  /** With `nvtxRanges`: the NVTX ranges of the next timed call (the outer one to select by, the inner one to name it). */
  private readonly nvtxNames?: () => string[]
  /** The batch being queued or collected. */
  private batch: { events: cuda.EventHandle[]; audited: boolean; calls: EventCall[] } = { events: [], audited: false, calls: [] }
  /** The events around the held kernel of step 10d, from its queueing to its reading. */
  private held?: [bigint, bigint]

  constructor(private timed: TimedCase) {
    const options = timed.plan.options
    this.session = timed.session
    // 6b, with spin padding: the probe call; 6c: the cover of the padding used.
    if (options.padding === 'spin' && probeWaitsForGpu(timed)) this.padding = usePadding(timed, 'matmul', PROBE_FALLBACK)
    else this.padding = usePadding(timed, options.padding)
    // 6d. Captured last but for the audit check, which does not throw: nothing that can throw comes between the capture
    // and the dispose() that destroys it.
    this.invoke = this.capture()
    this.callsPerSample = options.timing === 'graph' ? options.graphBatch : 1
    // 6e
    this.audit = new StreamAudit(this.session, options.timing === 'events' && options.auditStreams)
    let named = 0
    const { benchName, caseName } = timed.plan
    if (options.nvtxRanges) this.nvtxNames = () => ['kernel-bench', `${benchName} · ${caseName} #${named++}`]
  }

  counts(): TimerCounts {
    const hostShare = this.audit.hostShare()
    return {
      callsPerSample: this.callsPerSample,
      paddingFallback: this.padding.fallback,
      streamAudit: this.audit.description,
      auditedCalls: this.audit.calls,
      ...(hostShare !== undefined && { hostShare }),
    }
  }

  startBatch(count: number): void {
    const events = this.session.events(3 * count)
    // 8a: whether the batch is audited; with spin padding, the stream held until the whole batch is queued.
    const audited = this.audit.startBatch()
    this.batch = { events, audited, calls: [] }
    // Without the tag, an audited batch's spin refused the honest add at 64 Ki floats on an H100 (2026-11-28):
    // `2 pieces of GPU work launched from another host thread ran outside every timed window`.
    if (this.padding.kind === 'spin') this.audit.tagBatch(audited, () => hold(this.session, BATCH_SPIN_TIMEOUT_NS))
  }

  timeCall(draw: number, after: () => void): void {
    const { events, audited, calls } = this.batch
    const i = calls.length
    const [preWindow, windowStart, windowEnd] = events.slice(3 * i, 3 * i + 3) as [bigint, bigint, bigint]
    const hostStart = performance.now()
    cuda.eventRecord(preWindow) // 8b
    // 8c–8e. The audit's opening mark is the end of this work: nothing extra is queued in front of the window.
    this.audit.tag(audited, draw, 'before', () => queuePreWindow(this.timed, this.padding.kind, draw))
    // 8f: the window.
    cuda.eventRecord(windowStart)
    const callStart = performance.now()
    if (this.nvtxNames) this.session.harness.inNvtxRanges(this.nvtxNames(), () => this.audit.tag(audited, draw, 'work', this.invoke))
    else this.audit.tag(audited, draw, 'work', this.invoke)
    const callEnd = performance.now()
    cuda.eventRecord(windowEnd)
    const hostEnd = performance.now()
    if (audited) this.audit.mark(this.session, draw)
    this.audit.tag(audited, draw, 'harness', after)
    calls.push({ draw, events: [preWindow, windowStart, windowEnd], hostMs: hostEnd - hostStart, callHostMs: callEnd - callStart })
  }

  endBatch(): void {
    if (this.padding.kind === 'spin') release(this.session) // 8i
  }

  read(): void {
    if (!this.batch.audited) return
    // 9c; an audited batch is never a graph's (graphs are not audited): a window holds one call.
    this.audit.audit(this.batch.calls.map(({ draw, events: [, windowStart, windowEnd] }) => ({ draw, windowMs: cuda.eventElapsedMs(windowStart, windowEnd) })))
  }

  samples(): ScreenedBatch {
    const { audited, calls } = this.batch
    // 9e: an audited batch's samples are not used (CUPTI's tracing slows the kernels).
    if (audited) return { kept: [], interference: 0 }
    const records = calls.map(({ events: [preWindow, windowStart, windowEnd], hostMs, callHostMs }) => ({
      sampleMs: cuda.eventElapsedMs(windowStart, windowEnd) / this.callsPerSample,
      preWindowMs: cuda.eventElapsedMs(preWindow, windowStart),
      hostMs,
      callHostMs,
    }))
    if (this.padding.kind === 'spin' && spinTimedOut(this.session)) {
      // 9f: the batch was not all queued while the spin held the stream: none of its windows can be trusted.
      this.padding = usePadding(this.timed, 'matmul', SPIN_TIMEOUT_FALLBACK)
      return { kept: [], interference: records.length }
    }
    // 9g
    const { coverMs, kind, screened } = this.padding
    const screen = screenBatch(records, coverMs, kind === 'matmul', screened)
    screened.push(...records)
    return screen
  }

  timeHeld(ns: number, draw: number): number {
    // The events of a batch's windows: the held kernel's look like any call's.
    this.held = this.holdBetween(this.session.events(2) as [bigint, bigint], ns, draw, false)
    cuda.synchronize()
    return this.heldMs()
  }

  queueHeld(ns: number, draw: number): void {
    const { events, audited } = this.batch
    // The two events after the batch's own; in an audited batch the kernel is tagged as the harness's work, since
    // untagged work outside every window reads as work that escaped the timer.
    const pair = this.session.events(events.length + 2).slice(-2) as [bigint, bigint]
    this.held = this.holdBetween(pair, ns, draw, audited)
  }

  heldMs(): number {
    const [start, end] = this.held!
    this.held = undefined
    return cuda.eventElapsedMs(start, end)
  }

  /** Records `events` around the held kernel, tagged as the harness's work of draw `draw` when `audited`. */
  private holdBetween(events: [bigint, bigint], ns: number, draw: number, audited: boolean): [bigint, bigint] {
    cuda.eventRecord(events[0])
    this.audit.tag(audited, draw, 'harness', () => this.session.harness.hold(ns))
    cuda.eventRecord(events[1])
    return events
  }

  /** Protocol step 6d: what a timed call invokes, the solution itself or, in `graph` timing, a graph of its calls. */
  private capture(): SolutionCall {
    const { session, plan, solution } = this.timed
    if (plan.options.timing !== 'graph') return solution
    const graph = captureGraph(session, solution, plan.options.graphBatch)
    this.graph = graph
    return () => cuda.graphLaunch(graph)
  }

  leavePlace(): void {
    if (this.graph !== undefined) cuda.graphExecDestroy(this.graph)
    this.graph = undefined
  }

  enterPlace(timed: TimedCase): void {
    this.timed = timed
    this.padding = { ...this.padding, coverMs: measureCover(timed, this.padding.kind) } // 6c
    this.invoke = this.capture() // 6d
  }

  dispose(): void {
    this.audit.stop()
    this.leavePlace()
  }
}

/** Times one call on an idle GPU by the GPU's own record of the call's work. */
interface IdleGpuTimer {
  readonly mode: TimingMode
  /** What it means that a call has no sample: the timer saw none of its work. */
  readonly sawNothing: string
  /**
   * Runs `call`, the solution on draw `draw`'s inputs, timed, and returns once the GPU is idle again: work on a
   * private stream is not ordered before the next draw's inputs and flush on the legacy stream, nor before the checked
   * copy of the outputs.
   */
  time(draw: number, call: SolutionCall): void
  /** After synchronizing: the sample (ms) of each of `draws`, timed since the last read, or undefined where none. */
  read(draws: readonly number[]): Array<number | undefined>
  /** Of the samples read so far, the time (ms) in copies to or from the host or another GPU, where the timer sees it. */
  offDeviceCopyMs?(): number
  stop(): void
}

/**
 * `cupti` and `profiler`: every call starts on an idle GPU (synchronized after its inputs and the flush) and ends on
 * one (synchronized before the next inputs, which a private stream's work is not ordered before), so nothing the
 * harness queues overlaps any of its work, and the timer reads the GPU's own record of that work, on any stream;
 * padding is not needed, since the host's enqueue is left out.
 */
class IdleGpuCalls implements CallTimer<Array<number | undefined>> {
  /** The batch's draws, in order. */
  private draws: number[] = []
  /** The held kernel's draw (queueHeld), read after the batch's. */
  private heldDraw?: number
  /** The sum of the samples so far (ms), against which the timer's off-device copies are a share. */
  private sampledMs = 0

  constructor(
    private timed: TimedCase,
    private readonly timer: IdleGpuTimer,
  ) {}

  counts(): TimerCounts {
    const copyMs = this.timer.offDeviceCopyMs?.()
    return {
      callsPerSample: 1,
      paddingFallback: undefined,
      streamAudit: 'off',
      auditedCalls: 0,
      ...(copyMs !== undefined && this.sampledMs > 0 && { hostShare: Math.min(1, copyMs / this.sampledMs) }),
    }
  }

  startBatch(): void {
    this.draws = []
  }

  timeCall(draw: number, after: () => void): void {
    queuePreWindow(this.timed, 'none', draw) // 8c, 8e
    cuda.synchronize()
    this.timer.time(draw, this.timed.solution) // 8f, then the GPU idle
    this.draws.push(draw)
    after()
  }

  endBatch(): void {}

  read(): Array<number | undefined> {
    return this.timer.read(this.heldDraw === undefined ? this.draws : [...this.draws, this.heldDraw]) // 9c
  }

  samples(samples: Array<number | undefined>): ScreenedBatch {
    // 9e
    const kept = this.draws.map((draw, i) => {
      const ms = samples[i]
      if (ms === undefined) throw new Error(`timing '${this.timer.mode}': ${this.timer.sawNothing} (draw ${draw}); does it launch anything?`)
      this.sampledMs += ms
      return ms
    })
    return { kept, interference: 0 }
  }

  timeHeld(ns: number, draw: number): number {
    this.startBatch()
    this.queueHeld(ns, draw)
    return this.heldMs(this.read())
  }

  queueHeld(ns: number, draw: number): void {
    cuda.synchronize() // the picked call's copies (8g) end first: the held kernel's window is its own
    this.timer.time(draw, () => this.timed.session.harness.hold(ns))
    this.heldDraw = draw
  }

  heldMs(samples: Array<number | undefined>): number {
    this.heldDraw = undefined
    return samples[this.draws.length] ?? 0
  }

  leavePlace(): void {}

  enterPlace(timed: TimedCase): void {
    this.timed = timed
  }

  dispose(): void {
    this.timer.stop()
  }
}

/**
 * `cupti`: one sample is the time the GPU was busy with the work one call launched, on any stream and from any host
 * thread: the union of its kernels', copies' and memsets' intervals from CUPTI's timestamps. The calling thread's
 * work is tagged with the call's draw (an external correlation id); work from other threads carries no tag, so the
 * call's window on CUPTI's clock, from the idle GPU before it to the idle GPU after it, claims whatever else ran in
 * it. The union leaves out the gaps in which the GPU waited for the host to launch the call's next kernel.
 */
function cuptiTimer(session: DeviceSession): IdleGpuTimer {
  const cupti = session.cupti()
  cupti.start() // 6a
  // From here on, every CUDA call this thread makes is the harness's, unless a call's own tag covers it (tagged()), so
  // work that comes untagged and outside every call's window was launched by a thread of the solution's own while no
  // call ran: in a paired A/B run, while the other side may be timing on the same GPU.
  cupti.push(HARNESS_WORK_ID)
  let offDeviceCopyNs = 0
  return {
    mode: 'cupti',
    sawNothing: 'CUPTI saw no GPU work from solution()',
    time(draw, call) {
      // The GPU is idle here (IdleGpuCalls synchronized), and again after the synchronize below: the call's window.
      const start = cupti.timestamp()
      tagged(cupti, draw, call)
      cuda.synchronize()
      cupti.window(draw, start, cupti.timestamp())
    },
    read(draws) {
      const spans = readSpans(cupti, 'cupti')
      refuseStrayWork(cupti.untagged().length)
      return draws.map((draw) => {
        const span = spans.get(draw)
        offDeviceCopyNs += span ? Number(span.offDeviceCopyNs) : 0
        return span && Number(span.busyNs) / 1e6
      })
    },
    offDeviceCopyMs: () => offDeviceCopyNs / 1e6,
    stop: () => {
      try {
        cupti.pop()
      } finally {
        cupti.stop()
      }
    },
  }
}

/** The tag of the harness's own GPU work while `cupti` times a case: an id no draw takes. */
const HARNESS_WORK_ID = Number.MAX_SAFE_INTEGER

/** Fails the case when `strays` pieces of GPU work ran outside every call and were not the harness's (see cuptiTimer). */
function refuseStrayWork(strays: number): void {
  if (strays === 0) return
  throw new StrayWorkError(
    `${strays} pieces of GPU work that no call launched ran while no call was running: a thread of the solution's own ` +
      'launches work between its calls (or after solution() returned), which no sample times and which would slow ' +
      'whatever runs next on the GPU, the other side of a paired A/B case included. Join your threads before solution() ' +
      'returns, and launch nothing from them between calls.',
  )
}

/**
 * `profiler`: one sample is Nsight Compute's gpu__time_duration.sum summed over the kernels one call launched, on
 * any stream, read through CUPTI's range profiler in one session per call (each kernel its own range, serialized as
 * ncu serializes them). Copies and memsets are not kernels and do not count, as in ncu. The range profiler is on
 * only while this case times, so it never runs beside the activity API of `cupti` timing or the stream audit.
 */
function profilerTimer(session: DeviceSession): IdleGpuTimer {
  const profiler = session.rangeProfiler()
  const ownership = session.cuptiOwnership
  ownership.release()
  try {
    profiler.enable(session.info.index) // 6a
  } catch (error) {
    ownership.reclaim('solution()')
    throw error
  }
  const calls = new Map<number, ProfiledCall>()
  return {
    mode: 'profiler',
    sawNothing: 'the range profiler saw no kernel from solution()',
    time(draw, call) {
      try {
        calls.set(draw, profiler.timeCall(call))
        cuda.synchronize()
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
    stop: () => {
      try {
        profiler.disable()
      } finally {
        ownership.reclaim('solution()')
      }
    },
  }
}

/**
 * Protocol step 6d: captures `calls` back-to-back calls into a CUDA graph on the per-thread default stream
 * (solutions are compiled with `--default-stream per-thread` in graph mode, because the legacy stream cannot be
 * captured).
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
