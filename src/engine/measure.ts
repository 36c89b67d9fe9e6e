// One case, start to finish, inside the device host: allocate and fill inputs, compute the reference, verify
// the solution on poisoned outputs, then time it under the protocol of DESIGN.md §3 and verify it again.
import { DTYPE_BYTES, type Dtype } from '../dtype.js'
import * as cuda from '../native/cuda.js'
import * as cublas from '../native/cublas.js'
import { CudaError } from '../native/errors.js'
import type { MeasureOptions } from '../options.js'
import { dropThrottled, type ClockedSample } from './clock-filter.js'
import type { DeviceSession } from './device-session.js'
import type { CaseOutcome, CasePlan, TimingResult, VerifiedOutput } from './protocol.js'
import { stopReason } from './stopping.js'

/** A batch of timed iterations aims at this much wall time between synchronizations. */
const BATCH_TARGET_MS = 25
const MAX_BATCH = 64

interface Buffer {
  ptr: cuda.DevicePtr
  dtype: Dtype
  count: number
}

interface CaseBuffers {
  /** The argument list for the solution (device pointers and scalars, in signature order). */
  args: unknown[]
  /** The same list with each output replaced by its reference buffer. */
  referenceArgs: unknown[]
  outputs: Array<{ name: string; got: Buffer; expected: Buffer }>
  all: cuda.DevicePtr[]
}

export class WrongAnswer extends Error {
  constructor(
    message: string,
    readonly outputs: VerifiedOutput[],
  ) {
    super(message)
  }
}

