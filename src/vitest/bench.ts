// Runs one kernelBench in a Vitest worker: checks the spec once, compiles the solution and reference once, turns
// each test case into a plan for the device host, and collects the outcomes into a KernelBenchResult. Without a
// GPU it still compiles both (CPU-only CI) and skips with the reason. kernelProperty() runs its drawn cases through
// the same prepared bench.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BaselineSettings, GuardRules } from '../baseline/guard.js'
import type { Floors } from '../baseline/verdict.js'
import { compileReference, type BuildSettings } from '../compile/harness.js'
import { compile, DEFAULT_NVCC_FLAGS, findNvcc, NvccNotFoundError, SourceError } from '../compile/nvcc.js'
import { findCalibration } from '../cache/calibration-cache.js'
import { findCeilings } from '../cache/ceilings-cache.js'
import type { Dtype } from '../spec/dtype.js'
import { gpuPool, type DeviceSelection, type GpuPool } from '../engine/worker/gpu-pool.js'
import { findSanitizer } from '../engine/worker/sanitizer.js'
import type { ArgPlan, CallTarget, CasePlan, DeviceReport, ModuleTarget, ReferencePlan } from '../shared/messages.js'
import { summarize } from '../shared/stats.js'
import * as problems from '../../problems/index.js'
import { DEFAULT_MEASURE_OPTIONS, measureOptionsFromEnv, resolveMeasureOptions, unknownOptionMessage, type MeasureOptions } from '../spec/options.js'
import { isProblem, problemCatalog, problemSuggestion } from '../spec/problem-catalog.js'
import { elementsOf, problemDtype, toleranceFor, type Problem, type TestCase } from '../spec/problem.js'
import { RESULT_SCHEMA_VERSION, type CaseResult, type DeviceRecords, type KernelBenchResult } from '../shared/results.js'
import { cPrototype, cPrototypeAlternatives, koffiParams, paramDtype } from '../spec/signature.js'
import { didYouMean, shown } from '../spec/suggest.js'

/**
 * A kernel benchmark. Besides the problem, solution, dtype and cases it takes any measurement option (overriding
 * the plugin's) and the CI guard's rules (`vitest bench` only): floors that every timed case must meet or fail the
 * run — `minTflops`, `minGflops` (throughput from the median runtime), `maxRuntimeMs` (median runtime) and
 * `minSolPercent` (% of the roofline floor; ignored on GPUs without known peaks) — and `allowAboveRoofline`.
 */
export interface KernelBenchSpec<D extends Dtype = Dtype> extends Partial<MeasureOptions>, Floors {
  problem: Problem<D>
  /**
   * The .cu file with `extern "C" void solution(...)`, or a TypeScript/JavaScript module whose default export is
   * defineSolution(...) (see 'vitest-kernel-bench/solution'); relative to the bench file.
   */
  solution: string
  /** Element type, one of the problem's dtypes; default 'float32'. */
  dtype?: NoInfer<D>
  /** Replace the problem's default cases (array), or keep only those a predicate accepts. */
  cases?: readonly TestCase[] | ((c: TestCase) => boolean)
  /**
   * Accept a case faster than the GPU's datasheet roofline (SOL above 100%) with a warning instead of failing it,
   * for a GPU whose peak entry is wrong. Default: the plugin's `allowAboveRoofline`, else false.
   */
  allowAboveRoofline?: boolean
}

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
  /** The plugin's measurement options (resolved with the defaults when the config loaded). */
  measure: Partial<MeasureOptions>
  /** Also verify each bench's smallest case under compute-sanitizer's memcheck (see src/engine/worker/sanitizer.ts). */
  sanitize?: boolean
  /** The CI guard: tolerance, noise factor and where the baseline files live (the plugin sets it; defaults apply). */
  baseline?: BaselineSettings
  /** Measure the GPU's ceilings when none are cached (see src/cache/ceilings-cache.ts); cached ones are shown regardless. */
  ceilings?: boolean
  /** Measure the GPU's calibration when none is cached (see src/cache/calibration-cache.ts); a cached one is shown regardless. */
  calibration?: boolean
  /** The plugin's default for KernelBenchSpec.allowAboveRoofline. */
  allowAboveRoofline?: boolean
}

