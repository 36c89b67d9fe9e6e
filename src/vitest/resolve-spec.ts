// A kernelBench's spec checked once, when the entry is declared (a wrong argument fails the file's collection, GPU or
// not): option names, problem, solution, dtype, cases, and the measurement options merged with the plugin's and the
// environment's, beside the CI guard's rules.
import type { GuardRules } from '../baseline/guard.js'
import type { Floors } from '../baseline/verdict.js'
import type { UnsupportedCase } from '../shared/results.js'
import { checkBuild, type BenchBuild } from '../spec/build.js'
import type { Dtype } from '../spec/dtype.js'
import * as problems from '../../problems/index.js'
import { DEFAULT_MEASURE_OPTIONS, measureOptionsFromEnv, resolveMeasureOptions, unknownOptionMessage, type MeasureOptions } from '../spec/options.js'
import { isProblem, problemCatalog, problemSuggestion } from '../spec/problem-catalog.js'
import { elementsOf, problemDtype, type Problem, type TestCase } from '../spec/problem.js'
import { isBuffer, isCaseScalar } from '../spec/signature.js'
import { didYouMean, shown } from '../spec/suggest.js'
import type { PluginSettings } from './plugin-settings.js'

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
  /** Element type, one of the problem's dtypes; default its first ('float32' wherever it has one). */
  dtype?: NoInfer<D>
  /**
   * The bench's cases: a predicate keeps some of the problem's defaults; a list gives them outright, each entry a
   * default case's name or a case of its own { name, params } (docs/problems.md, "Test cases").
   */
  cases?: readonly (TestCase | string)[] | ((c: TestCase) => boolean)
  /**
   * Whether the solution handles a case: true runs it; false, or a string saying why, skips it and the report lists
   * it with the reason.
   */
  supports?: (c: TestCase) => boolean | string
  /**
   * Accept a case faster than the GPU's datasheet roofline (SOL above 100%) with a warning instead of failing it,
   * for a GPU whose peak entry is wrong. Default: the plugin's `allowAboveRoofline`, else false.
   */
  allowAboveRoofline?: boolean
  /**
   * The .cu solution's own build settings (defines, include folders, more sources, libraries, nvcc flags), added to
   * the plugin's `nvccFlags` for this bench's solution only; paths are relative to the bench file.
   */
  build?: BenchBuild
  /**
   * A second solution file, the base version: every case is then timed as a paired A/B run, this solution against
   * that one, interleaved on one GPU (docs/ci-gate.md, "Paired A/B"); relative to the bench file. It takes precedence
   * over the plugin's `compare.ref` for this bench.
   */
  compareWith?: string
}

/** A spec checked and merged once: dtype, selected cases, measurement options and the CI guard's rules. */
export interface ResolvedSpec {
  problem: Problem
  /** The solution file as the spec names it (relative to the bench file). */
  solution: string
  dtype: Dtype
  cases: readonly TestCase[]
  /** The selected cases `supports` declined, with why. */
  unsupported: readonly UnsupportedCase[]
  /** Defaults, then the plugin's options, the spec's, and the environment's (docs/protocol.md). */
  options: MeasureOptions
  guard: GuardRules
  build: BenchBuild
  /** The base solution of paired A/B runs, as the spec names it (relative to the bench file). */
  compareWith?: string
}

/** The names a spec takes besides the measurement options. */
const SPEC_KEYS = [
  'problem',
  'solution',
  'dtype',
  'cases',
  'supports',
  'allowAboveRoofline',
  'build',
  'compareWith',
  'minTflops',
  'minGflops',
  'maxRuntimeMs',
  'minSolPercent',
] as const

/** Every name a kernelBench spec takes, for did-you-mean. */
const KERNEL_BENCH_KEYS: readonly string[] = [...SPEC_KEYS, ...Object.keys(DEFAULT_MEASURE_OPTIONS)]

/** Throws on the first key of `spec` that is not in `known`, with the known name closest to it. */
export function checkOptionNames(spec: object, known: readonly string[]): void {
  const unknown = Object.keys(spec).find((key) => !known.includes(key))
  if (unknown !== undefined) throw new Error(unknownOptionMessage(unknown, known))
}

const FROM_PROBLEMS = "pass a problem from 'vitest-kernel-bench/problems' (e.g. matmul) or one made with defineProblem()"

