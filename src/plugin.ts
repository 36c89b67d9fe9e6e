// kernelBenchPlugin(): installs the reporter, the settings every worker needs and (Vitest 4) the kernel runner, makes
// `vitest list` run the test files to find their entries, and makes watch mode re-run a bench or test file when a .cu
// file it names changes. Works with Vitest 4.1 and 5.
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { ViteUserConfig } from 'vitest/config'
import type { Vitest } from 'vitest/node'
import { resolveBaselineSettings, type BaselineOptions } from './baseline/guard.js'
import { resolveCompareSettings, type CompareOptions } from './spec/compare.js'
import { prepareBenchReporters } from './vitest/bench-reporters.js'
import type { PluginSettings } from './vitest/plugin-settings.js'
import { resolveCompileJobs } from './cache/build-locks.js'
import { checkDeviceSelection, deviceSelectionFromEnv } from './engine/worker/gpu-pool.js'
import { endRun, startRun } from './engine/worker/host-registry.js'
import { booleanFromEnv, resolveMeasureOptions, type MeasureOptions } from './spec/options.js'
import { DEFAULT_CACHE_DIR } from './spec/paths.js'
import { RUN_KEY, SETTINGS_KEY, type RunContext } from './vitest/registry.js'
import { splitReportOptions, type ReportOptions } from './report/options.js'
import { isBenchmarkProject, KernelBenchReporter, KernelTestReporter } from './reporter.js'
import { cudaSourcesNamedBy } from './vitest/watch-cu.js'

export interface KernelBenchPluginOptions extends Partial<MeasureOptions>, ReportOptions {
  /**
   * The GPUs cases are spread over, one case per GPU at a time: 'all' (default) is every GPU of device 0's model;
   * a list names GPUs of one model. KERNELBENCH_DEVICES ('all' or '0,2') overrides it.
   */
  devices?: 'all' | number[]
  /** One GPU: the same as `devices: [device]` (KERNELBENCH_DEVICE overrides it). */
  device?: number
  /** Path of nvcc (default: CUDA_HOME/bin, PATH, /usr/local/cuda/bin). */
  nvcc?: string
  /** GPU architecture to compile for, e.g. 'sm_90' (default: the device's own, 'a' variant from Hopper on). */
  arch?: string
  /** nvcc flags (default ['-std=c++20', '-O3', '-lineinfo']); the target, -shared and -fPIC are always added. */
  nvccFlags?: string[]
  /** Where compiled libraries are cached (default node_modules/.cache/vitest-kernel-bench under the root). */
  cacheDir?: string
  /**
   * At most this many nvcc processes at once on this host, across all workers and runs sharing the cache directory
   * (default KERNELBENCH_COMPILE_JOBS, else the number of cores).
   */
  compileJobs?: number
  /**
   * Without a usable GPU, still compile and signature-check every solution and reference, so CPU-only CI catches a
   * compile error or a signature mismatch (default true, or KERNELBENCH_COMPILE_WITHOUT_GPU). False skips such a
   * bench at once, saying it was not compiled: for a CI job whose sources another step compiles already.
   */
  compileWithoutGpu?: boolean
  /**
   * The CI guard (`vitest bench`): a case whose interval of change against its baseline lies wholly slower than the
   * tolerance fails the run (docs/ci-gate.md); `vitest bench -u` adds this run to the baselines instead. Defaults:
   * tolerance 0.01, confidence 0.95, runSpread 0.01, boardSpread 0.01, failOnImprovement false, failOnInconclusive false,
   * keepRuns 5, dir '__kernelbench__' (relative to the project root; commit it).
   */
  baseline?: BaselineOptions
  /**
   * Paired A/B runs (docs/ci-gate.md, "Paired A/B"): with `ref` (or KERNELBENCH_COMPARE_REF), every bench's solution
   * as it was at that git ref is timed against the current one, in alternating rounds on one GPU, on `processPairs`
   * pairs of processes (default 1), and a case whose interval of change (widened by what its processes differ by,
   * `processSpread`) lies wholly slower than `tolerance` (default 0.01) fails. A bench's `compareWith` names its base
   * solution file instead.
   */
  compare?: CompareOptions
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
   * Time the harness's calibration kernels (held for a known time, or memory-bound) in every timing mode once, when no
   * calibration is cached, and show each mode's offset under the device line and mark the cases whose median is a few
   * times their mode's offset at most (default false, or KERNELBENCH_CALIBRATION=1). A calibration already in the
   * cache directory (`npx vitest-kernel-bench calibrate`) is used without this option.
   */
  calibration?: boolean
  /**
   * Accept a case faster than the GPU's datasheet roofline (SOL above 100%) with a warning instead of failing it,
   * for a GPU whose peak entry is wrong (default false; a spec's own `allowAboveRoofline` wins).
   */
  allowAboveRoofline?: boolean
}