export interface BenchContext {
  /** Absolute path of the bench file: relative solution paths start there. */
  file: string
  mode: 'verify' | 'bench'
  settings: PluginSettings
  /** Told before each case runKernelBench runs (index from 0), so a long bench can show how far it is. */
  onCase?(index: number, total: number, caseName: string): void
}

/** A spec checked and merged once: dtype, selected cases, measurement options and the CI guard's rules. */
export interface ResolvedSpec {
  problem: Problem
  /** The solution file as the spec names it (relative to the bench file). */
  solution: string
  dtype: Dtype
  cases: readonly TestCase[]
  /** Defaults, then the plugin's options, the spec's, and the environment's (docs/protocol.md). */
  options: MeasureOptions
  guard: GuardRules
}

/** The names a spec takes besides the measurement options. */
const SPEC_KEYS = ['problem', 'solution', 'dtype', 'cases', 'allowAboveRoofline', 'minTflops', 'minGflops', 'maxRuntimeMs', 'minSolPercent'] as const

/** Every name a kernelBench spec takes, for did-you-mean. */
const KERNEL_BENCH_KEYS: readonly string[] = [...SPEC_KEYS, ...Object.keys(DEFAULT_MEASURE_OPTIONS)]

/** Throws on the first key of `spec` that is not in `known`, with the known name closest to it. */
export function checkOptionNames(spec: object, known: readonly string[]): void {
  const unknown = Object.keys(spec).find((key) => !known.includes(key))
  if (unknown !== undefined) throw new Error(unknownOptionMessage(unknown, known))
}

const FROM_PROBLEMS = "pass a problem from 'vitest-kernel-bench/problems' (e.g. matmul) or one made with defineProblem()"

/** The spec's problem, or an error that says what was given instead and what to pass. */
export function checkProblem(value: unknown): Problem {
  if (isProblem(value)) return value
  if (value === undefined) throw new Error(`option problem is undefined — ${FROM_PROBLEMS}`)
  if (typeof value === 'string') {
    throw new Error(
      `option problem is the string '${value}', not a problem — import the problem from 'vitest-kernel-bench/problems': ` +
        problemSuggestion(problemCatalog(problems), value),
    )
  }
  throw new Error(`option problem is not a problem (got ${shown(value)}) — ${FROM_PROBLEMS}`)
}

/** The spec's solution path; the file itself is looked for when the bench runs (solutionFile). */
export function checkSolution(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value
  throw new Error(
    `option solution must be the path of a .cu file, or of a TypeScript/JavaScript module exporting defineSolution(...), ` +
      `relative to the bench file (got ${shown(value)})`,
  )
}

/** A spec's floors apart from everything else; each floor must be a finite number >= 0. */
function splitFloors<T extends Floors>(spec: T): { floors: Floors; rest: Omit<T, keyof Floors> } {
  const { minTflops, minGflops, maxRuntimeMs, minSolPercent, ...rest } = spec
  const floors: Floors = {}
  for (const [key, value] of Object.entries({ minTflops, minGflops, maxRuntimeMs, minSolPercent })) {
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`floor ${key} must be a finite number >= 0 (got ${String(value)})`)
    }
    floors[key as keyof Floors] = value
  }
  return { floors, rest }
}

/**
 * Checks a spec and merges its options with the plugin's and the environment's; throws on the first bad value, its
 * message starting with `entry`, the call that gave the spec (e.g. `kernelBench('sgemm')`). The entry points call it
 * when the entry is declared, so that a mistake fails the file's collection, with or without a GPU.
 */
export function resolveSpec(spec: KernelBenchSpec, settings: PluginSettings, entry: string): ResolvedSpec {
  try {
    return checkedSpec(spec, settings)
  } catch (error) {
    throw new Error(`${entry}: ${(error as Error).message}`)
  }
}

