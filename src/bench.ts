// Runs one kernelBench in a Vitest worker: compiles the solution and reference, turns each test case into a
// plan for the device host, and collects the outcomes into a KernelBenchResult.
import crypto from 'node:crypto'
import path from 'node:path'
import type { BaselineSettings } from './baseline/guard.js'
import type { Floors } from './baseline/verdict.js'
import { compileReference, type BuildSettings } from './compile/harness.js'
import { compile } from './compile/nvcc.js'
import { parseDtype, type Dtype } from './dtype.js'
import { deviceHost } from './engine/client.js'
import type { ArgPlan, CallTarget, CasePlan, ReferencePlan } from './engine/protocol.js'
import { summarize } from './engine/stats.js'
import { resolveMeasureOptions, type MeasureOptions } from './options.js'
import { elementsOf, toleranceFor, type Problem, type TestCase } from './problem.js'
import { RESULT_SCHEMA_VERSION, type CaseResult, type KernelBenchResult } from './results.js'
import { cPrototype, koffiParams, paramDtype } from './signature.js'

/**
 * A kernel benchmark. Besides the problem, solution, dtype and cases it takes any measurement option (overriding
 * the plugin's) and CI floors (`vitest bench` only; each applies to every timed case, a violation fails the run):
 * `minTflops`, `minGflops` (throughput from the median runtime), `maxRuntimeMs` (median runtime) and
 * `minSolPercent` (% of the roofline floor; ignored on GPUs without known peaks).
 */
export interface KernelBenchSpec extends Partial<MeasureOptions>, Floors {
  problem: Problem
  /** The .cu file with `extern "C" void solution(...)`, relative to the bench file. */
  solution: string
  /** Element type; default 'float32'. */
  dtype?: Dtype
  /** Replace the problem's default cases (array), or keep only those a predicate accepts. */
  cases?: readonly TestCase[] | ((c: TestCase) => boolean)
}

/** What the plugin passes to every worker (see plugin.ts). */
export interface PluginSettings {
  device: number
  cacheDir: string
  nvcc?: string
  arch?: string
  nvccFlags?: string[]
  measure: Partial<MeasureOptions>
  /** The CI guard: tolerance, noise factor and where the baseline files live (the plugin sets it; defaults apply). */
  baseline?: BaselineSettings
}

export interface BenchContext {
  /** Absolute path of the bench file: relative solution paths start there. */
  file: string
  mode: 'verify' | 'bench'
  settings: PluginSettings
}

/** A spec's floors apart from everything else; each floor must be a finite number >= 0. */
export function splitFloors<T extends Floors>(spec: T): { floors: Floors; rest: Omit<T, keyof Floors> } {
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

function selectCases(problem: Problem, dtype: Dtype, selection: KernelBenchSpec['cases']): readonly TestCase[] {
  const defaults = problem.cases(dtype)
  const cases = selection === undefined ? defaults : typeof selection === 'function' ? defaults.filter(selection) : selection
  if (cases.length === 0) throw new Error(`no test cases selected for problem '${problem.name}'`)
  return cases
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
    const count = elementsOf(elements, p.name)
    const elementType = paramDtype(p, dtype)
    return p.kind === 'input'
      ? { kind: 'input', name: p.name, dtype: elementType, count, range: problem.inputRange }
      : { kind: 'output', name: p.name, dtype: elementType, count }
  })
}

function referencePlan(problem: Problem, dtype: Dtype, build: BuildSettings): ReferencePlan {
  const reference = problem.reference
  if (reference.kind === 'gemm') return { kind: 'gemm', dtype }
  const entry = reference.entry ?? 'reference'
  const library = compileReference(reference.file, cPrototype(problem.signature, dtype, entry), dtype, build)
  return { kind: 'library', target: { library: library.path, entry, params: koffiParams(problem.signature) } }
}

export async function runKernelBench(name: string, spec: KernelBenchSpec, context: BenchContext): Promise<KernelBenchResult> {
  const { problem, solution, dtype: requestedDtype, cases: selection, ...rest } = spec
  // Floors are checked here but applied by the runner's CI guard (src/baseline/guard.ts), after timing.
  const { rest: specOptions } = splitFloors(rest)
  const dtype = parseDtype(requestedDtype ?? 'float32')
  const tolerance = toleranceFor(problem, dtype)
  const options = resolveMeasureOptions(context.settings.measure, specOptions)
  const cases = selectCases(problem, dtype, selection)
  const result: KernelBenchResult = {
    version: RESULT_SCHEMA_VERSION,
    bench: name,
    problem: problem.name,
    solution,
    dtype,
    mode: context.mode,
    options,
    cases: [],
  }

  const { device, cacheDir, nvcc, arch: archOverride } = context.settings
  const host = deviceHost({ device, cacheDir, nvcc, arch: archOverride })
  const status = await host.ready()
  if (!status.available) {
    if (status.noGpu) return { ...result, skipped: `no usable CUDA GPU: ${status.reason}` }
    throw new Error(`the GPU could not be prepared: ${status.reason}`)
  }
  result.device = status.device
  result.arch = status.arch

  const build: BuildSettings = { arch: status.arch, cacheDir, nvcc }
  const compiled = compile({
    source: path.resolve(path.dirname(context.file), solution),
    prototype: cPrototype(problem.signature, dtype),
    flags: context.settings.nvccFlags,
    ...build,
  })
  const target: CallTarget = { library: compiled.path, entry: 'solution', params: koffiParams(problem.signature) }
  const reference = referencePlan(problem, dtype, build)

  for (const c of cases) {
    const plan: CasePlan = {
      benchName: name,
      caseName: c.name,
      seed: caseSeed(problem.name, c.name),
      args: argPlans(problem, dtype, c),
      tolerance,
      solution: target,
      reference,
      mode: context.mode,
      options,
    }
    const outcome = await host.run(plan)
    const caseResult: CaseResult = {
      name: c.name,
      params: { ...c.params },
      flops: problem.flops(c),
      bytes: problem.bytes(c, dtype),
      outcome,
    }
    if (outcome.status === 'ok' && outcome.timing && outcome.timing.samplesMs.length > 0) {
      caseResult.summary = summarize(outcome.timing.samplesMs)
    }
    result.cases.push(caseResult)
  }
  return result
}
