// Bindings to the CUPTI shim (cuda/cupti_shim.cpp), compiled by src/compile/cupti-shim.ts: for each id pushed
// around a solution() call, the span of GPU time from its first kernel, memcpy or memset start to its last one's
// end, on every stream, and the time within it that the GPU was busy with that work. Every call is checked: a
// failing CUptiResult becomes a CuptiError naming the call.
//
// Use: start(); for each iteration push(i), solution(...), pop(); then synchronize the device, flush(), read()
// and lostRecords(); stop() at the end. With keepLaunches(true) before push(i), launches(i) after flush() gives the
// name and launch configuration of every kernel the iteration launched, and its memsets and copies.
import koffi, { type LibraryHandle } from 'koffi'
import type { KernelLaunch } from '../shared/counters.js'
import { cString } from './cuda.js'

export type { KernelLaunch }

/** One piece of GPU work an iteration launched: a kernel with its launch configuration, a memset or a copy. */
export type GpuOperation = { kind: 'kernel'; launch: KernelLaunch } | { kind: 'memset' | 'memcpy' }

const OPERATION_KINDS = ['kernel', 'memset', 'memcpy'] as const

/** A CUPTI call failed; `resultName` is CUPTI's name for `code`, e.g. 'CUPTI_ERROR_NOT_INITIALIZED'. */
export class CuptiError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    readonly resultName: string,
  ) {
    super(`${call} failed: ${resultName}`)
    this.name = 'CuptiError'
  }
}

/**
 * A checker for the CUptiResult of a shim's entry points: a failure becomes a CuptiError named by CUPTI itself
 * (cuptiGetResultString, found through the shim in the libcupti it is linked with).
 */
export function cuptiChecker(shim: LibraryHandle): (status: number, call: string) => void {
  const resultString = shim.func('int cuptiGetResultString(int result, _Out_ const char **name)')
  return (status, call) => {
    if (status === 0) return
    const name: (string | null)[] = [null]
    const named = resultString(status, name) === 0 ? name[0] : null
    throw new CuptiError(call, status, named ?? 'unknown CUPTI result')
  }
}

/** The GPU work tagged with one pushed id: earliest start and latest end, in ns on CUPTI's GPU timestamp clock. */
export interface GpuSpan {
  id: number
  startNs: bigint
  endNs: bigint
  /** Time in the span when at least one piece of the work ran (overlaps counted once, idle gaps not at all). */
  busyNs: bigint
  /** The part of busyNs in copies to or from the host or another GPU: the bus's time as much as this GPU's. */
  offDeviceCopyNs: bigint
}

// Spans copied out per native call; read() repeats the call until fewer come back.
const READ_BATCH = 1024

export class Cupti {
  private readonly fns
  private readonly check

  constructor(libraryPath: string) {
    const lib = koffi.load(libraryPath)
    this.check = cuptiChecker(lib)
    this.fns = {
      start: lib.func('int kb_cupti_start(void)'),
      push: lib.func('int kb_cupti_push(uint64_t id)'),
      pop: lib.func('int kb_cupti_pop(void)'),
      flush: lib.func('int kb_cupti_flush(void)'),
      read: lib.func('int kb_cupti_read(uint64_t *ids, uint64_t *starts, uint64_t *ends, uint64_t *busy, uint64_t *offDeviceCopy, size_t capacity, _Out_ size_t *count)'),
      lost: lib.func('int kb_cupti_lost(_Out_ uint64_t *lost)'),
      stop: lib.func('int kb_cupti_stop(void)'),
      timestamp: lib.func('int kb_cupti_timestamp(_Out_ uint64_t *ns)'),
      window: lib.func('int kb_cupti_window(uint64_t id, uint64_t start, uint64_t end)'),
      untagged: lib.func('int kb_cupti_untagged(uint64_t *starts, uint64_t *ends, size_t capacity, _Out_ size_t *count)'),
      keepLaunches: lib.func('int kb_cupti_keep_launches(int keep)'),
      claim: lib.func('int kb_cupti_claim(_Out_ uint8_t *owner, size_t ownerSize)'),
      release: lib.func('int kb_cupti_release(void)'),
      probe: lib.func('int kb_cupti_probe(_Out_ int *free, _Out_ uint8_t *owner, size_t ownerSize)'),
      launches: lib.func('int kb_cupti_launches(uint64_t id, _Out_ size_t *count)'),
      launch: lib.func('int kb_cupti_launch(size_t index, _Out_ int32_t *kind, _Out_ int32_t *config, _Out_ const char **name)'),
    }
  }

  /** Starts recording GPU work and its correlation, forgetting anything recorded before. */
  start(): void {
    this.check(this.fns.start(), 'kb_cupti_start')
  }

  /** Tags the GPU work of every CUDA call this thread makes until pop() with `id` (a safe integer). */
  push(id: number): void {
    this.check(this.fns.push(BigInt(id)), `kb_cupti_push(${id})`)
  }

  pop(): void {
    this.check(this.fns.pop(), 'kb_cupti_pop')
  }

  /** CUPTI's clock now (ns), the clock of the spans' timestamps. */
  timestamp(): bigint {
    const ns = [0n]
    this.check(this.fns.timestamp(ns), 'kb_cupti_timestamp')
    return BigInt(ns[0]!)
  }