function checkedSpec(spec: KernelBenchSpec, settings: PluginSettings): ResolvedSpec {
  if (typeof spec !== 'object' || spec === null) throw new Error(`the spec must be an object { problem, solution, … } (got ${shown(spec)})`)
  checkOptionNames(spec, KERNEL_BENCH_KEYS)
  const { problem: given, solution: path, dtype: requestedDtype, cases: selection, allowAboveRoofline, ...rest } = spec
  const problem = checkProblem(given)
  const solution = checkSolution(path)
  const { floors, rest: measure } = splitFloors(rest)
  const allow = allowAboveRoofline ?? settings.allowAboveRoofline ?? false
  if (typeof allow !== 'boolean') throw new Error(`allowAboveRoofline must be true or false (got ${String(allow)})`)
  const dtype = problemDtype(problem, requestedDtype ?? 'float32', 'option dtype')
  return {
    problem,
    solution,
    dtype,
    cases: selectCases(problem, dtype, selection),
    options: resolveMeasureOptions(settings.measure, measure, measureOptionsFromEnv(process.env)),
    guard: { floors, allowAboveRoofline: allow },
  }
}

/** The cases a spec selects: the problem's own for the dtype, those a predicate keeps, or the spec's own list. */
function selectCases(problem: Problem, dtype: Dtype, selection: unknown): readonly TestCase[] {
  const defaults = problem.cases(dtype)
  // Quoted: a case's name may hold a comma ('16x128x256, dim=1').
  const names = () => `${problem.name}'s ${dtype} cases are: ${defaults.map((c) => `'${c.name}'`).join(', ')}`
  if (selection === undefined) return defaults
  if (typeof selection === 'function') {
    const kept = defaults.filter((c) => selection(c))
    if (kept.length === 0) throw new Error(`option cases keeps none of the cases (the predicate returned false for all); ${names()}`)
    return kept
  }
  if (!Array.isArray(selection)) throw new Error(`option cases must be an array of test cases { name, params } or a predicate (got ${shown(selection)})`)
  if (selection.length === 0) throw new Error(`option cases is an empty list; ${names()}`)
  selection.forEach((c: unknown, index) => checkCase(problem, c, `option cases[${index}]`, defaults))
  const seen = new Set<string>()
  for (const c of selection as TestCase[]) {
    if (seen.has(c.name)) throw new Error(`option cases names two cases '${c.name}': a case's name is its key in the report and the baseline`)
    seen.add(c.name)
  }
  return selection as TestCase[]
}

/** A case the spec gives: a name, and a number for each scalar parameter of the problem. */
function checkCase(problem: Problem, c: unknown, label: string, defaults: readonly TestCase[]): void {
  if (typeof c === 'string') {
    const suggestion = didYouMean(c, defaults.map((d) => d.name)) || ` (${problem.name}'s cases: ${defaults.map((d) => `'${d.name}'`).join(', ')})`
    throw new Error(
      `${label} is the string '${c}', not a test case { name, params } — to keep the problem's cases by name, ` +
        `pass a predicate: cases: (c) => c.name === '${c}'${suggestion}`,
    )
  }
  const { name, params } = (c ?? {}) as Partial<TestCase>
  if (typeof name !== 'string' || typeof params !== 'object' || params === null) {
    throw new Error(`${label} must be a test case { name: string, params: { … } } (got ${shown(c)})`)
  }
  const missing = problem.signature.filter((p) => p.kind === 'scalar' && typeof params[p.name] !== 'number').map((p) => p.name)
  if (missing.length > 0) {
    throw new Error(`${label} ('${name}') has no number for ${missing.map((n) => `'${n}'`).join(', ')}, a parameter of ${problem.name}`)
  }
}

/** The same case always gets the same inputs. */
function caseSeed(problem: string, caseName: string): number {
  return crypto.createHash('sha256').update(`${problem}/${caseName}`).digest().readUInt32LE(0)
}

