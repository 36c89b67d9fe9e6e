// kernelBenchPlugin(): installs the kernel runner, the reporter and the settings every worker needs, and makes
// watch mode re-run a bench or test file when a .cu file it names changes.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { ViteUserConfig } from 'vitest/config'
import { resolveBaselineSettings, type BaselineOptions } from './baseline/guard.js'
import type { PluginSettings } from './bench.js'
import { resolveCompileJobs } from './compile/build-locks.js'
import { resolveMeasureOptions, type MeasureOptions } from './options.js'
import { DEFAULT_CACHE_DIR } from './paths.js'
import { SETTINGS_KEY } from './registry.js'
import { splitReportOptions, type ReportOptions } from './report/options.js'
import { KernelBenchReporter, KernelTestReporter } from './reporter.js'
import { cudaSourcesNamedBy } from './watch-cu.js'

export interface KernelBenchPluginOptions extends Partial<MeasureOptions>, ReportOptions {
  /** CUDA device index to benchmark on (default 0, or the KERNELBENCH_DEVICE environment variable). */
  device?: number
  /** Path of nvcc (default: CUDA_HOME/bin, PATH, /usr/local/cuda/bin). */
  nvcc?: string
  /** GPU architecture to compile for, e.g. 'sm_90' (default: the device's own, 'a' variant from Hopper on). */
  arch?: string
  /** nvcc optimisation flags (default ['-O3', '-lineinfo']); the target, -shared and -fPIC are always added. */
  nvccFlags?: string[]
  /** Where compiled libraries are cached (default node_modules/.cache/vitest-kernel-bench under the root). */
  cacheDir?: string
  /**
   * At most this many nvcc processes at once on this host, across all workers and runs sharing the cache directory
   * (default KERNELBENCH_COMPILE_JOBS, else the number of cores).
   */
  compileJobs?: number
  /**
   * The CI guard (`vitest bench`): a case slower than its baseline by more than max(tolerance, noiseFactor ×
   * noise) fails the run; `vitest bench -u` records the baselines instead. Defaults: tolerance 0.05, noiseFactor 3,
   * failOnImprovement false, dir '__kernelbench__' (relative to the project root; commit it).
   */
  baseline?: BaselineOptions
  /**
   * Verify each bench's smallest case once more under compute-sanitizer's memcheck and fail the bench with the
   * first bad access (default false, or KERNELBENCH_SANITIZE=1). Memcheck is slow: the case timeout is 20× longer.
   */
  sanitize?: boolean
  /**
   * Measure the GPU's ceilings (cuBLAS GEMM per dtype, a device-to-device copy) once, when none are cached, and
   * report each case against them as "% of practical peak" (default false, or KERNELBENCH_CEILINGS=1). Ceilings
   * already in the cache directory are shown without this option.
   */
  ceilings?: boolean
  /**
   * Accept a case faster than the GPU's datasheet roofline (SOL above 100%) with a warning instead of failing it,
   * for a GPU whose peak entry is wrong (default false; a spec's own `allowAboveRoofline` wins).
   */
  allowAboveRoofline?: boolean
}

/** The runner module next to this one, as .ts in this repository or .js in the published build. */
function siblingModule(name: string): string {
  const self = fileURLToPath(import.meta.url)
  return path.join(path.dirname(self), `${name}${path.extname(self)}`)
}

type Reporters = NonNullable<NonNullable<ViteUserConfig['test']>['reporters']>

/**
 * `vitest run`'s reporters with Vitest's default one (named, or implied by none) replaced by KernelTestReporter,
 * which also prints why tests were skipped; every other reporter is kept as configured.
 */
function withSkipReasons(reporters: Reporters | undefined): Reporters {
  if (reporters === undefined || reporters === 'default') return [new KernelTestReporter()]
  if (!Array.isArray(reporters)) return reporters
  return reporters.map((entry) => {
    if (entry === 'default') return new KernelTestReporter()
    // Vitest pairs 'default' with DefaultReporterOptions; the config type does not narrow the pair by name.
    if (Array.isArray(entry) && entry[0] === 'default') return new KernelTestReporter(entry[1] as ConstructorParameters<typeof KernelTestReporter>[0])
    return entry
  }) as Reporters
}

export function kernelBenchPlugin(options: KernelBenchPluginOptions = {}): Plugin {
  const { report, rest } = splitReportOptions(options)
  const { device, nvcc, arch, nvccFlags, cacheDir, compileJobs, baseline: baselineOptions, sanitize, ceilings, allowAboveRoofline, ...measure } = rest
  // Checked once, when the config loads (a bad option fails here, not in every worker); each worker overlays a
  // bench's spec and the environment on it (bench.ts resolveSpec).
  const measureOptions = resolveMeasureOptions(measure)
  const baseline = resolveBaselineSettings(baselineOptions)
  const jobs = resolveCompileJobs(compileJobs)
  return {
    name: 'vitest-kernel-bench',
    config(config) {
      // Set on the config itself: a returned array would be appended to the user's, keeping Vitest's default too.
      config.test = { ...config.test, reporters: withSkipReasons(config.test?.reporters) }
      const root = path.resolve(config.root ?? process.cwd())
      const settings: PluginSettings = {
        device: device ?? Number(process.env.KERNELBENCH_DEVICE ?? 0),
        cacheDir: path.resolve(root, cacheDir ?? DEFAULT_CACHE_DIR),
        nvcc,
        arch,
        nvccFlags,
        compileJobs: jobs,
        measure: measureOptions,
        baseline,
        sanitize: sanitize ?? process.env.KERNELBENCH_SANITIZE === '1',
        ceilings: ceilings ?? process.env.KERNELBENCH_CEILINGS === '1',
        allowAboveRoofline,
      }
      return {
        test: {
          runner: siblingModule('runner'),
          pool: 'forks',
          provide: { [SETTINGS_KEY]: settings },
          benchmark: { reporters: [new KernelBenchReporter(report)] },
        },
      }
    },
    // A watched file becomes an import of the module in Vite's module graph, and Vitest re-runs every test file
    // whose imports reach a changed file.
    transform(code, id) {
      for (const file of cudaSourcesNamedBy(id, code)) this.addWatchFile(file)
      return null
    },
  }
}
