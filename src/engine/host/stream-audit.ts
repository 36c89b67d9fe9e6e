// The stream audit of `events` timing (docs/protocol.md, "The stream audit"): whether CUPTI can run (step 6e), which
// batches are audited (8a), the tags around each audited call (8f), the audit itself (9c), and CUPTI stopped after a
// batch that threw (11). Also what `cupti` timing shares with it: tagging a call's GPU work and reading CUPTI's spans.
import { randomInt } from 'node:crypto'
import * as cuda from '../../native/cuda.js'
import type { Cupti, GpuSpan } from '../../native/cupti.js'
import { auditCalls } from '../../shared/sample-screen.js'
import type { DeviceSession } from './device-session.js'

export class EscapedWorkError extends Error {
  override name = 'EscapedWork'
}

/**
 * Escaped work that a thread of the solution's own launched outside every call: the thread may go on launching, so the
 * host exits under the GPU's lock (host.ts), its context and that work with it, before anyone else times.
 */
export class StrayWorkError extends EscapedWorkError {}

/**
 * CUPTI's records came back incomplete: lost for want of buffer space, or unfinished because work was still running when
 * they were read, which after the device was synchronized only a thread of the solution's own can have launched. The
 * host exits as after stray work, since such a thread may go on launching.
 */
export class IncompleteRecordsError extends Error {
  override name = 'IncompleteRecords'
}

/**
 * One batch in each run of this many, at a place in the run drawn at random, is audited for escaped work (and the
 * first batch always).
 */
const AUDIT_ONE_IN = 4

/**
 * The parts of an audited iteration, each tagged with its own id: the call's work, the work in front of its window,
 * the mark after it, and the harness's work after that (the picked call's outputs saved), which is nobody's window.
 */
const AUDIT_ROLES = ['work', 'before', 'after', 'harness'] as const
type AuditRole = (typeof AUDIT_ROLES)[number]
const auditId = (draw: number, role: AuditRole): number => AUDIT_ROLES.length * draw + AUDIT_ROLES.indexOf(role)
/** The tag of the harness's work for a whole batch (spin padding's hold on the stream): an id no call's part takes. */
const BATCH_ID = Number.MAX_SAFE_INTEGER

/**
 * Events on the legacy stream only time work that the legacy stream waits for. In audited batches all of every
 * call's work, on any stream, must lie inside its window. Their samples are not used: CUPTI's kernel tracing slowed a
 * kernel of 65,536 blocks by 10% on an H100, and a timed sample must not carry that. A solution cannot tell an audited
 * batch from another, so escaping the timer in some batches is caught as surely as in all of them.
 */
export class StreamAudit {
  /** The result's `streamAudit`: 'batches at random', 'off', or 'unavailable: <why>'. */
  readonly description: string
  /** Calls audited so far (their batches give no samples): the result's `auditedCalls`. */
  calls = 0
  /** The audited calls' windows, and the part of them that was the host's or the bus's (auditBatch; ns). */
  private host = { windowNs: 0, hostNs: 0 }
  private readonly cupti?: Cupti
  /** Whether CUPTI traces for the audit now: from the start of an audited batch to its audit. */
  private tracing = false
  /** The batches left in the current run of AUDIT_ONE_IN, and at which count of them the audited one comes. */
  private run = { left: 0, auditedAt: 0 }

  /** Protocol step 6e, when `wanted`: whether CUPTI can run here (if not, timing goes on, and the result says why). */
  constructor(session: DeviceSession, wanted: boolean) {
    const audit = wanted ? auditAvailable(session) : undefined
    this.cupti = typeof audit === 'object' ? audit : undefined
    this.description = audit === undefined ? 'off' : this.cupti ? 'batches at random' : (audit as string)
  }

  /**
   * Protocol step 8a: whether the next batch is audited (the first always, then one in each run of AUDIT_ONE_IN, at
   * random within the run); if so, CUPTI starts. Exactly one per run rather than each batch by a coin: the audits'
   * cost (their samples are dropped) is then the same in every run of a suite, where coins gave a 380 ms kernel one
   * audited call in one run and ten in another, and no stretch of more than 2·AUDIT_ONE_IN − 2 batches goes unaudited.
   */
  startBatch(): boolean {
    if (this.cupti === undefined) return false
    if (this.run.left === 0) this.run = { left: AUDIT_ONE_IN, auditedAt: randomInt(AUDIT_ONE_IN) }
    this.run.left--
    const audited = this.calls === 0 || this.run.left === this.run.auditedAt
    if (audited) {
      this.tracing = true
      this.cupti.start()
    }
    return audited
  }

  /** Protocol steps 8c–8h: runs `work`, the `role` part of draw `draw`'s iteration, tagged when the batch is audited. */
  tag(audited: boolean, draw: number, role: Exclude<AuditRole, 'after'>, work: () => void): void {
    this.tagIfAudited(audited, auditId(draw, role), work)
  }

  /**
   * Runs `work`, the harness's work for the whole batch (spin padding's hold on the stream, step 8a), tagged when the
   * batch is audited: untagged work outside every window reads as another host thread's.
   */
  tagBatch(audited: boolean, work: () => void): void {
    this.tagIfAudited(audited, BATCH_ID, work)
  }

  private tagIfAudited(audited: boolean, id: number, work: () => void): void {
    if (audited) tagged(this.cupti!, id, work)
    else work()
  }

  /**
   * Protocol step 8f, in an audited batch: a 4-byte memset after the window, a mark on CUPTI's timeline where the
   * timed stream stands.
   */
  mark(session: DeviceSession, draw: number): void {
    tagged(this.cupti!, auditId(draw, 'after'), () => cuda.memsetAsync(session.scratch(), 0, 4))
  }

