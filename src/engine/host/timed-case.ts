// What every step of timing works with (docs/protocol.md, steps 6 to 11): the case's GPU session, plan, buffers and
// entry point, and the numbering of its draws of inputs.
import type { CasePlan } from '../../shared/messages.js'
import type { CaseBuffers } from './buffers.js'
import type { DeviceSession } from './device-session.js'

/** Calls the solution once on the case's buffers. */
export type SolutionCall = () => void

export interface TimedCase {
  session: DeviceSession
  plan: CasePlan
  buffers: CaseBuffers
  solution: SolutionCall
  /** Numbers the draws of inputs across the whole case, so no two calls see the same values. */
  nextDraw: () => number
}
