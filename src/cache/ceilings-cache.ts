// Measured ceilings are taken once per GPU and cached in the cache directory (gpu-cache.ts): only a run that asks for
// ceilings measures a GPU without them.
import type { MeasuredCeilings } from '../shared/messages.js'
import { findRecord, type FoundRecord, type RecordKind, type RecordLookup } from './gpu-cache.js'

const isPositive = (x: unknown) => typeof x === 'number' && x > 0

export const CEILINGS: RecordKind<MeasuredCeilings> = {
  name: 'ceilings',
  version: 1,
  problemWith(c) {
    if (!Array.isArray(c.gemm) || !c.gemm.every((g) => typeof g?.dtype === 'string' && isPositive(g.tflops) && isPositive(g.size))) {
      return "'gemm' is not a list of GEMM ceilings"
    }
    if (c.copy !== undefined && !(isPositive(c.copy?.gbPerSecond) && isPositive(c.copy?.bytes))) return "'copy' has no bandwidth"
    if (!Array.isArray(c.unavailable)) return "'unavailable' is missing"
    return undefined
  },
}

/** The ceilings of a GPU: cached, or measured when `measure` is given (see findRecord). */
export function findCeilings(lookup: RecordLookup<MeasuredCeilings>): Promise<FoundRecord<MeasuredCeilings> | undefined> {
  return findRecord(CEILINGS, lookup)
}
