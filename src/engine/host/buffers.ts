// A case's memory: its inputs (refilled with new values before every call), each output with its reference
// buffer and a buffer that keeps a checked call's answer, digest slots for the inputs, and small integer arrays
// (such as a shape), with the argument lists built from them once.
import { createHash, randomBytes } from 'node:crypto'
import { DTYPE_BYTES, type Dtype } from '../../spec/dtype.js'
import * as cuda from '../../native/cuda.js'
import type { DeviceSession } from './device-session.js'
import type { ArgPlan, CasePlan, PlanInteger } from '../../shared/messages.js'
import { placedLayout } from '../../shared/places.js'

export interface Buffer {
  ptr: cuda.DevicePtr
  dtype: Dtype
  count: number
}

export const bytesOfBuffer = (buffer: Buffer): number => buffer.count * DTYPE_BYTES[buffer.dtype]

type InputPlan = Extract<ArgPlan, { kind: 'input' }>
type ArrayPlan = Extract<ArgPlan, { kind: 'array' }>

export interface CaseBuffers {
  /** The solution's argument list (pointers and scalars, in signature order). */
  args: unknown[]
  /** The same list with each output replaced by its reference buffer, and by its checked copy. */
  referenceArgs: unknown[]
  savedArgs: unknown[]
  /** `got` is what the solution writes, `expected` the reference's answer, `saved` a checked call's copy of `got`. */
  outputs: Array<{ name: string; got: Buffer; expected: Buffer; saved: Buffer }>
  /** Where the solution's and the reference's outputs are decoded to, for a case compared by decoding (DecodePlan). */
  decoded?: { got: Buffer; expected: Buffer }
  /** Every input parameter, with two 8-byte device slots for digests of its contents. */
  inputs: Array<{ index: number; name: string; plan: InputPlan; buffer: Buffer; digests: [cuda.DevicePtr, cuda.DevicePtr] }>
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
 * Device memory a case needs: its inputs, three buffers per output (the solution's, the reference's, a checked copy)
 * and, where outputs are compared by decoding, two decoded buffers (each side's).
 */
export function caseBytes(plan: CasePlan): number {
  const decoded = plan.decode ? 2 * plan.decode.count * DTYPE_BYTES[plan.decode.dtype] : 0
  return bytesOf(plan, 'input') + 3 * bytesOf(plan, 'output') + decoded
}

/** Refuses a case that cannot fit, naming it, before anything is allocated. */
export function checkFits(plan: CasePlan, freeBytes: number, deviceName: string, placed = false): void {
  // Placed buffers (allocate's `placedAt`) lie in memory allocated already.
  const needed = caseBytes(plan) - (placed ? bytesOf(plan, 'input') + bytesOf(plan, 'output') : 0)
  if (needed > freeBytes) {
    throw new OutOfMemoryError(
      `case '${plan.caseName}' needs ${gib(needed)} of device memory (inputs, outputs, reference outputs and a checked ` +
        `copy of the outputs${plan.decode ? ", and both sides' decoded outputs" : ''}) but ${deviceName} has ${gib(freeBytes)} free. Use a smaller shape or filter this case out.`,
    )
  }
}

/**
 * A secret of this host process, drawn when it starts: the seeds of every draw after the first come from it, so that no
 * solution can compute the inputs of the calls to come from the case's name and a call count.
 */
const DRAW_SECRET = randomBytes(32)

/**
 * Every draw of inputs gets its own seed. Draw 0, the first verified call, has the case's own seed, the same in every
 * run, so a wrong answer there can be reproduced; every later draw's seed is a one-way hash of `secret` with the
 * case's seed, the argument and the draw, so that seeing one draw's values tells nothing of the next. 52 bits: exact
 * as a JavaScript number.
 */
export function inputSeed(plan: CasePlan, argIndex: number, draw: number, secret: Uint8Array = DRAW_SECRET): number {
  const seed = plan.seed * 1009 + argIndex + draw * 104_729
  if (draw === 0) return seed
  const digest = createHash('sha256').update(secret).update(`${seed}:${argIndex}:${draw}`).digest()
  return digest.readUIntLE(0, 6) * 16 + (digest[6]! & 0xf)
}

/**
 * The case's buffers. With `placedAt`, the inputs and the solution's outputs lie from there as placedLayout() in
 * src/shared/places.ts lays them out, in memory that the caller owns and this never frees: a region that both sides of
 * a paired case open at the same offset, so that where the buffers sit is the same for both (docs/ci-gate.md, "Shared
 * places"). Everything else (reference outputs, checked copies, digests, arrays) is this process's own.
 */
export function allocate(session: DeviceSession, plan: CasePlan, placedAt?: cuda.DevicePtr): CaseBuffers {
  // Leave room for the flush buffer and padding matrices the session allocates later.
  const paddingBytes = 3 * plan.options.paddingSize ** 2 * 4
  const headroom = session.info.l2CacheBytes * plan.options.flushFactor + paddingBytes + 16 * 2 ** 20
  checkFits(plan, cuda.freeMemoryBytes() - headroom, session.info.name, placedAt !== undefined)
  const buffers: CaseBuffers = { args: [], referenceArgs: [], savedArgs: [], outputs: [], inputs: [], device: [], pageLocked: [] }
  const alloc = (dtype: Dtype, count: number): Buffer => {
    const ptr = cuda.malloc(count * DTYPE_BYTES[dtype])
    buffers.device.push(ptr)
    return { ptr, dtype, count }
  }
  const shared = placedAt === undefined ? undefined : { at: placedAt, offsets: placedLayout(plan).offsets }
  /** The buffer of argument `index`, which a timed call touches: at its offset in the shared region, or its own. */
  const place = (index: number, dtype: Dtype, count: number): Buffer =>
    shared ? { ptr: shared.at + BigInt(shared.offsets.get(index)!), dtype, count } : alloc(dtype, count)
  try {
    const outputs = new Map<number, { got: Buffer; expected: Buffer; saved: Buffer }>()
    const arrays = new Map<number, bigint>()
    const inputs = new Map<number, Buffer>()
    plan.args.forEach((arg, index) => {
      if (arg.kind === 'array') {
        arrays.set(index, allocateArray(arg, buffers))
      } else if (arg.kind === 'input') {
        const buffer = place(index, arg.dtype, arg.count)
        inputs.set(index, buffer)
        const digests = alloc('float64', 2).ptr
        buffers.inputs.push({ index, name: arg.name, plan: arg, buffer, digests: [digests, digests + 8n] })
      } else if (arg.kind === 'output') {
        const triple = { got: place(index, arg.dtype, arg.count), expected: alloc(arg.dtype, arg.count), saved: alloc(arg.dtype, arg.count) }
        outputs.set(index, triple)
        buffers.outputs.push({ name: arg.name, ...triple })
      }
    })
    if (plan.decode) buffers.decoded = { got: alloc(plan.decode.dtype, plan.decode.count), expected: alloc(plan.decode.dtype, plan.decode.count) }
    const argList = (output: 'got' | 'expected' | 'saved') =>
      plan.args.map((arg, index) => {
        if (arg.kind === 'scalar') return scalarArgument(arg.value)
        if (arg.kind === 'array') return arrays.get(index)!
        if (arg.kind === 'output') return outputs.get(index)![output].ptr
        return inputs.get(index)!.ptr
      })
    buffers.args = argList('got')
    buffers.referenceArgs = argList('expected')
    buffers.savedArgs = argList('saved')
  } catch (error) {
    freeAll(buffers)
    throw error
  }
  return buffers
}

/** A scalar as koffi is given it: a number, or a bigint for a uint64_t sent as digits (koffi passes it exactly). */
export function scalarArgument(value: PlanInteger): number | bigint {
  return typeof value === 'string' ? BigInt(value) : value
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

/** Queues a fill of every input with draw `draw`'s values (a function of the case's seed, the draw and this process's secret). */
export function fillInputs(session: DeviceSession, plan: CasePlan, buffers: CaseBuffers, draw: number): void {
  for (const { index, plan: input, buffer } of buffers.inputs) {
    const seed = inputSeed(plan, index, draw)
    const [lo, hi] = input.range
    // uint64 elements are drawn as integers, exactly: a double in between would lose the low bits beyond 2^53.
    if (buffer.dtype === 'uint64') session.harness.fillUniformUint64(buffer.ptr, buffer.count, seed, BigInt(lo), BigInt(hi))
    else session.harness.fillUniform(buffer.ptr, buffer.count, buffer.dtype, seed, Number(lo), Number(hi))
    if (input.square) session.harness.structureSquare(buffer.ptr, input.square.side, buffer.dtype, input.square.structure)
  }
}

export function freeAll(buffers: CaseBuffers): void {
  for (const ptr of buffers.device) cuda.free(ptr)
  for (const ptr of buffers.pageLocked) cuda.freeHost(ptr)
}