function argPlans(problem: Problem, dtype: Dtype, c: TestCase): ArgPlan[] {
  const elements = problem.elements(c)
  return problem.signature.map((p): ArgPlan => {
    if (p.kind === 'scalar') {
      const value = c.params[p.name]
      if (value === undefined) throw new Error(`case '${c.name}' of '${problem.name}' has no value for parameter '${p.name}'`)
      return { kind: 'scalar', ctype: p.ctype, value }
    }
    if (p.kind === 'array') return { kind: 'array', name: p.name, ctype: p.ctype, memory: p.memory, values: [...p.values(c.params)] }
    const count = elementsOf(elements, p.name)
    const elementType = paramDtype(p, dtype)
    return p.kind === 'input'
      ? { kind: 'input', name: p.name, dtype: elementType, count, range: problem.inputRange }
      : { kind: 'output', name: p.name, dtype: elementType, count }
  })
}

async function referencePlan(problem: Problem, dtype: Dtype, build: BuildSettings): Promise<ReferencePlan> {
  const reference = problem.reference
  if (reference.kind === 'gemm') return { kind: 'gemm', dtype }
  const entry = reference.entry ?? 'reference'
  const library = await compileReference(reference.file, cPrototype(problem.signature, dtype, entry), dtype, build)
  return { kind: 'library', target: { library: library.path, source: reference.file, entry, params: koffiParams(problem.signature) } }
}

class SolutionNotFoundError extends SourceError {}

const MODULE_SOLUTION = /\.(ts|mts|js|mjs)$/

/** The solution's absolute path; a missing file fails with the bench that names it and where it was looked for. */
function solutionFile(name: string, spec: ResolvedSpec, benchFile: string): string {
  const file = path.resolve(path.dirname(benchFile), spec.solution)
  if (!fs.existsSync(file)) {
    throw new SolutionNotFoundError(
      `solution file not found: ${file}\n` +
        `  kernelBench '${name}' in ${path.basename(benchFile)} names solution '${spec.solution}', ` +
        "which is resolved against the bench file's folder",
    )
  }
  return file
}

/**
 * A .cu solution compiled against the problem's prototype, or a TypeScript/JavaScript solution module that the
 * device host imports. Graph timing needs launches it can capture: `<<<>>>` then goes to the per-thread default
 * stream, because the legacy stream cannot be captured.
 */
async function solutionTarget(
  spec: ResolvedSpec,
  file: string,
  settings: PluginSettings,
  build: BuildSettings,
): Promise<CallTarget | ModuleTarget> {
  if (MODULE_SOLUTION.test(file)) return { module: file }
  const { problem, dtype, options } = spec
  const flags = [...(settings.nvccFlags ?? DEFAULT_NVCC_FLAGS), ...(options.timing === 'graph' ? ['--default-stream', 'per-thread'] : [])]
  const compiled = await compile({
    source: file,
    prototype: cPrototype(problem.signature, dtype),
    alternatives: cPrototypeAlternatives(problem.signature, dtype),
    flags,
    ...build,
  })
  return { library: compiled.path, source: file, entry: 'solution', params: koffiParams(problem.signature) }
}

/**
 * What CPU-only CI compiles for when the plugin names no `arch`: Hopper's arch-specific target, which accepts
 * everything up to wgmma and setmaxnreg. A kernel for another GPU family sets the `arch` option.
 */
export const CPU_ONLY_ARCH = 'sm_90a'

/**
 * CPU-only CI: without a GPU the solution and reference still compile, so a compile error, a signature mismatch
 * or a missing file fails here, with the compiler's file and line. Returns what was checked, for the skip reason.
 */
async function compileWithoutGpu(spec: ResolvedSpec, file: string, settings: PluginSettings): Promise<string> {
  const arch = settings.arch ?? CPU_ONLY_ARCH
  try {
    findNvcc(settings.nvcc)
  } catch (error) {
    if (error instanceof NvccNotFoundError) return 'nvcc not found either, so nothing was compiled'
    throw error
  }
  const build = buildSettings(settings, arch)
  // A TypeScript solution is set up on the GPU, and a cuBLAS reference has nothing to compile.
  const compiled = [
    ...('module' in (await solutionTarget(spec, file, settings, build)) ? [] : ['solution']),
    ...((await referencePlan(spec.problem, spec.dtype, build)).kind === 'library' ? ['reference'] : []),
  ]
  const checked = compiled.length === 0 ? 'nothing to compile' : `${compiled.join(' and ')} compiled and signature-checked for ${arch}`
  return `${checked}; verification and timing need a GPU`
}