  /**
   * Marks [startNs, endNs] as the window of pushed `id`: work that ran in it without a tag (launched by another host
   * thread) joins the span of `id` at the next read.
   */
  window(id: number, startNs: bigint, endNs: bigint): void {
    this.check(this.fns.window(BigInt(id), startNs, endNs), `kb_cupti_window(${id})`)
  }

  /** Hands CUPTI's records to the shim. Synchronize the device first, or work still running comes back incomplete. */
  flush(): void {
    this.check(this.fns.flush(), 'kb_cupti_flush')
  }

  /** The spans of every id pushed since the last read, in increasing id order. Call after flush(). */
  read(): GpuSpan[] {
    const ids = new BigUint64Array(READ_BATCH)
    const starts = new BigUint64Array(READ_BATCH)
    const ends = new BigUint64Array(READ_BATCH)
    const busy = new BigUint64Array(READ_BATCH)
    const offDeviceCopy = new BigUint64Array(READ_BATCH)
    return this.drain(
      (count) => this.fns.read(ids, starts, ends, busy, offDeviceCopy, READ_BATCH, count),
      'kb_cupti_read',
      (i) => ({ id: Number(ids[i]), startNs: starts[i]!, endNs: ends[i]!, busyNs: busy[i]!, offDeviceCopyNs: offDeviceCopy[i]! }),
    )
  }

  /**
   * The intervals of untagged work (launched by another host thread, or by nothing tagged) that the last read() gave
   * to no window, in ns on CUPTI's clock. Call after read().
   */
  untagged(): { startNs: bigint; endNs: bigint }[] {
    const starts = new BigUint64Array(READ_BATCH)
    const ends = new BigUint64Array(READ_BATCH)
    return this.drain((count) => this.fns.untagged(starts, ends, READ_BATCH, count), 'kb_cupti_untagged', (i) => ({ startNs: starts[i]!, endNs: ends[i]! }))
  }

  /**
   * Calls `fill`, an entry point that writes up to READ_BATCH rows and their count, until fewer come back; each row
   * written, as `row` reads it from the arrays `fill` filled.
   */
  private drain<T>(fill: (count: number[]) => number, what: string, row: (i: number) => T): T[] {
    const rows: T[] = []
    for (;;) {
      const count = [0]
      this.check(fill(count), what)
      const n = Number(count[0])
      for (let i = 0; i < n; i++) rows.push(row(i))
      if (n < READ_BATCH) return rows
    }
  }

  /**
   * Records lost since the last call (no buffer space, or no timestamps). Non-zero means a span read in the same
   * window may be missing work and should be discarded.
   */
  lostRecords(): number {
    const lost = [0n]
    this.check(this.fns.lost(lost), 'kb_cupti_lost')
    return Number(lost[0])
  }

  /** Keeps (or stops keeping) every kernel, memset and copy launched from now on, for launches(). */
  keepLaunches(keep: boolean): void {
    this.check(this.fns.keepLaunches(keep ? 1 : 0), 'kb_cupti_keep_launches')
  }

  /** What was launched under pushed `id` while launches were kept, in the order it ran. Call after flush(). */
  launches(id: number): GpuOperation[] {
    const count = [0]
    this.check(this.fns.launches(BigInt(id), count), `kb_cupti_launches(${id})`)
    return Array.from({ length: Number(count[0]) }, (_, index): GpuOperation => {
      const kind = [0]
      const c = new Int32Array(9)
      const name: (string | null)[] = [null]
      this.check(this.fns.launch(index, kind, c, name), `kb_cupti_launch(${index})`)
      const operation = OPERATION_KINDS[kind[0]!]
      if (operation === 'memset' || operation === 'memcpy') return { kind: operation }
      const launch: KernelLaunch = {
        name: name[0] ?? '',
        grid: [c[0]!, c[1]!, c[2]!],
        block: [c[3]!, c[4]!, c[5]!],
        registersPerThread: c[6]!,
        staticSharedBytes: c[7]!,
        dynamicSharedBytes: c[8]!,
      }
      return { kind: 'kernel', launch }
    })
  }

  /** Stops recording and flushes what is left (still readable with read()). */
  stop(): void {
    this.check(this.fns.stop(), 'kb_cupti_stop')
  }

  /**
   * Takes CUPTI's one callback subscriber for the harness: undefined when it holds it, else the name CUPTI gives the
   * subscriber that holds it instead.
   */
  claim(): string | undefined {
    const owner = Buffer.alloc(SUBSCRIBER_NAME_BYTES)
    const status = this.fns.claim(owner, owner.length)
    if (status === CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) return subscriberName(owner)
    this.check(status, 'kb_cupti_claim')
    return undefined
  }

  release(): void {
    this.check(this.fns.release(), 'kb_cupti_release')
  }

  /** Who holds CUPTI's callback subscriber: its name, or undefined when nobody does. */
  subscriber(): string | undefined {
    const free = [0]
    const owner = Buffer.alloc(SUBSCRIBER_NAME_BYTES)
    this.check(this.fns.probe(free, owner, owner.length), 'kb_cupti_probe')
    return free[0] ? undefined : subscriberName(owner)
  }
}

const CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED = 39
// CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN is 64; room to spare.
const SUBSCRIBER_NAME_BYTES = 256

const subscriberName = (owner: Buffer): string => cString(owner) || 'an unnamed CUPTI client'
