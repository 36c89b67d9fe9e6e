// One kernelBench made ready in a Vitest worker: the GPUs brought up (or the reason none is usable, after compiling
// for CPU-only CI), the device records of a timed run, the solution and reference compiled once, and a function
// that runs one case on a free GPU and collects its outcome with the case's figures.
import { findNvcc } from '../compile/nvcc.js'
import type { GpuPool } from '../engine/worker/gpu-pool.js'
import { findSanitizer } from '../engine/worker/sanitizer.js'
import { unsupportedNote } from '../report/kernel-table.js'
import type { BuildSettings } from '../compile/harness.js'
import type { CaseOutcome, CasePlan, ReferencePlan } from '../shared/messages.js'
import { RESULT_SCHEMA_VERSION, type CaseResult, type KernelBenchResult } from '../shared/results.js'
import { withRest } from '../shared/phases.js'
import { summarize, type SampleSummary } from '../shared/stats.js'
import { DEFAULT_COMPARE, PAIRED_TIMING, type CompareSettings } from '../spec/compare.js'
import type { MeasureOptions } from '../spec/options.js'
import type { TestCase } from '../spec/problem.js'
import { casePlanner, type CasePlanner } from './case-plan.js'
import { baseSolutionFiles, compileWithoutGpu, referencePlan, solutionFiles, solutionTarget } from './compile-bench.js'
import { deviceRecords } from './device-records.js'
import { fileWork, type FileWork } from './file-work.js'
import { buildSettings, poolFor, type PluginSettings } from './plugin-settings.js'
import type { ResolvedSpec } from './resolve-spec.js'

export interface BenchContext {
  /** Absolute path of the bench file: relative solution paths start there. */
  file: string
  mode: 'verify' | 'bench'
  settings: PluginSettings
  /** Told before each case runKernelBench runs (index from 0), so a long bench can show how far it is. */
  onCase?(index: number, total: number, caseName: string): void
}

/** A kernelBench compiled and ready to run test cases on the GPU (or skipped where there is none). */
export interface PreparedKernelBench {
  /** The result with no cases yet; `skipped` says why nothing can run. */
  header: KernelBenchResult
  /** The test cases the spec selects. */
  cases: readonly TestCase[]
  /**
   * Verifies one case (and in bench mode times it). Rejects on a skipped bench. `extraLane`: run by a bench's second or
   * later lane, which yields GPUs to other benches (GpuPool.run).
   */
  runCase(c: TestCase, extraLane?: boolean): Promise<CaseResult>
  /** Verifies one case under compute-sanitizer's memcheck: its first bad access fails it. */
  sanitizeCase(c: TestCase): Promise<CaseResult>
}

/** Memcheck makes kernels many times slower. */
const SANITIZER_SLOWDOWN = 20

/** The result name of a case verified under memcheck, apart from its ordinary run. */
export const memcheckName = (c: TestCase) => `${c.name} · memcheck`

function emptyResult(name: string, spec: ResolvedSpec, mode: BenchContext['mode']): KernelBenchResult {
  const { problem, solution, dtype, options, unsupported } = spec
  const declined = unsupported.length > 0 ? { unsupported: [...unsupported] } : {}
  return { version: RESULT_SCHEMA_VERSION, bench: name, problem: problem.name, solution, dtype, mode, options, ...declined, cases: [] }
}

function skippedBench(header: KernelBenchResult, cases: readonly TestCase[], reason: string): PreparedKernelBench {
  // A GPU-less run still shows which cases the bench would run.
  const selected = `${cases.length === 1 ? 'case' : `${cases.length} cases`} selected: ${cases.map((c) => `'${c.name}'`).join(', ')}`
  const unsupported = unsupportedNote(header)
  const skipped = `${reason} — ${selected}${unsupported ? `; ${unsupported}` : ''}`
  const rejected = () => Promise.reject(new Error(`'${header.bench}' is skipped: ${skipped}`))
  return { header: { ...header, skipped, selected: cases.map((c) => c.name) }, cases, runCase: rejected, sanitizeCase: rejected }
}

/** Runs one case of a compiled bench on a free GPU of the pool and collects its outcome with the case's figures. */
type CaseRunner = (c: TestCase, mode: CasePlan['mode'], options: MeasureOptions, sanitizer?: string, extraLane?: boolean) => Promise<CaseResult>

/** The compiled base of paired A/B runs: its case plans, and how rounds run. */
interface PairedBase {
  plan: CasePlanner
  settings: CompareSettings
}

/** The kept samples' statistics of a timed outcome. */
function timedSummary(outcome: CaseOutcome): SampleSummary | undefined {
  return outcome.status === 'ok' && outcome.timing && outcome.timing.samplesMs.length > 0 ? summarize(outcome.timing.samplesMs) : undefined
}