/** A module of this package by its path from this file's folder, as .ts in this repository or .js in the published build. */
function packageModule(relative: string): string {
  const self = fileURLToPath(import.meta.url)
  return path.join(path.dirname(self), `${relative}${path.extname(self)}`)
}

/** The installed Vitest's major version (the peer dependency allows 4 and 5). */
function vitestMajor(): number {
  const { version } = createRequire(import.meta.url)('vitest/package.json') as { version: string }
  return Number(version.split('.')[0])
}

type Reporters = NonNullable<NonNullable<ViteUserConfig['test']>['reporters']>
type DefaultReporterOptions = ConstructorParameters<typeof KernelTestReporter>[0]

/**
 * The configured reporters with Vitest's default one (named, or implied by none) replaced by `ours`, which is built
 * with the options given to the default one; every other reporter is kept as configured.
 */
function replaceDefaultReporter(reporters: Reporters | undefined, ours: (options?: DefaultReporterOptions) => object): Reporters {
  if (reporters === undefined || reporters === 'default') return [ours()] as Reporters
  if (!Array.isArray(reporters)) return reporters
  return reporters.map((entry) => {
    if (entry === 'default') return ours()
    // Vitest pairs 'default' with DefaultReporterOptions; the config type does not narrow the pair by name.
    if (Array.isArray(entry) && entry[0] === 'default') return ours(entry[1] as DefaultReporterOptions)
    return entry
  }) as Reporters
}

const collectingByRunning = new WeakSet<Vitest>()
const endingRuns = new WeakSet<Vitest>()

/**
 * How long a run's close waits for its device hosts to tear their contexts down before it kills them (a second or two
 * is usual): inside Vitest's teardownTimeout, after which Vitest ends the process whatever is left.
 */
const hostsExitGraceMs = (vitest: Vitest) => Math.max(1000, Math.min(30_000, (vitest.config.teardownTimeout ?? 10_000) - 2000))

/**
 * Gives the run a folder of its own for its device hosts (src/engine/worker/host-registry.ts) and makes Vitest's close
 * wait until every one has exited, killing and naming any that outlive the grace period.
 */
function endHostsWithRun(vitest: Vitest): void {
  if (endingRuns.has(vitest)) return
  endingRuns.add(vitest)
  const dir = startRun()
  vitest.onClose(async () => {
    const graceMs = hostsExitGraceMs(vitest)
    const killed = await endRun(dir, graceMs)
    if (killed.length > 0) {
      vitest.logger.error(
        `vitest-kernel-bench: ${killed.length} device host process(es) (${killed.join(', ')}) had not exited ` +
          `${graceMs / 1000} s after the run; killed`,
      )
    }
  })
}

/**
 * Makes `vitest list` (Vitest's collect) find the tests by running the test files. Vitest's static parse, the default
 * of `vitest list` from Vitest 5 on, knows a test by the name of the function that declares it (test, it, describe),
 * so it finds no kernelBench or kernelProperty entry and fails their file with "No test suite found".
 */
function collectByRunning(vitest: Vitest): void {
  if (collectingByRunning.has(vitest)) return
  collectingByRunning.add(vitest)
  const collect = vitest.collect.bind(vitest)
  vitest.collect = (filters, options) => collect(filters, { ...options, staticParse: false })
}