/** The spec's problem, or an error that says what was given instead and what to pass. */
function checkProblem(value: unknown): Problem {
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
function checkSolution(value: unknown, option = 'solution'): string {
  if (typeof value === 'string' && value.trim() !== '') return value
  throw new Error(
    `option ${option} must be the path of a .cu file, or of a TypeScript/JavaScript module exporting defineSolution(...), ` +
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
  const { problem: given, solution: path, dtype: requestedDtype, cases: selection, supports, allowAboveRoofline, build, compareWith, ...rest } = spec
  const problem = checkProblem(given)
  const solution = checkSolution(path)
  const base = compareWith === undefined ? undefined : checkSolution(compareWith, 'compareWith')
  const { floors, rest: measure } = splitFloors(rest)
  const allow = allowAboveRoofline ?? settings.allowAboveRoofline ?? false
  if (typeof allow !== 'boolean') throw new Error(`allowAboveRoofline must be true or false (got ${String(allow)})`)
  const dtype = problemDtype(problem, requestedDtype ?? problem.dtypes[0]!, 'option dtype')
  return {
    problem,
    solution,
    dtype,
    ...supportedCases(selectCases(problem, dtype, selection), supports),
    options: resolveMeasureOptions(settings.measure, measure, measureOptionsFromEnv(process.env)),
    guard: { floors, allowAboveRoofline: allow },
    build: build === undefined ? {} : checkBuild(build, solution),
    ...(base !== undefined && { compareWith: base }),
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
  const params = caseParams(problem, defaults)
  const cases = selection.map((c: unknown, index) => listedCase(problem, c, `option cases[${index}]`, defaults, params))
  const seen = new Set<string>()
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`option cases names two cases '${c.name}': a case's name is its key in the report and the baseline`)
    seen.add(c.name)
  }
  return cases
}

/** The cases `supports` accepts, and those it declines with the reason; declining every case is a mistake. */
function supportedCases(cases: readonly TestCase[], supports: unknown): Pick<ResolvedSpec, 'cases' | 'unsupported'> {
  if (supports === undefined) return { cases, unsupported: [] }
  if (typeof supports !== 'function') throw new Error(`option supports must be a function (c) => true | false | 'why not' (got ${shown(supports)})`)
  const kept: TestCase[] = []
  const unsupported: UnsupportedCase[] = []
  for (const c of cases) {
    const answer: unknown = supports(c)
    if (answer === true) kept.push(c)
    else if (answer === false || (typeof answer === 'string' && answer.trim() !== '')) {
      unsupported.push({ name: c.name, reason: answer === false ? 'not supported by the solution' : answer })
    } else throw new Error(`option supports returned ${shown(answer)} for case '${c.name}': return true, false or a reason (a string)`)
  }
  if (kept.length === 0) {
    throw new Error(`option supports declines every selected case: ${unsupported.map((u) => `'${u.name}' (${u.reason})`).join(', ')}`)
  }
  return { cases: kept, unsupported }
}

/**
 * The parameters a case of the problem must give (the signature's scalars and those every default case has) and
 * those it may give (any a default case has): a problem's `elements` may read sizes that are not in its signature.
 */
function caseParams(problem: Problem, defaults: readonly TestCase[]): { required: string[]; known: string[] } {
  const scalars = problem.signature.filter(isCaseScalar).map((p) => p.name)
  const keys = defaults.map((c) => Object.keys(c.params))
  const known = [...new Set([...scalars, ...keys.flat()])]
  return { required: known.filter((name) => scalars.includes(name) || keys.every((k) => k.includes(name))), known }
}

/**
 * A case of the spec's list: a default case's name, or a case of its own, checked against the problem's parameters
 * and sizes here so that a wrong one fails the collection rather than a GPU run.
 */
function listedCase(problem: Problem, c: unknown, label: string, defaults: readonly TestCase[], params: ReturnType<typeof caseParams>): TestCase {
  if (typeof c === 'string') {
    const found = defaults.find((d) => d.name === c)
    if (found) return found
    const suggestion = didYouMean(c, defaults.map((d) => d.name)) || ` (${problem.name}'s cases: ${defaults.map((d) => `'${d.name}'`).join(', ')})`
    throw new Error(`${label} names no case of ${problem.name}: '${c}'${suggestion}`)
  }
  const { name, params: values } = (c ?? {}) as Partial<TestCase>
  if (typeof name !== 'string' || name.trim() === '' || typeof values !== 'object' || values === null) {
    throw new Error(`${label} must be a default case's name or a test case { name: string, params: { … } } (got ${shown(c)})`)
  }
  const of = `${label} ('${name}')`
  const missing = params.required.filter((p) => values[p] === undefined)
  if (missing.length > 0) throw new Error(`${of} has no number for ${missing.map((n) => `'${n}'`).join(', ')}, a parameter of ${problem.name}`)
  for (const [key, value] of Object.entries(values)) {
    if (!params.known.includes(key)) {
      throw new Error(`${of} has an unknown parameter '${key}'${didYouMean(key, params.known)}; ${problem.name} takes ${params.known.map((n) => `'${n}'`).join(', ')}`)
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${of}: parameter '${key}' must be a finite number (got ${shown(value)})`)
    const scalar = problem.signature.find((p) => p.kind === 'scalar' && p.name === key)
    const ctype = scalar?.kind === 'scalar' ? scalar.ctype : undefined
    const unsigned = ctype === 'size_t' || ctype === 'uint64_t'
    if ((ctype === 'int' && !Number.isSafeInteger(value)) || (unsigned && !(Number.isSafeInteger(value) && value >= 0))) {
      throw new Error(`${of}: parameter '${key}' is ${ctype === 'int' ? 'an int' : `a ${ctype}`}: a whole number${unsigned ? ' >= 0' : ''} (got ${value})`)
    }
  }
  const testCase: TestCase = { name, params: values }
  // The sizes the problem derives from the params: a case the GPU could not allocate for fails here.
  const elements = problem.elements(testCase)
  for (const p of problem.signature.filter(isBuffer)) {
    try {
      elementsOf(elements, p.name)
    } catch (error) {
      throw new Error(`${of}: ${(error as Error).message}`)
    }
  }
  return testCase
}
