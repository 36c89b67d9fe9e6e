// Records measured once per GPU and kept as JSON in the cache directory, one file per GPU in a folder per kind of
// record: the GPU's model, PCI slot and driver release name the file (a new driver brings other kernels and clock
// behaviour). Later runs read the file; only a run that asks for the record measures a GPU without one (or again,
// with `force`). The measured ceilings (ceilings-cache.ts) and the calibration (calibration-cache.ts) are kept so.
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import type { DeviceReport, GpuRecord, RecordOutcome } from '../shared/messages.js'

/** A kind of record cached per GPU. */
export interface RecordKind<T extends GpuRecord> {
  /** The folder in the cache directory, and the record's name in messages: 'ceilings'. */
  name: string
  version: T['version']
  /** Why a parsed object of the right version and GPU is not such a record, or undefined when it is. */
  problemWith(record: Partial<T>): string | undefined
}

/** '<cacheDir>/<kind>/NVIDIA_H200__00000000_19_00.0__580.95.05.json'. */
export function recordFile(cacheDir: string, kind: RecordKind<GpuRecord>, device: DeviceReport): string {
  // Without NVML there is no driver release: the CUDA version the driver supports stands in for it.
  const parts = [device.name, device.pciBusId, device.driverRelease ?? `cuda-${device.driverVersion}`]
  return path.join(cacheDir, kind.name, `${parts.map((p) => p.replace(/[^\w.-]+/g, '_')).join('__')}.json`)
}

/** Why a parsed cache file cannot be used for `device`, or undefined when it can. */
function problemWith<T extends GpuRecord>(value: unknown, kind: RecordKind<T>, device: DeviceReport): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object'
  const record = value as Partial<T>
  if (record.version !== kind.version) return `version ${String(record.version)}, expected ${kind.version}`
  const gpu = record.gpu
  if (gpu?.name !== device.name || gpu.pciBusId !== device.pciBusId || gpu.driverRelease !== device.driverRelease) {
    return `measured on another GPU or driver (${gpu?.name} at ${gpu?.pciBusId}, driver ${gpu?.driverRelease})`
  }
  if (typeof record.measuredAt !== 'string') return "'measuredAt' is missing"
  return kind.problemWith(record)
}

/** The cached record of `device`; undefined when there is none, or (with a warning) when the file is unusable. */
export function readCachedRecord<T extends GpuRecord>(kind: RecordKind<T>, file: string, device: DeviceReport, warn: (message: string) => void): T | undefined {
  let value: unknown
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    warn(`ignoring the cached ${kind.name} in ${file}: ${(error as Error).message}`)
    return undefined
  }
  const problem = problemWith(value, kind, device)
  if (problem) {
    warn(`ignoring the cached ${kind.name} in ${file}: ${problem}`)
    return undefined
  }
  return value as T
}

export interface RecordLookup<T extends GpuRecord> {
  cacheDir: string
  device: DeviceReport
  /** Measures the record when none is cached; without it nothing is measured (the plugin's default). */
  measure?: () => Promise<RecordOutcome<T>>
  /** Measure even when a record is cached (the CLI's --force). */
  force?: boolean
  warn?: (message: string) => void
}

export interface FoundRecord<T extends GpuRecord> {
  record: T
  file: string
  source: 'cache' | 'measured'
}

const warnOnStderr = (message: string) => void process.stderr.write(`vitest-kernel-bench: ${message}\n`)

/**
 * The record of a GPU: from its cache file, else measured (when `measure` is given) and cached. A measurement that
 * fails, or a cache that cannot be written, is a warning: these records only add to the report.
 */
export async function findRecord<T extends GpuRecord>(
  kind: RecordKind<T>,
  { cacheDir, device, measure, force = false, warn = warnOnStderr }: RecordLookup<T>,
): Promise<FoundRecord<T> | undefined> {
  const file = recordFile(cacheDir, kind, device)
  const cached = force ? undefined : readCachedRecord(kind, file, device, warn)
  if (cached) return { record: cached, file, source: 'cache' }
  if (!measure) return undefined
  const outcome = await measure()
  if (outcome.status === 'error') {
    warn(`could not measure the ${kind.name} of ${device.name}: ${outcome.errorName}: ${outcome.message}`)
    return undefined
  }
  try {
    writeFileAtomic(file, `${JSON.stringify(outcome.record, null, 2)}\n`)
  } catch (error) {
    warn(`could not cache the ${kind.name} in ${file}: ${(error as Error).message}`)
  }
  return { record: outcome.record, file, source: 'measured' }
}
