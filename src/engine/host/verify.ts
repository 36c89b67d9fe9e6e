// Checking one call of the solution: its inputs left as they were, then the reference computed on the same inputs
// (only after the solution has run, so no reference answer exists in memory while it runs), then every output
// compared element by element on the GPU, or, for a problem that decodes its outputs, both sides' decodings.
import * as cublas from '../../native/cublas.js'
import * as cuda from '../../native/cuda.js'
import { bytesOfBuffer, fillInputs, type Buffer, type CaseBuffers } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import type { CasePlan, VerifiedOutput } from '../../shared/messages.js'

export class WrongAnswer extends Error {
  constructor(
    message: string,
    readonly outputs: VerifiedOutput[],
  ) {
    super(message)
  }
}

/** A solution wrote to one of its inputs: inputs are read-only. */
export class InputWrittenError extends Error {
  override name = 'InputWritten'
}

export function runReference(session: DeviceSession, plan: CasePlan, buffers: CaseBuffers): void {
  const reference = plan.reference
  const args = buffers.referenceArgs
  if (reference.kind === 'none') throw new Error(`case '${plan.caseName}' has no reference to verify against`)
  if (reference.kind === 'library') {
    session.fn(reference.target)(...args)
    cuda.checkLastError('reference kernel launch')
  } else {
    const [a, b, c, m, n, k] = args as [bigint, bigint, bigint, number, number, number]
    cublas.gemmEx(reference.dtype as keyof typeof cublas.CUDA_DATA_TYPE, a, b, c, m, n, k)
  }
  cuda.synchronize()
}

/** Queues a digest of every input into its slot `slot` (0 or 1). */
export function digestInputs(session: DeviceSession, buffers: CaseBuffers, slot: 0 | 1): void {
  for (const input of buffers.inputs) session.harness.checksum(input.buffer.ptr, bytesOfBuffer(input.buffer), input.digests[slot])
}

/** The outputs a problem defines as starting at zero (ParamSpec `initial`); every other output starts as NaN. */
function zeroedOutputs(plan: CasePlan): Set<string> {
  return new Set(plan.args.flatMap((arg) => (arg.kind === 'output' && arg.initial === 'zero' ? [arg.name] : [])))
}

/**
 * Fills outputs with NaN so an element the solution never writes cannot pass as correct, or with zero where the
 * problem says the output starts at zero (an unwritten element then reads 0 where the reference is almost never 0).
 */
export function poisonOutputs(session: DeviceSession, plan: CasePlan, buffers: CaseBuffers): void {
  const zeroed = zeroedOutputs(plan)
  for (const { name, got } of buffers.outputs) {
    if (zeroed.has(name)) cuda.memsetAsync(got.ptr, 0, bytesOfBuffer(got))
    else session.harness.poison(got.ptr, got.count, got.dtype)
  }
}

/** What NaN in an output that started as NaN may mean: never written, or read before it was written. */
export const NAN_CAUSES =
  'never written, or read before written: outputs start as NaN, so a kernel that reads its output first, as ' +
  'C = α·A·B + β·C does even with β = 0, reads NaN; see docs/problems.md#output-initial-values'

/** What NaN in a decoded output may mean: NaN codes, which the bytes an output starts as may be. */
export const DECODED_NAN_CAUSES =
  'decoded from codes that are NaN, such as the bytes 0xFF every uint8 output starts as (never written), or from ' +
  'outputs that started as NaN; see docs/problems.md#outputs-judged-by-decoding'

/** Each bad output's (or decoded output's) line: how many elements are bad, the first of them, the largest error. */
export function describeBad(plan: CasePlan, outputs: VerifiedOutput[]): string[] {
  const zeroed = zeroedOutputs(plan)
  const nanCauses = (name: string) => (plan.decode ? DECODED_NAN_CAUSES : zeroed.has(name) ? 'the output started at zero' : NAN_CAUSES)
  const what = (name: string) => (plan.decode ? `${name} (decoded from ${decodedOutputNames(plan)})` : name)
  return outputs
    .filter((r) => r.comparison.badCount > 0)
    .map(({ name, elements, comparison: c }) => {
      return (
        `${what(name)}: ${c.badCount} of ${elements} elements out of tolerance (rtol ${plan.tolerance.rtol}, atol ${plan.tolerance.atol})` +
        (c.nanCount ? `, ${c.nanCount} NaN (${nanCauses(name)})` : '') +
        `; first bad index ${c.firstBad}: expected ${c.expectedAtFirstBad}, got ${c.gotAtFirstBad}; ` +
        // NaN has no distance: a NaN-only failure would otherwise read "max abs error 0".
        `max abs error ${c.maxAbsError}${c.nanCount ? ' (NaN excluded)' : ''}`
      )
    })
}