function requiredBytes(plan: CasePlan): number {
  let bytes = 0
  for (const arg of plan.args) {
    if (arg.kind === 'input') bytes += arg.count * DTYPE_BYTES[arg.dtype]
    // An output needs its own buffer and a reference buffer.
    if (arg.kind === 'output') bytes += 2 * arg.count * DTYPE_BYTES[arg.dtype]
  }
  return bytes
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`
}

function allocate(session: DeviceSession, plan: CasePlan): CaseBuffers {
  const needed = requiredBytes(plan)
  const free = cuda.freeMemoryBytes()
  if (needed > free) {
    throw new Error(
      `out of memory: case '${plan.caseName}' needs ${gib(needed)} of device memory (inputs, outputs and reference outputs) ` +
        `but ${session.info.name} has ${gib(free)} free. Use a smaller shape or filter this case out.`,
    )
  }
  const buffers: CaseBuffers = { args: [], referenceArgs: [], outputs: [], all: [] }
  const alloc = (dtype: Dtype, count: number): Buffer => {
    const ptr = cuda.malloc(count * DTYPE_BYTES[dtype])
    buffers.all.push(ptr)
    return { ptr, dtype, count }
  }
  try {
    plan.args.forEach((arg, index) => {
      if (arg.kind === 'scalar') {
        buffers.args.push(arg.value)
        buffers.referenceArgs.push(arg.value)
      } else if (arg.kind === 'input') {
        const input = alloc(arg.dtype, arg.count)
        // Each input gets its own stream of the case's seed, so inputs differ from each other.
        session.harness.fillUniform(input.ptr, arg.count, arg.dtype, plan.seed * 1009 + index, arg.range[0], arg.range[1])
        buffers.args.push(input.ptr)
        buffers.referenceArgs.push(input.ptr)
      } else {
        const got = alloc(arg.dtype, arg.count)
        const expected = alloc(arg.dtype, arg.count)
        buffers.args.push(got.ptr)
        buffers.referenceArgs.push(expected.ptr)
        buffers.outputs.push({ name: arg.name, got, expected })
      }
    })
  } catch (error) {
    freeAll(buffers.all)
    throw error
  }
  return buffers
}

function freeAll(pointers: cuda.DevicePtr[]): void {
  for (const ptr of pointers) cuda.free(ptr)
}

function runReference(session: DeviceSession, plan: CasePlan, args: unknown[]): void {
  const reference = plan.reference
  if (reference.kind === 'library') {
    session.fn(reference.target)(...args)
    cuda.checkLastError('reference kernel launch')
  } else {
    const [a, b, c, m, n, k] = args as [bigint, bigint, bigint, number, number, number]
    cublas.gemmEx(reference.dtype as keyof typeof cublas.CUDA_DATA_TYPE, a, b, c, m, n, k)
  }
  cuda.synchronize()
}

/** Poisons every output with NaN, runs the solution once and compares each output with the reference. */
function verify(
  session: DeviceSession,
  plan: CasePlan,
  buffers: CaseBuffers,
  call: () => void,
  when: string,
): VerifiedOutput[] {
  for (const { got } of buffers.outputs) session.harness.poison(got.ptr, got.count, got.dtype)
  call()
  cuda.synchronize()
  const results: VerifiedOutput[] = buffers.outputs.map(({ name, got, expected }) => ({
    name,
    elements: got.count,
    comparison: session.harness.compare(got.ptr, expected.ptr, got.count, got.dtype, plan.tolerance.rtol, plan.tolerance.atol),
  }))
  const bad = results.filter((r) => r.comparison.badCount > 0)
  if (bad.length > 0) {
    const lines = bad.map(({ name, elements, comparison: c }) => {
      return (
        `${name}: ${c.badCount} of ${elements} elements out of tolerance (rtol ${plan.tolerance.rtol}, atol ${plan.tolerance.atol})` +
        (c.nanCount ? `, ${c.nanCount} NaN (never written?)` : '') +
        `; first bad index ${c.firstBad}: expected ${c.expectedAtFirstBad}, got ${c.gotAtFirstBad}; max abs error ${c.maxAbsError}`
      )
    })
    throw new WrongAnswer(`wrong answer ${when} in case '${plan.caseName}':\n  ${lines.join('\n  ')}`, results)
  }
  return results
}

/** The timing loop (DESIGN §3.3–3.5): padding, flush, event, solution, event; batches; stopping rule; clocks. */
function time(session: DeviceSession, call: () => void, options: MeasureOptions): TimingResult {
  const clocked: ClockedSample[] = []
  const start = performance.now()
  let batch = Math.min(options.minIterations, MAX_BATCH)
  for (;;) {
    const events = session.eventPairs(batch)
    const batchStart = performance.now()
    if (options.padding === 'spin') session.block()
    for (const [begin, end] of events) {
      session.pad(options)
      session.flushL2(options)
      cuda.eventRecord(begin)
      call()
      cuda.eventRecord(end)
    }
    if (options.padding === 'spin') session.release()
    // Read while the batch runs: the clock the samples are taken at.
    const clock = session.smClockMHz()
    cuda.synchronize()
    for (const [begin, end] of events) clocked.push({ ms: cuda.eventElapsedMs(begin, end), smClockMHz: clock })
    const filtered = dropThrottled(clocked, session.maxSmClockMHz, options.throttleFraction)
    const elapsed = performance.now() - start
    const reason = stopReason(filtered.kept, elapsed, options)
    if (reason) {
      return {
        samplesMs: filtered.kept,
        droppedThrottled: filtered.dropped,
        meanSmClockMHz: filtered.meanClockMHz,
        maxSmClockMHz: session.maxSmClockMHz,
        stopReason: reason,
        wallMs: elapsed,
      }
    }
    const perIterationMs = (performance.now() - batchStart) / batch
    const remaining = Math.max(1, options.maxIterations - filtered.kept.length)
    batch = Math.max(1, Math.min(MAX_BATCH, remaining, Math.round(BATCH_TARGET_MS / perIterationMs)))
  }
}

/** Errors that mean the CUDA context is gone: the device host must be replaced after reporting them. */
export function contextLost(error: unknown): boolean {
  return error instanceof CudaError && error.isSticky
}

export function runCase(session: DeviceSession, plan: CasePlan): CaseOutcome {
  const buffers = allocate(session, plan)
  try {
    const solution = session.fn(plan.solution)
    const call = () => {
      solution(...buffers.args)
    }
    const options = plan.options
    if (plan.mode === 'bench') session.globalWarmup(options)
    let outputs: VerifiedOutput[] = []
    if (!options.skipVerification) {
      runReference(session, plan, buffers.referenceArgs)
      outputs = verify(session, plan, buffers, call, 'before timing')
    }
    if (plan.mode === 'verify') return { status: 'ok', outputs, verificationSkipped: options.skipVerification }
    for (let i = 0; i < options.warmupRuns; i++) call()
    cuda.synchronize()
    const timing = time(session, call, options)
    // The timed runs must still compute the answer (no replay of a cached result).
    if (!options.skipVerification) outputs = verify(session, plan, buffers, call, 'after timing')
    return { status: 'ok', outputs, timing, verificationSkipped: options.skipVerification }
  } catch (error) {
    if (error instanceof WrongAnswer) return { status: 'wrong', message: error.message, outputs: error.outputs }
    throw error
  } finally {
    try {
      freeAll(buffers.all)
    } catch {
      // Only a lost context makes cudaFree fail; the error that lost it is already on its way to the worker.
    }
  }
}
