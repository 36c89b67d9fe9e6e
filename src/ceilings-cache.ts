// Measured ceilings are taken once per GPU and kept as JSON in the cache directory, one file per GPU: its model,
// PCI slot and driver release (a new driver brings other cuBLAS kernels and clock behaviour). Later runs read the
// file; only a run that asks for ceilings measures a GPU without one (or again, with `force`).
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import type { CeilingsOutcome, DeviceReport, MeasuredCeilings } from './engine/messages.js'

/** '<cacheDir>/ceilings/NVIDIA_H200__00000000_19_00.0__580.95.05.json'. */
export function ceilingsFile(cacheDir: string, device: DeviceReport): string {
  // Without NVML there is no driver release: the CUDA version the driver supports stands in for it.
  const parts = [device.name, device.pciBusId, device.driverRelease ?? `cuda-${device.driverVersion}`]
  return path.join(cacheDir, 'ceilings', `${parts.map((p) => p.replace(/[^\w.-]+/g, '_')).join('__')}.json`)
}

const isPositive = (x: unknown) => typeof x === 'number' && x > 0

/** Why a parsed cache file cannot be used for `device`, or undefined when it can. */
function problemWith(value: unknown, device: DeviceReport): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object'
  const c = value as Partial<MeasuredCeilings>
  if (c.version !== 1) return `version ${String(c.version)}, expected 1`
  const gpu = c.gpu
  if (gpu?.name !== device.name || gpu.pciBusId !== device.pciBusId || gpu.driverRelease !== device.driverRelease) {
    return `measured on another GPU or driver (${gpu?.name} at ${gpu?.pciBusId}, driver ${gpu?.driverRelease})`
  }
  if (!Array.isArray(c.gemm) || !c.gemm.every((g) => typeof g?.dtype === 'string' && isPositive(g.tflops) && isPositive(g.size))) {
    return "'gemm' is not a list of GEMM ceilings"
  }
  if (c.copy !== undefined && !(isPositive(c.copy?.gbPerSecond) && isPositive(c.copy?.bytes))) return "'copy' has no bandwidth"
  if (!Array.isArray(c.unavailable) || typeof c.measuredAt !== 'string') return "'unavailable' or 'measuredAt' is missing"
  return undefined
}

/** The cached ceilings of `device`; undefined when there are none, or (with a warning) when the file is unusable. */
export function readCachedCeilings(file: string, device: DeviceReport, warn: (message: string) => void): MeasuredCeilings | undefined {
  let value: unknown
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    warn(`ignoring the cached ceilings in ${file}: ${(error as Error).message}`)
    return undefined
  }
  const problem = problemWith(value, device)
  if (problem) {
    warn(`ignoring the cached ceilings in ${file}: ${problem}`)
    return undefined
  }
  return value as MeasuredCeilings
}

export interface CeilingsLookup {
  cacheDir: string
  device: DeviceReport
  /** Measures the ceilings when none are cached; without it nothing is measured (the plugin's default). */
  measure?: () => Promise<CeilingsOutcome>
  /** Measure even when ceilings are cached (the CLI's --force). */
  force?: boolean
  warn?: (message: string) => void
}

export interface FoundCeilings {
  ceilings: MeasuredCeilings
  file: string
  source: 'cache' | 'measured'
}

const warnOnStderr = (message: string) => void process.stderr.write(`vitest-kernel-bench: ${message}\n`)

/**
 * The ceilings of a GPU: from its cache file, else measured (when `measure` is given) and cached. A measurement
 * that fails, or a cache that cannot be written, is a warning: ceilings only add columns to the report.
 */
export async function findCeilings({ cacheDir, device, measure, force = false, warn = warnOnStderr }: CeilingsLookup): Promise<FoundCeilings | undefined> {
  const file = ceilingsFile(cacheDir, device)
  const cached = force ? undefined : readCachedCeilings(file, device, warn)
  if (cached) return { ceilings: cached, file, source: 'cache' }
  if (!measure) return undefined
  const outcome = await measure()
  if (outcome.status === 'error') {
    warn(`could not measure the ceilings of ${device.name}: ${outcome.errorName}: ${outcome.message}`)
    return undefined
  }
  try {
    writeFileAtomic(file, `${JSON.stringify(outcome.ceilings, null, 2)}\n`)
  } catch (error) {
    warn(`could not cache the ceilings in ${file}: ${(error as Error).message}`)
  }
  return { ceilings: outcome.ceilings, file, source: 'measured' }
}