export function kernelBenchPlugin(options: KernelBenchPluginOptions = {}): Plugin {
  const { report, rest } = splitReportOptions(options)
  const { devices, device, nvcc, arch, nvccFlags, cacheDir, compileJobs, compileWithoutGpu, baseline: baselineOptions, compare: compareOptions, sanitize, ceilings, calibration, allowAboveRoofline, ...measure } = rest
  // Checked once, when the config loads (a bad option fails here, not in every worker); each worker overlays a
  // bench's spec and the environment on it (vitest/resolve-spec.ts resolveSpec).
  const measureOptions = resolveMeasureOptions(measure)
  const baseline = resolveBaselineSettings(baselineOptions)
  const compare = resolveCompareSettings(compareOptions, process.env)
  const jobs = resolveCompileJobs(compileJobs)
  const selection = deviceSelectionFromEnv(process.env) ?? checkDeviceSelection(devices ?? (device === undefined ? 'all' : [device]), devices ? 'devices' : 'device')
  // Read when the config loads, so that KERNELBENCH_SANITIZE=yes fails there with the variable's name.
  const switches = {
    sanitize: booleanFromEnv(process.env, 'KERNELBENCH_SANITIZE') ?? false,
    ceilings: booleanFromEnv(process.env, 'KERNELBENCH_CEILINGS') ?? false,
    calibration: booleanFromEnv(process.env, 'KERNELBENCH_CALIBRATION') ?? false,
    compileWithoutGpu: booleanFromEnv(process.env, 'KERNELBENCH_COMPILE_WITHOUT_GPU'),
  }
  const vitest4 = vitestMajor() === 4
  return {
    name: 'vitest-kernel-bench',
    config(config) {
      // Vitest 4 has separate reporters for `vitest bench`; Vitest 5 one list for tests and benchmark projects, where
      // KernelBenchReporter prints the kernel tables of benchmark projects and the skip reasons of the others.
      const ours = vitest4
        ? (options?: DefaultReporterOptions) => new KernelTestReporter(options)
        : (options?: DefaultReporterOptions) => new KernelBenchReporter(report, { ...options, testsToo: true })
      // Set on the config itself: a returned array would be appended to the user's, keeping Vitest's default too.
      config.test = { ...config.test, reporters: replaceDefaultReporter(config.test?.reporters, ours) }
      const root = path.resolve(config.root ?? process.cwd())
      const settings: PluginSettings = {
        devices: selection,
        cacheDir: path.resolve(root, cacheDir ?? DEFAULT_CACHE_DIR),
        nvcc,
        arch,
        nvccFlags,
        compileJobs: jobs,
        // The variable wins here, as it is how a CI job without a GPU turns the compile checks off for one step.
        compileWithoutGpu: switches.compileWithoutGpu ?? compileWithoutGpu ?? true,
        measure: measureOptions,
        baseline,
        compare,
        sanitize: sanitize ?? switches.sanitize,
        ceilings: ceilings ?? switches.ceilings,
        calibration: calibration ?? switches.calibration,
        allowAboveRoofline,
      }
      return {
        test: {
          pool: 'forks',
          // Vitest 4 runs benchmark files one at a time unless told otherwise, for CPU benchmarks that would disturb
          // each other. Kernel benches share a GPU only one case at a time (src/engine/worker/gpu-pool.ts), so files run in
          // parallel workers: one file's compiles, start-up and host-side work overlap another's GPU time, and
          // several GPUs are kept busy. Vitest 5 runs each benchmark project in one worker whatever this says.
          fileParallelism: config.test?.fileParallelism ?? true,
          provide: { [SETTINGS_KEY]: settings },
          ...(vitest4 && { runner: packageModule('vitest/runner'), benchmark: { reporters: [new KernelBenchReporter(report)] } }),
        },
      }
    },
    // Per project, as Vitest 5 adds a benchmark project next to each project when benchmarks run.
    configureVitest({ project, vitest }) {
      if (vitest4) prepareBenchReporters(vitest)
      collectByRunning(vitest)
      endHostsWithRun(vitest)
      const run: RunContext = {
        command: vitest.mode === 'benchmark' || isBenchmarkProject(project.config) ? 'bench' : 'run',
        root: project.config.root,
        updateBaselines: vitest.config.snapshotOptions.updateSnapshot === 'all',
      }
      project.provide(RUN_KEY, run)
    },
    // A watched file becomes an import of the module in Vite's module graph, and Vitest re-runs every test file
    // whose imports reach a changed file.
    transform(code, id) {
      for (const file of cudaSourcesNamedBy(id, code)) this.addWatchFile(file)
      return null
    },
  }
}
