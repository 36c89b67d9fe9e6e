// The calibration is taken once per GPU and cached in the cache directory (gpu-cache.ts), next to the ceilings: only
// the `calibrate` command, or a run that asks for it, measures a GPU without one.
import type { Calibration } from '../shared/messages.js'
import { findRecord, type FoundRecord, type RecordKind, type RecordLookup } from './gpu-cache.js'

const isNonNegative = (x: unknown) => typeof x === 'number' && x >= 0

export const CALIBRATION: RecordKind<Calibration> = {
  name: 'calibration',
  version: 1,
  problemWith(c) {
    const kernels = Array.isArray(c.kernels) ? c.kernels : []
    if (kernels.length === 0 || !kernels.every((k) => typeof k?.name === 'string')) return "'kernels' is not a list of named kernels"
    const names = new Set(kernels.map((k) => k.name))
    if (!Array.isArray(c.timers) || c.timers.length === 0) return "'timers' is missing"
    for (const t of c.timers) {
      if (typeof t?.timer !== 'string' || !Array.isArray(t.readings)) return "'timers' is not a list of timers with readings"
      const bad = t.readings.find((r) => !names.has(r?.kernel) || !isNonNegative(r.medianMs))
      if (bad !== undefined) return `timer '${t.timer}' has a reading of no known kernel or without a median`
    }
    if (!isNonNegative(c.globalTimerStepNs)) return "'globalTimerStepNs' is missing"
    return undefined
  },
}

/** The calibration of a GPU: cached, or measured when `measure` is given (see findRecord). */
export function findCalibration(lookup: RecordLookup<Calibration>): Promise<FoundRecord<Calibration> | undefined> {
  return findRecord(CALIBRATION, lookup)
}
