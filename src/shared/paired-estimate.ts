// What a paired A/B case's rounds say of the change (docs/ci-gate.md, "Paired A/B"): the estimate of its undisturbed
// blocks, widened by what the processes differ by. The verdict (src/baseline/paired-verdict.ts) and the engine's
// stopping rule (src/engine/worker/paired-case.ts) read this one estimate, so a case stops on the verdict it is given.
import { leaveOutDisturbed, type DisturbedRounds } from './disturbed-rounds.js'
import { compareBlocks, processSpreadAt, type BlocksEstimate } from './median-change.js'

export interface PairedEstimate {
  /** The blocks judged and those a disturbance touched. */
  split: DisturbedRounds
  /** What two processes differ by for this kernel (a standard deviation of the log ratio). */
  processSd: number
  estimate: BlocksEstimate
}

/**
 * The change read off `rounds` (each round's median on each side, its block, and the pairs of processes the blocks
 * rotated over: one where absent), at `confidence`, with `processSpread` (the compare option, for a 1 µs kernel).
 */
export function pairedEstimate(
  rounds: { base: readonly number[]; head: readonly number[]; block: readonly number[]; pairs?: number },
  confidence: number,
  processSpread: number,
): PairedEstimate {
  const split = leaveOutDisturbed(rounds)
  const processSd = processSpreadAt(processSpread, rounds.base)
  const { clean } = split
  return { split, processSd, estimate: compareBlocks(clean.base, clean.head, clean.block, confidence, processSd, rounds.pairs ?? 1) }
}