function buildSettings(settings: PluginSettings, arch: string): BuildSettings {
  return { arch, cacheDir: settings.cacheDir, nvcc: settings.nvcc, jobs: settings.compileJobs }
}

/** The worker's GPUs (one pool per configuration, see gpuPool). */
function poolFor(settings: PluginSettings): GpuPool {
  const { devices, cacheDir, nvcc, arch, compileJobs } = settings
  return gpuPool(devices, { cacheDir, nvcc, arch, compileJobs })
}

/**
 * Starts compiling a bench's solution and reference as soon as its file is collected (the runner calls it for
 * every bench that will run), so all of a file's compiles run at once, bounded by compileJobs across processes,
 * and the first benches run while the rest compile. prepareKernelBench asks compile() for the same libraries and
 * is given these builds, errors included: it reports them, so here they are dropped.
 */
export function startCompiles(name: string, resolved: ResolvedSpec, benchFile: string, settings: PluginSettings): void {
  const start = async () => {
    const file = solutionFile(name, resolved, benchFile)
    const status = await poolFor(settings).ready()
    // Without a GPU, the CPU-only CI target; a GPU that failed to come up fails the bench when it runs.
    const arch = status.available ? status.arch : status.noGpu ? (settings.arch ?? CPU_ONLY_ARCH) : undefined
    if (arch === undefined) return
    const build = buildSettings(settings, arch)
    await Promise.allSettled([solutionTarget(resolved, file, settings, build), referencePlan(resolved.problem, resolved.dtype, build)])
  }
  start().catch(() => {})
}

/** A kernelBench compiled and ready to run test cases on the GPU (or skipped where there is none). */
export interface PreparedKernelBench {
  /** The result with no cases yet; `skipped` says why nothing can run. */
  header: KernelBenchResult
  /** The test cases the spec selects. */
  cases: readonly TestCase[]
  /** Verifies one case (and in bench mode times it). Rejects on a skipped bench. */
  runCase(c: TestCase): Promise<CaseResult>
  /** Verifies one case under compute-sanitizer's memcheck: its first bad access fails it. */
  sanitizeCase(c: TestCase): Promise<CaseResult>
}

/** Memcheck makes kernels many times slower. */
const SANITIZER_SLOWDOWN = 20

/** The result name of a case verified under memcheck, apart from its ordinary run. */
const memcheckName = (c: TestCase) => `${c.name} · memcheck`

function emptyResult(name: string, spec: ResolvedSpec, mode: BenchContext['mode']): KernelBenchResult {
  const { problem, solution, dtype, options } = spec
  return { version: RESULT_SCHEMA_VERSION, bench: name, problem: problem.name, solution, dtype, mode, options, cases: [] }
}

function skippedBench(header: KernelBenchResult, cases: readonly TestCase[], skipped: string): PreparedKernelBench {
  const rejected = () => Promise.reject(new Error(`'${header.bench}' is skipped: ${skipped}`))
  return { header: { ...header, skipped }, cases, runCase: rejected, sanitizeCase: rejected }
}

/** Runs one case of a compiled bench on a free GPU of the pool and collects its outcome with the case's figures. */
type CaseRunner = (c: TestCase, mode: CasePlan['mode'], options: MeasureOptions, sanitizer?: string) => Promise<CaseResult>

function caseRunner(name: string, spec: ResolvedSpec, solution: CallTarget | ModuleTarget, reference: ReferencePlan, pool: GpuPool): CaseRunner {
  const { problem, dtype } = spec
  const tolerance = toleranceFor(problem, dtype)
  return async (c, mode, options, sanitizer) => {
    const seed = caseSeed(problem.name, c.name)
    const args = argPlans(problem, dtype, c)
    const plan: CasePlan = { benchName: name, caseName: c.name, seed, args, tolerance, solution, reference, mode, options }
    const { outcome, gpu } = await pool.run(plan, sanitizer)
    const result: CaseResult = { name: c.name, params: { ...c.params }, gpu, flops: problem.flops(c), bytes: problem.bytes(c, dtype), outcome }
    if (outcome.status === 'ok' && outcome.timing && outcome.timing.samplesMs.length > 0) result.summary = summarize(outcome.timing.samplesMs)
    return result
  }
}

