// The plugin's config hook: `vitest run` gets KernelTestReporter where Vitest's default reporter would be (so skip
// reasons show), other reporters are kept; the workers get the measurement options resolved once and the
// allowAboveRoofline default. Its configureVitest hook tells each project's workers whether they benchmark, makes
// `vitest list` run the test files, gives Vitest 4's `vitest bench` the blob reporter, and gives the run a folder for
// its device hosts that Vitest's close waits on.
import fs from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ViteUserConfig } from 'vitest/config'
import { createVitest, ReportersMap } from 'vitest/node'
import { RUN_DIR_ENV } from '../../src/engine/worker/host-registry.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { kernelBenchPlugin, type KernelBenchPluginOptions } from '../../src/plugin.js'
import { RUN_KEY, SETTINGS_KEY } from '../../src/vitest/registry.js'
import { KernelTestReporter } from '../../src/reporter.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'

type Reporters = NonNullable<NonNullable<ViteUserConfig['test']>['reporters']>

/** Runs the plugin's config hook on a user config; returns the user config as the hook left it and what it returned. */
function configure(test: NonNullable<ViteUserConfig['test']> = {}, options: KernelBenchPluginOptions = {}) {
  const config: ViteUserConfig = { root: '/project', test }
  const hook = kernelBenchPlugin(options).config as (c: ViteUserConfig) => { test: { provide: Record<string, PluginSettings> } }
  const returned = hook(config)
  return { reporters: config.test!.reporters as unknown[], settings: returned.test.provide[SETTINGS_KEY]! }
}

const isKernelTestReporter = (r: unknown) => r instanceof KernelTestReporter

/**
 * Runs the configureVitest hook for one project (its config as given) of a Vitest in `mode` (its config as given
 * too); returns what it provided and the Vitest config as the hook left it.
 */
function configureVitest(projectConfig: object, mode: string, vitestConfig: object = {}) {
  const values = new Map<string, unknown>()
  const project = { config: { root: '/project', ...projectConfig }, provide: (key: string, value: unknown) => values.set(key, value) }
  const closers: Array<() => Promise<void>> = []
  const vitest = {
    mode,
    config: { snapshotOptions: { updateSnapshot: 'new' }, ...vitestConfig },
    collect: async () => ({}),
    onClose: (close: () => Promise<void>) => closers.push(close),
  }
  // The hook gives the run a folder for its device hosts, named in this process's environment: put the outer run's back.
  const outerRun = process.env[RUN_DIR_ENV]
  ;(kernelBenchPlugin().configureVitest as (context: object) => void)({ project, vitest })
  const runDir = process.env[RUN_DIR_ENV]
  restoreRunDir(outerRun)
  const close = () => Promise.all(closers.splice(0).map((closer) => closer()))
  openRuns.push(close)
  return { run: values.get(RUN_KEY), config: vitest.config, runDir, close }
}

/** Puts back the run folder this test process had (none: the variable unset, not the string 'undefined'). */
function restoreRunDir(outer: string | undefined): void {
  if (outer === undefined) delete process.env[RUN_DIR_ENV]
  else process.env[RUN_DIR_ENV] = outer
}

/** The runs configureVitest started, closed after each test so none leaves its folder behind. */
const openRuns: Array<() => Promise<unknown>> = []
afterEach(async () => {
  await Promise.all(openRuns.splice(0).map((close) => close()))
})

const provided = (projectConfig: object, mode: string, updateSnapshot = 'new') =>
  configureVitest(projectConfig, mode, { snapshotOptions: { updateSnapshot } }).run

