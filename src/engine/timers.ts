// How one batch of timed iterations is measured, per timing mode (DESIGN §3.3, §3.7). A timer enqueues a batch
// (padding, L2 flush, then the timed call, for every iteration) and afterwards collects one sample per iteration;
// the stopping rule and the clock filter live elsewhere (measure.ts).
import * as cuda from '../native/cuda.js'
import type { Cupti } from '../native/cupti.js'
import type { MeasureOptions } from '../options.js'
import type { DeviceSession } from './device-session.js'

/** Calls the solution once on input set `iteration mod sets`. */
export type TimedCall = (iteration: number) => void

export interface Timer {
  /** Calls per sample: 1, or the graph's batch in graph mode (samples are then per call). */
  readonly callsPerSample: number
  /** Enqueues `count` iterations numbered from `first`, without waiting for the GPU. */
  enqueue(count: number, first: number): void
  /** Waits for the batch and returns each iteration's time per call in ms, in order. */
  collect(): number[]
  dispose(): void
}

/**
 * Runs `count` iterations of padding, flush and `timed(i)`. In spin mode the stream is held until the whole batch
 * is queued, so the host's enqueue never leaves the GPU idle between a start event and the solution.
 */
function enqueueIterations(session: DeviceSession, options: MeasureOptions, count: number, timed: (i: number) => void): void {
  if (options.padding === 'spin') session.block()
  try {
    for (let i = 0; i < count; i++) {
      session.pad(options)
      session.flushL2(options)
      timed(i)
    }
  } finally {
    if (options.padding === 'spin') session.release()
  }
}

/** `events`: a CUDA event pair around each call on the legacy stream (what Tensara-style solutions launch on). */
export function eventTimer(session: DeviceSession, options: MeasureOptions, call: TimedCall): Timer {
  let pending: Array<[cuda.EventHandle, cuda.EventHandle]> = []
  return {
    callsPerSample: 1,
    enqueue(count, first) {
      pending = session.eventPairs(count)
      enqueueIterations(session, options, count, (i) => {
        const [begin, end] = pending[i]!
        cuda.eventRecord(begin)
        call(first + i)
        cuda.eventRecord(end)
      })
    },
    collect() {
      cuda.synchronize()
      return pending.map(([begin, end]) => cuda.eventElapsedMs(begin, end))
    },
    dispose() {},
  }
}

/**
 * `cupti`: CUPTI's GPU timestamps of all the work each call launched, on any stream: the span from its first
 * kernel (or copy) start to its last end. Only work inside solution() is tagged, so flush and padding never count.
 */
export function cuptiTimer(session: DeviceSession, options: MeasureOptions, call: TimedCall): Timer {
  const cupti = session.cupti()
  cupti.start()
  let ids: number[] = []
  return {
    callsPerSample: 1,
    enqueue(count, first) {
      ids = []
      enqueueIterations(session, options, count, (i) => {
        cupti.push(first + i)
        try {
          call(first + i)
        } finally {
          cupti.pop()
        }
        ids.push(first + i)
      })
    },
    collect() {
      cuda.synchronize()
      cupti.flush()
      const spans = new Map(cupti.read().map((span) => [span.id, span]))
      const lost = cupti.lostRecords()
      if (lost > 0) throw new Error(`timing 'cupti': CUPTI lost ${lost} activity records, so spans may miss work; use fewer iterations per batch or timing 'events'`)
      return ids.map((id) => {
        const span = spans.get(id)
        if (!span) throw new Error(`timing 'cupti': CUPTI saw no GPU work from solution() (call ${id}); does it launch anything?`)
        return Number(span.endNs - span.startNs) / 1e6
      })
    },
    dispose: () => cupti.stop(),
  }
}

/**
 * `graph`: `graphBatch` calls captured once into a CUDA graph, replayed per sample between events; the sample is
 * the graph's time divided by the calls in it (hot: no flush between the calls inside one graph). Solutions are
 * compiled with `--default-stream per-thread` in this mode, because the legacy stream cannot be captured.
 */
export function graphTimer(session: DeviceSession, options: MeasureOptions, call: TimedCall): Timer {
  let exec: cuda.GraphExecHandle
  try {
    exec = cuda.captureGraph(cuda.PER_THREAD_STREAM, () => {
      for (let i = 0; i < options.graphBatch; i++) call(i)
    })
  } catch (error) {
    const e = error as Error
    throw new Error(
      `timing 'graph': solution() could not be captured into a CUDA graph (${e.message}). A capturable solution only ` +
        'launches work (no synchronization, memory allocation or copies to the host inside solution()); use timing ' +
        "'events' or 'cupti' otherwise.",
    )
  }
  const events = eventTimer(session, options, () => cuda.graphLaunch(exec))
  return {
    callsPerSample: options.graphBatch,
    enqueue: (count, first) => events.enqueue(count, first),
    collect: () => events.collect().map((ms) => ms / options.graphBatch),
    dispose: () => cuda.graphExecDestroy(exec),
  }
}

export class EscapedWorkError extends Error {
  override name = 'EscapedWork'
}

/**
 * Events on the legacy stream only time work the legacy stream waits for. One call tagged for CUPTI, followed by
 * a tiny memset on the legacy stream: if any of the call's work ends after that memset started, the legacy stream
 * did not wait for it (a non-blocking stream), and an events timer would not time it. Returns 'passed', or why the
 * audit could not run.
 */
export function auditStreams(session: DeviceSession, call: TimedCall): string {
  let cupti: Cupti
  try {
    cupti = session.cupti()
    cupti.start()
  } catch (error) {
    // No CUPTI here (or a profiler holds it): the audit cannot run, which the result says; timing still can.
    return `unavailable: ${(error as Error).message.split('\n')[0]}`
  }
  try {
    cupti.push(0)
    try {
      call(0)
    } finally {
      cupti.pop()
    }
    cupti.push(1)
    cuda.memsetAsync(session.scratch(), 0, 4)
    cupti.pop()
    cuda.synchronize()
    cupti.flush()
    const spans = cupti.read()
    const [work, marker] = [0, 1].map((id) => spans.find((span) => span.id === id))
    if (work && marker && work.endNs > marker.startNs) {
      const escapedUs = Number(work.endNs - marker.startNs) / 1e3
      throw new EscapedWorkError(
        `solution() left GPU work running that the legacy default stream does not wait for (a non-blocking stream?): ` +
          `it ran ${escapedUs.toFixed(1)} µs past the point where CUDA events would stop the clock. Launch on the default ` +
          "stream or a blocking stream, join your streams before returning, or time with timing: 'cupti'.",
      )
    }
    return 'passed'
  } finally {
    cupti.stop()
  }
}
