// A case's memory: its input sets (rotated across timed iterations), its outputs and their reference buffers,
// its small integer arrays (such as a shape), with the argument lists built from them once.
import { DTYPE_BYTES, type Dtype } from '../dtype.js'
import * as cuda from '../native/cuda.js'
import type { DeviceSession } from './device-session.js'
import type { ArgPlan, CasePlan } from './protocol.js'

export interface Buffer {
  ptr: cuda.DevicePtr
  dtype: Dtype
  count: number
}

type InputPlan = Extract<ArgPlan, { kind: 'input' }>
type ArrayPlan = Extract<ArgPlan, { kind: 'array' }>

export interface CaseBuffers {
  /** The solution's argument list for each input set (pointers and scalars, in signature order). */
  argSets: unknown[][]
  /** Input set 0's list with each output replaced by its reference buffer. */
  referenceArgs: unknown[]
  outputs: Array<{ name: string; got: Buffer; expected: Buffer }>
  /** Every input parameter with its buffer in each set. */
  inputs: Array<{ index: number; plan: InputPlan; sets: Buffer[] }>
  /** Every allocation, released by freeAll. */
  device: cuda.DevicePtr[]
  pageLocked: bigint[]
}

export class OutOfMemoryError extends Error {
  override name = 'OutOfMemory'
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`
}

function bytesOf(plan: CasePlan, kind: 'input' | 'output'): number {
  return plan.args.reduce((sum, arg) => (arg.kind === kind ? sum + arg.count * DTYPE_BYTES[arg.dtype] : sum), 0)
}

/**
 * How many input sets fit: each output needs its own buffer and a reference buffer, each set a copy of the inputs.
 * Fewer sets than asked when memory is short; none at all is an out-of-memory error that names the case.
 */
export function inputSetsThatFit(plan: CasePlan, freeBytes: number, deviceName: string): number {
  const outputs = 2 * bytesOf(plan, 'output')
  const inputs = bytesOf(plan, 'input')
  const fit = inputs === 0 ? plan.options.inputSets : Math.floor((freeBytes - outputs) / inputs)
  if (fit < 1) {
    throw new OutOfMemoryError(
      `case '${plan.caseName}' needs ${gib(inputs + outputs)} of device memory (inputs, outputs and reference outputs) ` +
        `but ${deviceName} has ${gib(freeBytes)} free. Use a smaller shape or filter this case out.`,
    )
  }
  return Math.min(plan.options.inputSets, fit)
}

/** Set 0 keeps the seeds the case always had; other sets and later rounds get their own streams. */
function inputSeed(plan: CasePlan, argIndex: number, set: number, round: number): number {
  return plan.seed * 1009 + argIndex + set * 7_919 + round * 104_729
}

export function allocate(session: DeviceSession, plan: CasePlan): CaseBuffers {
  // Leave room for the flush buffer and padding matrices the session allocates later.
  const headroom = session.info.l2CacheBytes * plan.options.flushFactor + 64 * 2 ** 20
  const sets = inputSetsThatFit(plan, cuda.freeMemoryBytes() - headroom, session.info.name)
  const buffers: CaseBuffers = { argSets: [], referenceArgs: [], outputs: [], inputs: [], device: [], pageLocked: [] }
  const alloc = (dtype: Dtype, count: number): Buffer => {
    const ptr = cuda.malloc(count * DTYPE_BYTES[dtype])
    buffers.device.push(ptr)
    return { ptr, dtype, count }
  }
  try {
    const outputs = new Map<number, { got: Buffer; expected: Buffer }>()
    const arrays = new Map<number, bigint>()
    plan.args.forEach((arg, index) => {
      if (arg.kind === 'array') {
        arrays.set(index, allocateArray(arg, buffers))
      } else if (arg.kind === 'input') {
        buffers.inputs.push({ index, plan: arg, sets: Array.from({ length: sets }, () => alloc(arg.dtype, arg.count)) })
      } else if (arg.kind === 'output') {
        const pair = { got: alloc(arg.dtype, arg.count), expected: alloc(arg.dtype, arg.count) }
        outputs.set(index, pair)
        buffers.outputs.push({ name: arg.name, ...pair })
      }
    })
    const argList = (set: number, output: 'got' | 'expected') =>
      plan.args.map((arg, index) => {
        if (arg.kind === 'scalar') return arg.value
        if (arg.kind === 'array') return arrays.get(index)!
        if (arg.kind === 'output') return outputs.get(index)![output].ptr
        return buffers.inputs.find((input) => input.index === index)!.sets[set]!.ptr
      })
    buffers.argSets = Array.from({ length: sets }, (_, set) => argList(set, 'got'))
    buffers.referenceArgs = argList(0, 'expected')
    for (let set = 0; set < sets; set++) fillInputs(session, plan, buffers, set, 0)
  } catch (error) {
    freeAll(buffers)
    throw error
  }
  return buffers
}

/** Copies an array's values into device or page-locked host memory; the solution gets the same copy every call. */
function allocateArray(arg: ArrayPlan, buffers: CaseBuffers): bigint {
  const values =
    arg.ctype === 'size_t' ? new BigUint64Array(arg.values.map((v) => BigInt(v))) : Int32Array.from(arg.values)
  const bytes = Math.max(values.byteLength, 1)
  let ptr: bigint
  if (arg.memory === 'device') {
    ptr = cuda.malloc(bytes)
    buffers.device.push(ptr)
  } else {
    ptr = cuda.hostAlloc(bytes)
    buffers.pageLocked.push(ptr)
  }
  cuda.memcpy(ptr, new Uint8Array(values.buffer), values.byteLength)
  return ptr
}

/** Fills one input set from the case's seed; a later `round` draws different values into the same buffers. */
export function fillInputs(session: DeviceSession, plan: CasePlan, buffers: CaseBuffers, set: number, round: number): void {
  for (const { index, plan: input, sets } of buffers.inputs) {
    const buffer = sets[set]!
    session.harness.fillUniform(buffer.ptr, buffer.count, buffer.dtype, inputSeed(plan, index, set, round), input.range[0], input.range[1])
  }
}

export function freeAll(buffers: CaseBuffers): void {
  for (const ptr of buffers.device) cuda.free(ptr)
  for (const ptr of buffers.pageLocked) cuda.freeHost(ptr)
}