/**
 * The GPU's ceilings and calibration for a bench-mode result: cached ones, or measured now where the plugin asks for
 * them. Every GPU of the pool is of one model: the first one's stand for all.
 */
async function deviceRecords(pool: GpuPool, device: DeviceReport, context: BenchContext, options: MeasureOptions): Promise<DeviceRecords> {
  if (context.mode !== 'bench') return {}
  const { cacheDir, ceilings, calibration } = context.settings
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

/** Starts the device host and compiles the solution and reference once, for any number of cases. */
export async function prepareKernelBench(name: string, spec: ResolvedSpec, context: BenchContext): Promise<PreparedKernelBench> {
  const { options, cases } = spec
  const header = emptyResult(name, spec, context.mode)
  const file = solutionFile(name, spec, context.file)
  const { settings } = context
  const pool = poolFor(settings)
  const status = await pool.ready()
  if (!status.available) {
    if (!status.noGpu) throw new Error(`the GPU could not be prepared: ${status.reason}`)
    return skippedBench(header, cases, `no usable CUDA GPU: ${status.reason} — ${await compileWithoutGpu(spec, file, settings)}`)
  }
  const records = await deviceRecords(pool, status.device, context, options)
  const devices = status.devices.map(({ index, pciBusId }) => ({ index, pciBusId }))
  Object.assign(header, { device: status.device, devices, arch: status.arch, ...records })

  const build = buildSettings(settings, status.arch)
  // Both builds were started when the file was collected (startCompiles): the solution's error comes first.
  const solution = await solutionTarget(spec, file, settings, build)
  const run = caseRunner(name, spec, solution, await referencePlan(spec.problem, spec.dtype, build), pool)
  const sanitizeCase = async (c: TestCase): Promise<CaseResult> => {
    const slow = { ...options, caseTimeoutMs: options.caseTimeoutMs * SANITIZER_SLOWDOWN }
    return { ...(await run(c, 'verify', slow, findSanitizer(findNvcc(settings.nvcc)))), name: memcheckName(c) }
  }
  return { header, cases, runCase: (c) => run(c, context.mode, options), sanitizeCase }
}

/** The case that moves the fewest bytes: the quickest to run under memcheck. */
function smallestCase(problem: Problem, dtype: Dtype, cases: readonly TestCase[]): TestCase {
  return cases.reduce((best, c) => (problem.bytes(c, dtype) < problem.bytes(best, dtype) ? c : best))
}

/** Runs `run` over the items, at most `width` at a time, and gives the results in the items' order. */
async function runAtMost<T, R>(items: readonly T[], width: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await run(items[index]!, index)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane))
  return results
}

/**
 * Runs every case of a resolved spec (after a memcheck run of the smallest, in sanitize mode), as many at once as
 * the run has GPUs: each case claims a free GPU (src/engine/worker/gpu-pool.ts), so one bench file can fill them all.
 */
export async function runResolvedBench(name: string, spec: ResolvedSpec, context: BenchContext): Promise<KernelBenchResult> {
  const { header: result, cases, runCase, sanitizeCase } = await prepareKernelBench(name, spec, context)
  if (result.skipped) return result
  const total = cases.length + (context.settings.sanitize ? 1 : 0)
  if (context.settings.sanitize) {
    const smallest = smallestCase(spec.problem, spec.dtype, cases)
    context.onCase?.(0, total, memcheckName(smallest))
    result.cases.push(await sanitizeCase(smallest))
  }
  const first = result.cases.length
  const timed = await runAtMost(cases, result.devices?.length ?? 1, (c, index) => {
    context.onCase?.(first + index, total, c.name)
    return runCase(c)
  })
  result.cases.push(...timed)
  return result
}

/** Checks the spec, then runs every case: resolveSpec and runResolvedBench in one call. */
export function runKernelBench(name: string, spec: KernelBenchSpec, context: BenchContext): Promise<KernelBenchResult> {
  return runResolvedBench(name, resolveSpec(spec, context.settings, `kernelBench('${name}')`), context)
}