  /**
   * Protocol step 9c: fails the case when any call of the audited batch left work outside its window (each call's
   * draw, and its window as the events measured it); CUPTI stops.
   */
  audit(calls: readonly WindowedCall[]): void {
    try {
      const { windowNs, hostNs } = auditBatch(this.cupti!, calls)
      this.host = { windowNs: this.host.windowNs + windowNs, hostNs: this.host.hostNs + hostNs }
    } finally {
      this.stop()
    }
    this.calls += calls.length
  }

  /** The share of the audited calls' windows that was the host's or the bus's; undefined before a call was audited. */
  hostShare(): number | undefined {
    return this.host.windowNs > 0 ? Math.min(1, this.host.hostNs / this.host.windowNs) : undefined
  }

  /**
   * CUPTI stops if it traces for the audit; protocol step 11: a batch that threw while audited (a refused call, a
   * failed check) left it on, and the next case would be timed under it.
   */
  stop(): void {
    if (!this.tracing) return
    this.tracing = false
    this.cupti!.stop()
  }
}

/** Whether CUPTI could run in each session's process: tried once, not at every place of every case. */
const availability = new WeakMap<DeviceSession, Cupti | string>()

/** CUPTI for the stream audit, or why it cannot run here. */
function auditAvailable(session: DeviceSession): Cupti | string {
  let known = availability.get(session)
  if (known === undefined) {
    try {
      const cupti = session.cupti()
      cupti.start()
      cupti.stop()
      known = cupti
    } catch (error) {
      known = `unavailable: ${(error as Error).message.split('\n')[0]}`
    }
    availability.set(session, known)
  }
  return known
}

/** An audited call: its draw, and its window as the events measured it (ms). */
export interface WindowedCall {
  draw: number
  windowMs: number
}

/**
 * Fails the case when any call of the batch left work outside its window. Every piece of work the harness queues in
 * an audited batch is tagged, so untagged work was launched by another host thread: the call whose window it ran in
 * owns it, and work in no window escaped the timer. Returns the calls' windows and the host's part of them: the
 * call's copies to or from the host or another GPU, and the gaps between its first and last work in which the GPU
 * waited for the host (a synchronization, the launch of its next kernel), which the events' window holds.
 */
function auditBatch(cupti: Cupti, windowed: readonly WindowedCall[]): { windowNs: number; hostNs: number } {
  const spans = readSpans(cupti, 'stream audit')
  const calls = windowed.map(({ draw, windowMs }) => ({
    work: spans.get(auditId(draw, 'work')),
    before: spans.get(auditId(draw, 'before')),
    after: spans.get(auditId(draw, 'after')),
    windowNs: BigInt(Math.round(windowMs * 1e6)),
  }))
  const { escaped, outlasted, worstUs, unjudged, strays } = auditCalls(calls, cupti.untagged())
  if (unjudged > 0) throw new Error(`stream audit: CUPTI did not record the work around ${unjudged} of ${calls.length} calls`)
  if (strays > 0) {
    throw new StrayWorkError(
      `${strays} pieces of GPU work launched from another host thread ran outside every timed window of a batch of ` +
        `${calls.length} timed calls (by up to ${worstUs.toFixed(1)} µs): solution() starts threads whose work CUDA ` +
        'events do not time. Have them launch on the default stream or a blocking stream and join them before ' +
        "returning; timing: 'cupti' times every thread's work.",
    )
  }
  if (escaped === 0) {
    const host = (w: GpuSpan) => Number(w.offDeviceCopyNs) + Number(w.endNs - w.startNs - w.busyNs)
    return {
      windowNs: calls.reduce((sum, call) => sum + Number(call.windowNs), 0),
      hostNs: calls.reduce((sum, call) => sum + (call.work ? host(call.work) : 0), 0),
    }
  }
  const streams = 'solution() uses a stream that the legacy default stream does not wait for (a non-blocking stream?)'
  // Work that only outlasted its window also fits CUDA events whose reading was changed (a patched timer).
  const cause = outlasted === escaped ? `${streams}, or the events' reading is not the GPU's (a timer changed in this process)` : streams
  throw new EscapedWorkError(
    `${escaped} of ${calls.length} timed calls in a batch left GPU work outside their timed window (by up to ` +
      `${worstUs.toFixed(1)} µs): ${cause}, so CUDA events would not time all of its work. Launch on the default ` +
      "stream or a blocking stream, or join your streams to it before returning; timing: 'cupti' times every stream.",
  )
}

/** Runs `fn` with its GPU work tagged `id` for CUPTI. */
export function tagged(cupti: Cupti, id: number, fn: () => void): void {
  cupti.push(id)
  try {
    fn()
  } finally {
    cupti.pop()
  }
}

/** CUPTI's spans since the last read, by tag; `what` names the reader in the error when records were lost. */
export function readSpans(cupti: Cupti, what: string): Map<number, GpuSpan> {
  cupti.flush()
  const lost = cupti.lostRecords()
  if (lost > 0) {
    throw new IncompleteRecordsError(
      `${what}: CUPTI lost ${lost} activity records, or gave them unfinished (work still running after the device was ` +
        'synchronized: launched meanwhile from a thread of the solution’s own), so spans may miss work; join your threads ' +
        "before solution() returns, or use fewer iterations per batch or timing 'events'",
    )
  }
  return new Map(cupti.read().map((span) => [span.id, span]))
}