function caseRunner(spec: ResolvedSpec, plan: CasePlanner, pool: GpuPool, work: FileWork, base?: PairedBase): CaseRunner {
  const { problem, dtype } = spec
  return async (c, mode, options, sanitizer, extraLane) => {
    const start = performance.now()
    // Only a timed case is paired: a verification or a memcheck run has nothing to compare. Paired rounds are timed
    // with 'cupti', the one mode measured in paired runs (docs/ci-gate.md#paired-ab).
    const paired = base !== undefined && mode === 'bench' && !sanitizer
    const timedOptions = paired ? { ...options, timing: PAIRED_TIMING } : options
    const headPlan = plan(c, mode, timedOptions)
    const claim = { extraLane, workLeftMs: work.leftMs() }
    const pairedRun = paired ? await pool.runPaired(headPlan, base.plan(c, mode, timedOptions), base.settings, claim) : undefined
    const { outcome, gpu, claimed, phases } = pairedRun ?? (await pool.run(headPlan, { ...claim, sanitizer }))
    work.add(claimed.toMs - claimed.fromMs)
    const result: CaseResult = {
      name: c.name,
      params: { ...c.params },
      gpu,
      claimed,
      flops: problem.flops(c),
      bytes: problem.bytes(c, dtype),
      outcome,
      phases: withRest(phases, performance.now() - start),
    }
    const summary = timedSummary(outcome)
    if (summary) result.summary = summary
    if (pairedRun) {
      const { base: baseOutcome, rounds } = pairedRun.paired
      const baseSummary = timedSummary(baseOutcome)
      result.paired = { base: { outcome: baseOutcome, ...(baseSummary && { summary: baseSummary }) }, ...(rounds && { rounds }) }
    }
    return result
  }
}

/**
 * The base solution of paired A/B runs compiled, or undefined when the bench has none; `header.compare` says which
 * base it is, or why there is none at the plugin's ref.
 */
async function pairedBase(name: string, spec: ResolvedSpec, context: BenchContext, header: KernelBenchResult, build: BuildSettings, reference: ReferencePlan): Promise<PairedBase | undefined> {
  const { settings } = context
  const found = context.mode === 'bench' ? baseSolutionFiles(name, spec, context.file, settings) : undefined
  if (!found) return undefined
  const compare = settings.compare ?? DEFAULT_COMPARE
  header.compare = { base: found.label, tolerance: compare.tolerance, confidence: compare.confidence, processSpread: compare.processSpread }
  if ('missing' in found) {
    header.compare.missing = found.missing
    return undefined
  }
  const target = await solutionTarget(spec, found.files, settings, build)
  return { plan: casePlanner(name, spec, target, reference), settings: compare }
}

/** The GPU time the bench's file still needs (file-work.ts): timed cases, and paired ones, hold a GPU longer. */
export function benchFileWork({ settings, file, mode }: BenchContext): FileWork {
  return fileWork(settings.cacheDir, file, settings.compare && mode === 'bench' ? 'bench+compare' : mode)
}

/** Starts the device host and compiles the solution and reference once, for any number of cases. */
export async function prepareKernelBench(name: string, spec: ResolvedSpec, context: BenchContext): Promise<PreparedKernelBench> {
  const { options, cases } = spec
  const header = emptyResult(name, spec, context.mode)
  const files = solutionFiles(name, spec, context.file)
  const { settings } = context
  const pool = poolFor(settings)
  const status = await pool.ready()
  if (!status.available) {
    if (!status.noGpu) throw new Error(`the GPU could not be prepared: ${status.reason}`)
    // The bench waited for its compiles here too: the run's time line counts them (src/report/phases.ts).
    const compiling = performance.now()
    const checked = await compileWithoutGpu(spec, files, settings, context.file)
    header.phases = { compile: performance.now() - compiling }
    return skippedBench(header, cases, `no usable CUDA GPU: ${status.reason} — ${checked}`)
  }
  // Only a timed result is shown against the GPU's ceilings and calibration.
  const records = context.mode === 'bench' ? await deviceRecords(pool, status.device, settings, options) : {}
  const devices = status.devices.map(({ index, pciBusId, uuid }) => ({ index, pciBusId, uuid }))
  Object.assign(header, { device: status.device, devices, arch: status.arch, ...records })

  const build = buildSettings(settings, status.arch)
  // Both builds were started when the file was collected (startCompiles): the solution's error comes first.
  const compiling = performance.now()
  const solution = await solutionTarget(spec, files, settings, build)
  const reference = await referencePlan(spec.problem, spec.dtype, build)
  const base = await pairedBase(name, spec, context, header, build, reference)
  header.phases = { compile: performance.now() - compiling }
  const run = caseRunner(spec, casePlanner(name, spec, solution, reference), pool, benchFileWork(context), base)
  const sanitizeCase = async (c: TestCase): Promise<CaseResult> => {
    const slow = { ...options, caseTimeoutMs: options.caseTimeoutMs * SANITIZER_SLOWDOWN }
    return { ...(await run(c, 'verify', slow, findSanitizer(findNvcc(settings.nvcc)))), name: memcheckName(c) }
  }
  return { header, cases, runCase: (c, extraLane) => run(c, context.mode, options, undefined, extraLane), sanitizeCase }
}
