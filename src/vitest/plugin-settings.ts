// What the plugin gives every worker of a run (src/plugin.ts provides it), and what a worker derives from it: the
// compile settings for a target, and the pool of GPUs the cases are spread over.
import type { BaselineSettings } from '../baseline/guard.js'
import type { BuildSettings } from '../compile/harness.js'
import { gpuPool, type DeviceSelection, type GpuPool } from '../engine/worker/gpu-pool.js'
import type { CompareSettings } from '../spec/compare.js'
import type { MeasureOptions } from '../spec/options.js'

/** What the plugin passes to every worker (see plugin.ts). */
export interface PluginSettings {
  /** The GPUs cases are spread over (see src/engine/worker/gpu-pool.ts). */
  devices: DeviceSelection
  cacheDir: string
  nvcc?: string
  /** The compile target (default: the GPU's own; without a GPU, CPU_ONLY_ARCH). */
  arch?: string
  nvccFlags?: string[]
  /** At most this many nvcc processes at once on this host (see resolveCompileJobs). */
  compileJobs?: number
  /** Without a usable GPU, compile and signature-check solutions and references (true, the default) or skip at once. */
  compileWithoutGpu?: boolean
  /** The plugin's measurement options (resolved with the defaults when the config loaded). */
  measure: Partial<MeasureOptions>
  /** Also verify each bench's smallest case under compute-sanitizer's memcheck (see src/engine/worker/sanitizer.ts). */
  sanitize?: boolean
  /** The CI guard: tolerance, noise factor and where the baseline files live (the plugin sets it; defaults apply). */
  baseline?: BaselineSettings
  /** Paired A/B runs: the base's git ref, the tolerance and how rounds run (src/spec/compare.ts). */
  compare?: CompareSettings
  /** Measure the GPU's ceilings when none are cached (see src/cache/ceilings-cache.ts); cached ones are shown regardless. */
  ceilings?: boolean
  /** Measure the GPU's calibration when none is cached (see src/cache/calibration-cache.ts); a cached one is shown regardless. */
  calibration?: boolean
  /** The plugin's default for KernelBenchSpec.allowAboveRoofline. */
  allowAboveRoofline?: boolean
}

export function buildSettings(settings: PluginSettings, arch: string): BuildSettings {
  return { arch, cacheDir: settings.cacheDir, nvcc: settings.nvcc, jobs: settings.compileJobs }
}

/** The worker's GPUs (one pool per configuration, see gpuPool). */
export function poolFor(settings: PluginSettings): GpuPool {
  const { devices, cacheDir, nvcc, arch, compileJobs } = settings
  return gpuPool(devices, { cacheDir, nvcc, arch, compileJobs })
}
