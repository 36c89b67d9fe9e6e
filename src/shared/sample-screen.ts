// Which timed samples to trust: pure functions over what one batch recorded, so they are tested without a GPU.
//
// A sample is the GPU time between two events around one call. It is wrong when the GPU sat idle inside that
// window waiting for the host (a host stall longer than the padding in front of the call), when another context's
// work ran on the GPU during it, or when the call left work that the window does not contain.
import { summarize } from './stats.js'

/** What one timed iteration recorded, in ms. */
export interface IterationRecord {
  /** The timed window: GPU time between the events around the call. */
  sampleMs: number
  /** GPU time from the iteration's first event to the window's start: fresh inputs, padding and flush. */
  preWindowMs: number
  /** Host time from recording the iteration's first event to recording the window's end. */
  hostMs: number
  /** Host time inside solution() alone. */
  callHostMs: number
}

export interface ScreenedBatch {
  /** The trusted samples, in order. */
  kept: number[]
  /** Samples dropped because the GPU idled for the host, or something else ran on it, around their window. */
  interference: number
}

/** A pre-window this much longer than the calibrated cover means the GPU idled or was shared around it. */
export const PRE_WINDOW_SLACK = 1.5
/** A margin for the cover: host enqueue must finish within this fraction of the GPU time in front of the call. */
export const COVER_MARGIN = 0.9
/**
 * An excess this small next to the sample could not move it by more than this fraction: the sample is kept. A 100 µs
 * hiccup matters to a 5 µs kernel, not to a 40 ms one.
 */
export const NEGLIGIBLE_EXCESS = 0.01

/**
 * Host time past the case's usual, in units of its spread (the median absolute deviation, scaled to a normal's σ),
 * that counts as a stall for a call whose window holds host time by design.
 */
export const HOST_SPREAD = 5
const MAD_TO_SIGMA = 1.4826

/**
 * `coverMs`: the GPU time of the work in front of each window (inputs, padding, flush) measured with the stream
 * held, so with no idle gaps. `hostMayStall`: whether host enqueue time can reach into a window (matmul padding);
 * false when the stream was held until the whole batch was queued (spin), or when there is no padding to hide the
 * host behind in the first place. `earlier`: the case's records from its earlier batches (under the same padding).
 *
 * The GPU cannot reach a window before it has done the iteration's own pre-window work, which it cannot start before
 * the host asked for it: so if the host recorded the window's end within `coverMs` of the iteration's first event,
 * the window held no host wait. The solution's own typical host time is its cost, not a stall, so it is allowed.
 * A call that typically outlasts the cover (it synchronizes with the GPU, or launches slowly) holds host time in every
 * window: then only host time beyond the case's usual, by more than HOST_SPREAD of its spread, is a stall (the
 * cover is not allowed on top: a synchronizing call's own time already contains it).
 * Either excess (host time past its bound, pre-window time past its slack) bounds what could have reached into the
 * window; an excess under NEGLIGIBLE_EXCESS of the sample is kept.
 */
export function screenBatch(records: readonly IterationRecord[], coverMs: number, hostMayStall: boolean, earlier: readonly IterationRecord[] = []): ScreenedBatch {
  // What is usual comes from the case's earlier batches too: a batch of one long call says nothing about it.
  const hostBoundMs = hostMayStall && records.length > 0 ? hostBound([...earlier, ...records], coverMs) : Infinity
  const kept: number[] = []
  let interference = 0
  for (const r of records) {
    const gpuExcess = r.preWindowMs - PRE_WINDOW_SLACK * coverMs
    const hostExcess = r.hostMs - hostBoundMs
    const negligible = NEGLIGIBLE_EXCESS * r.sampleMs
    if (gpuExcess > 0 && gpuExcess > negligible) interference++
    else if (hostExcess > 0 && hostExcess > negligible) interference++
    else kept.push(r.sampleMs)
  }
  return { kept, interference }
}