describe('kernelBenchPlugin', () => {
  it("gives each run a folder for its device hosts, and Vitest's close waits for them and removes it", async () => {
    const { runDir, close } = configureVitest({}, 'benchmark')
    expect(runDir).toBeDefined()
    expect(runDir).not.toBe(process.env[RUN_DIR_ENV])
    expect(fs.existsSync(runDir!)).toBe(true)
    await close()
    expect(fs.existsSync(runDir!)).toBe(false)
  })

  it("puts KernelTestReporter in place of Vitest's default reporter, named or implied", () => {
    for (const reporters of [undefined, 'default', ['default'], [['default']]] as Array<Reporters | undefined>) {
      const result = configure(reporters === undefined ? {} : { reporters }).reporters
      expect(result).toHaveLength(1)
      expect(isKernelTestReporter(result[0])).toBe(true)
    }
  })

  it('keeps every other reporter, and the options given with the default one', () => {
    const custom = { onInit() {} }
    const { reporters } = configure({ reporters: ['default', ['json', { outputFile: 'r.json' }], custom] })
    expect(isKernelTestReporter(reporters[0])).toBe(true)
    expect(reporters.slice(1)).toEqual([['json', { outputFile: 'r.json' }], custom])
    expect(configure({ reporters: 'verbose' }).reporters).toBe('verbose')
    expect(configure({ reporters: ['dot'] }).reporters).toEqual(['dot'])
    const withOptions = configure({ reporters: [['default', { summary: false }]] }).reporters
    expect(withOptions).toHaveLength(1)
    expect(isKernelTestReporter(withOptions[0])).toBe(true)
  })

  it('passes the measurement options resolved with the defaults, and allowAboveRoofline, to the workers', () => {
    const { settings } = configure({}, { targetCv: 0.02, allowAboveRoofline: true })
    expect(settings.measure).toEqual({ ...DEFAULT_MEASURE_OPTIONS, targetCv: 0.02 })
    expect(settings.allowAboveRoofline).toBe(true)
    expect(configure().settings.allowAboveRoofline).toBeUndefined()
    expect(() => kernelBenchPlugin({ targetCv: -1 })).toThrow(/targetCv/)
  })

  it("tells each project's workers whether it benchmarks (Vitest 4's bench mode, Vitest 5's benchmark projects), its root and -u", () => {
    expect(provided({}, 'test')).toEqual({ command: 'run', root: '/project', updateBaselines: false })
    expect(provided({}, 'benchmark', 'all')).toEqual({ command: 'bench', root: '/project', updateBaselines: true })
    // Vitest 5: one mode, 'test'; the benchmark project it adds next to a project has benchmark.enabled.
    expect(provided({ benchmark: { enabled: true } }, 'test')).toEqual({ command: 'bench', root: '/project', updateBaselines: false })
    expect(provided({ benchmark: { enabled: false, include: ['**/*.bench.ts'] } }, 'test')).toEqual({ command: 'run', root: '/project', updateBaselines: false })
  })

  it('makes `vitest list` run the test files, once for all projects: static parsing finds no kernelBench entry', async () => {
    const calls: unknown[][] = []
    const project = { config: { root: '/project' }, provide: () => {} }
    const closers: Array<() => Promise<void>> = []
    const vitest = {
      mode: 'test',
      config: { snapshotOptions: {} },
      collect: async (...args: unknown[]) => void calls.push(args),
      onClose: (close: () => Promise<void>) => closers.push(close),
    }
    const hook = kernelBenchPlugin().configureVitest as (context: object) => void
    const outerRun = process.env[RUN_DIR_ENV]
    hook({ project, vitest })
    hook({ project: { ...project, config: { root: '/project', benchmark: { enabled: true } } }, vitest })
    restoreRunDir(outerRun)
    openRuns.push(() => Promise.all(closers.map((close) => close())))
    await vitest.collect(['sgemm'], { staticParse: true, staticParseConcurrency: 2 })
    expect(calls).toEqual([[['sgemm'], { staticParse: false, staticParseConcurrency: 2 }]])
  })

  it("makes `vitest bench --reporter=blob` use Vitest's blob reporter, which Vitest 4's benchmark reporters lack", () => {
    const ours = { onInit() {} }
    const { config } = configureVitest({}, 'benchmark', { benchmark: { reporters: [ours, 'blob'] } })
    const [first, blob] = (config as unknown as { benchmark: { reporters: unknown[] } }).benchmark.reporters
    expect(first).toBe(ours)
    expect(blob).toBeInstanceOf(ReportersMap.blob)
  })
})

describe('benchmark files in parallel', () => {
  // Vitest's own resolution of the config, in its benchmark mode, with the plugin installed.
  async function benchWorkers(test: NonNullable<ViteUserConfig['test']>): Promise<number> {
    const vitest = await createVitest('benchmark', { config: false, watch: false, ...test }, { plugins: [kernelBenchPlugin()] })
    try {
      return vitest.config.maxWorkers
    } finally {
      await vitest.close()
    }
  }

  it('lets Vitest 4 run kernel bench files in several workers (its default for benchmarks is one), unless the user says no', async () => {
    expect(await benchWorkers({ maxWorkers: 4 })).toBe(4)
    expect(await benchWorkers({ maxWorkers: 4, fileParallelism: false })).toBe(1)
  })
})

describe.each([
  ['ceilings', 'KERNELBENCH_CEILINGS'],
  ['calibration', 'KERNELBENCH_CALIBRATION'],
] as const)('the %s option (measure once per GPU when nothing is cached)', (option, variable) => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it(`is off by default, on with the option or ${variable}=1; the option wins`, () => {
    const value = (options: KernelBenchPluginOptions) => configure({}, options).settings[option]
    vi.stubEnv(variable, '')
    expect(value({})).toBe(false)
    expect(value({ [option]: true })).toBe(true)
    vi.stubEnv(variable, '1')
    expect(value({})).toBe(true)
    expect(value({ [option]: false })).toBe(false)
  })

  it(`names ${variable} when it holds anything but 1/0/true/false`, () => {
    vi.stubEnv(variable, 'yes')
    expect(() => configure({}, {})).toThrow(`${variable} must be 1 or 0 (got 'yes')`)
  })
})

it('keeps measured records in the project’s cache folder', () => {
  expect(configure().settings.cacheDir).toBe('/project/node_modules/.cache/vitest-kernel-bench')
})
