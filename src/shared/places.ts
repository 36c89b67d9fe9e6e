// Where a case's buffers sit in memory changes a memory-bound kernel's time by a few percent, fixed for as long as the
// buffers live (docs/protocol.md, "Places"). A spacer allocated in front of them moves them to another place.
import { randomInt } from 'node:crypto'
import { DTYPE_BYTES } from '../spec/dtype.js'
import type { CasePlan } from './messages.js'

/** Spacers are whole 2 MiB pages (the allocation granule of large buffers), up to this many. */
const SPACER_PAGES = 64
const SPACER_PAGE_BYTES = 2 * 2 ** 20

/**
 * A spacer's size, drawn afresh in every run. Not from the case's seed: the same places in every run would make
 * whatever those places cost a bias that every run repeats (an A/A bias kept its sign over five runs on an H100 when
 * the places were the case's), where fresh places make it noise from run to run.
 */
export function spacerBytes(): number {
  return randomInt(SPACER_PAGES) * SPACER_PAGE_BYTES
}

/** The range of a spacer's sizes (128 MiB): what a shared region holds beyond its buffers, for the offsets. */
export const SPACER_RANGE_BYTES = SPACER_PAGES * SPACER_PAGE_BYTES

/**
 * How the buffers a timed call touches (the inputs and the solution's outputs) lie in a region that both sides of a
 * paired case share: in argument order, each at a 2 MiB page as cudaMalloc puts large buffers; each one's offset by
 * its argument's index, and the bytes they take together. The host places them so (src/engine/host/buffers.ts,
 * allocate's `placedAt`), and the worker sizes the region by it.
 */
export function placedLayout(plan: CasePlan): { offsets: Map<number, number>; bytes: number } {
  const offsets = new Map<number, number>()
  let bytes = 0
  plan.args.forEach((arg, index) => {
    if (arg.kind !== 'input' && arg.kind !== 'output') return
    offsets.set(index, bytes)
    bytes += Math.ceil((arg.count * DTYPE_BYTES[arg.dtype]) / SPACER_PAGE_BYTES) * SPACER_PAGE_BYTES
  })
  return { offsets, bytes }
}

/** A case is timed at this many places at least, so that its median is not one place's. */
export const LEAST_PLACES = 4

/**
 * The longest a batch may aim at, for a case that must be timed for `leastMs` at least: half a place. Moves fall at
 * batch ends, and batches of 25 ms left a 50 ms case at two places, not four.
 */
export function placeBatchMs(leastMs: number): number {
  return leastMs / LEAST_PLACES / 2
}

/**
 * Whether to move the buffers now, after `placeMs` at the current place and `elapsedMs` of timing in all, for a case
 * that must be timed for `leastMs` at least, the batch just ended having taken `batchMs`. Each place lasts a
 * LEAST_PLACES-th of the least time, and later a LEAST_PLACES-th of the time so far, to the batch end nearest to it:
 * no place holds more than about a quarter of a long-timed case's samples, and a case timed for 200 times its least
 * time moves about twenty times, not once per batch.
 */
export function timeToMove(placeMs: number, elapsedMs: number, leastMs: number, batchMs: number): boolean {
  return placeMs + batchMs / 2 >= Math.max(leastMs, elapsedMs) / LEAST_PLACES
}