/** The host time (from the iteration's first event to the window's end) past which a window held a host stall. */
function hostBound(records: readonly IterationRecord[], coverMs: number): number {
  const hostMs = records.map((r) => r.hostMs)
  const typicalHostMs = summarize(hostMs).median
  if (typicalHostMs <= COVER_MARGIN * coverMs) return summarize(records.map((r) => r.callHostMs)).median + COVER_MARGIN * coverMs
  const spreadMs = MAD_TO_SIGMA * summarize(hostMs.map((ms) => Math.abs(ms - typicalHostMs))).median
  return typicalHostMs + HOST_SPREAD * spreadMs
}

/** A span of GPU time on CUPTI's clock, in ns. */
export interface Span {
  startNs: bigint
  endNs: bigint
}

/**
 * What the stream audit saw around one timed call: the harness's work queued just before its window (inputs,
 * padding, flush) and a marker queued just after it, both on the timed stream.
 */
export interface AuditedCall {
  work?: Span
  before?: Span
  after?: Span
  /** The window as its two CUDA events measured it, in ns. */
  windowNs?: bigint
}

/**
 * How much longer than its window a call's work may last before the events are judged not to have timed all of it:
 * the events and CUPTI's timestamps each read to about a microsecond, and their clocks differ by a few µs over a
 * 300 ms kernel on an H100: 2 µs and 0.1% of the window.
 */
export function windowSlackNs(windowNs: bigint): bigint {
  return 2000n + windowNs / 1000n
}

export interface AuditResult {
  /** Calls whose work started before the window opened, ended after it closed, or lasted longer than it. */
  escaped: number
  /** Of those, the calls whose work lay between the markers but lasted longer than the window its events measured. */
  outlasted: number
  /** The largest amount by which one call's work lay outside its window, in µs. */
  worstUs: number
  /** Calls whose surrounding work CUPTI did not record, so they could not be judged. */
  unjudged: number
  /** Pieces of untagged work (another host thread's) that ran in no call's window. */
  strays: number
}

/**
 * The window of a timed call lies between the end of the work in front of it and a marker after it, both on the
 * timed stream; all of the call's GPU work, on any stream, must lie in between, or the events did not time it. The
 * marker can start late, when the work it should follow holds the GPU, so the work must also be no longer than the
 * window the events measured (with windowSlackNs): work on a stream the timed one does not wait for can run after
 * the window's end event and still before the marker.
 */
export function auditCalls(calls: readonly AuditedCall[], untagged: readonly Span[] = []): AuditResult {
  let escaped = 0
  let outlasted = 0
  let worstNs = 0n
  let unjudged = 0
  // Untagged work (launched by another host thread) belongs to the call whose window, between the work in front of it
  // and its marker, it starts in; it then counts as that call's work. Work that starts in no window escaped every one.
  const owned = new Map<AuditedCall, Span[]>()
  let strays = 0
  for (const piece of untagged) {
    const owner = calls.find(({ before, after }) => before && after && piece.startNs >= before.endNs && piece.startNs < after.startNs)
    if (owner) owned.set(owner, [...(owned.get(owner) ?? []), piece])
    else {
      strays++
      const length = piece.endNs - piece.startNs
      if (length > worstNs) worstNs = length
    }
  }
  for (const call of calls) {
    const { before, after, windowNs } = call
    const work = union([...(call.work ? [call.work] : []), ...(owned.get(call) ?? [])])
    if (!work) continue // nothing launched on the GPU: nothing can have escaped
    if (!before || !after) {
      unjudged++
      continue
    }
    const early = before.endNs - work.startNs
    const late = work.endNs - after.startNs
    const longer = windowNs === undefined ? 0n : work.endNs - work.startNs - windowNs - windowSlackNs(windowNs)
    const outside = [early, late, longer].reduce((a, b) => (a > b ? a : b))
    if (outside > 0n) {
      escaped++
      if (early <= 0n && late <= 0n) outlasted++
      if (outside > worstNs) worstNs = outside
    }
  }
  return { escaped, outlasted, worstUs: Number(worstNs) / 1e3, unjudged, strays }
}

/** The earliest start and latest end of `spans`; undefined when there are none. */
function union(spans: readonly Span[]): Span | undefined {
  if (spans.length === 0) return undefined
  return spans.reduce((a, b) => ({ startNs: a.startNs < b.startNs ? a.startNs : b.startNs, endNs: a.endNs > b.endNs ? a.endNs : b.endNs }))
}