/**
 * Checks a call that ran on draw `draw`'s inputs, once the GPU is idle: its digests (slot 1, queued right after the
 * call) must match the inputs as drawn, and `which` outputs ('got', or the 'saved' copy of a timed call's) must
 * match the reference computed from those inputs. `when` names the call in messages.
 */
export function checkCall(
  session: DeviceSession,
  plan: CasePlan,
  buffers: CaseBuffers,
  draw: number,
  which: 'got' | 'saved',
  when: string,
): VerifiedOutput[] {
  fillInputs(session, plan, buffers, draw)
  digestInputs(session, buffers, 0)
  cuda.synchronize()
  for (const input of buffers.inputs) {
    const [drawn, afterCall] = [0, 1].map((slot) => cuda.readBytes(input.digests[slot as 0 | 1], 8).readBigUInt64LE())
    if (drawn !== afterCall) {
      throw new InputWrittenError(
        `solution() wrote to its input '${input.name}' (${when}, case '${plan.caseName}'): inputs are read-only, and a ` +
          'solution that changes them can carry work or answers from one call to the next. Write to a buffer of your own.',
      )
    }
  }
  runReference(session, plan, buffers)
  const compare = (got: Buffer, expected: Buffer) =>
    session.harness.compare(got.ptr, expected.ptr, got.count, got.dtype, plan.tolerance.rtol, plan.tolerance.atol)
  const results: VerifiedOutput[] = plan.decode
    ? [decodeBothSides(session, plan, buffers, which)].map(({ got, expected }) => ({ name: plan.decode!.name, elements: got.count, comparison: compare(got, expected) }))
    : buffers.outputs.map(({ name, expected, ...copies }) => ({ name, elements: copies[which].count, comparison: compare(copies[which], expected) }))
  const bad = describeBad(plan, results)
  if (bad.length > 0) throw new WrongAnswer(`wrong answer ${when} in case '${plan.caseName}':\n  ${bad.join('\n  ')}`, results)
  return results
}

const decodedOutputNames = (plan: CasePlan) => plan.args.flatMap((arg) => (arg.kind === 'output' ? [arg.name] : [])).join(', ')

/**
 * Decodes the solution's outputs (`which` copy) and the reference's, each into its own buffer, with the problem's
 * decode function (the inputs as the call had them), for checkCall to compare.
 */
function decodeBothSides(session: DeviceSession, plan: CasePlan, buffers: CaseBuffers, which: 'got' | 'saved'): { got: Buffer; expected: Buffer } {
  const decode = session.fn(plan.decode!.target)
  const decoded = buffers.decoded!
  decode(...(which === 'got' ? buffers.args : buffers.savedArgs), decoded.got.ptr)
  decode(...buffers.referenceArgs, decoded.expected.ptr)
  cuda.checkLastError('decode kernel launch')
  cuda.synchronize()
  return decoded
}

/** One whole verified call outside timing: new inputs, poisoned outputs, the call, then checkCall. */
export function verifyCall(
  session: DeviceSession,
  plan: CasePlan,
  buffers: CaseBuffers,
  call: () => void,
  draw: number,
  when: string,
): VerifiedOutput[] {
  fillInputs(session, plan, buffers, draw)
  poisonOutputs(session, plan, buffers)
  // A solution's own non-blocking streams do not wait for the legacy stream: the inputs must be there first.
  cuda.synchronize()
  call()
  digestInputs(session, buffers, 1)
  cuda.synchronize()
  session.checkState('solution()', `after the verified call ${when}`)
  return checkCall(session, plan, buffers, draw, 'got', when)
}
