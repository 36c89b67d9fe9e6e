// The records a timed result carries about its GPU, measured once per GPU and driver and kept in the cache directory
// (src/cache/): the ceilings ("practical peak") and the calibration (each timing mode's offset).
import { findCalibration } from '../cache/calibration-cache.js'
import { findCeilings } from '../cache/ceilings-cache.js'
import type { GpuPool } from '../engine/worker/gpu-pool.js'
import type { DeviceReport } from '../shared/messages.js'
import type { DeviceRecords } from '../shared/results.js'
import type { MeasureOptions } from '../spec/options.js'
import type { PluginSettings } from './plugin-settings.js'

/**
 * The GPU's ceilings and calibration: cached ones, or measured now where the plugin asks for them. Every GPU of the
 * pool is of one model: the first one's stand for all.
 */
export async function deviceRecords(pool: GpuPool, device: DeviceReport, settings: PluginSettings, options: MeasureOptions): Promise<DeviceRecords> {
  const { cacheDir, ceilings, calibration } = settings
  const measuredCeilings = await findCeilings({ cacheDir, device, measure: ceilings ? () => pool.firstHost().ceilings(options) : undefined })
  const measuredCalibration = await findCalibration({
    cacheDir,
    device,
    measure: calibration ? () => pool.firstHost().calibration(options.caseTimeoutMs) : undefined,
  })
  return {
    ...(measuredCeilings && { ceilings: measuredCeilings.record }),
    ...(measuredCalibration && { calibration: measuredCalibration.record }),
  }
}
