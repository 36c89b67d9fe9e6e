// A bench's compiles: the solution (a .cu file compiled against the problem's prototype, or a TypeScript/JavaScript
// module the device host imports) and the reference, cached by content hash (src/compile/). The runner starts a file's
// builds as soon as it is collected; without a GPU they still compile, for the CPU-only CI target.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { solutionAtRef } from '../compile/base-source.js'
import { cuptiNamesIn } from '../compile/cupti-names.js'
import { compileReference, type BuildSettings } from '../compile/harness.js'
import { compile, DEFAULT_NVCC_FLAGS, findNvcc, NvccNotFoundError, SourceError } from '../compile/nvcc.js'
import { typeCheck } from '../compile/typecheck.js'
import { engineProcess } from '../engine/worker/process-entry.js'
import type { CallTarget, ModuleTarget, ReferencePlan } from '../shared/messages.js'
import { MODULE_SOLUTION, TYPESCRIPT_SOLUTION } from '../spec/build.js'
import type { Dtype } from '../spec/dtype.js'
import type { Problem } from '../spec/problem.js'
import { cDecodePrototype, cPrototype, cPrototypeAlternatives, koffiDecodeParams, koffiParams } from '../spec/signature.js'
import { buildSettings, poolFor, type PluginSettings } from './plugin-settings.js'
import type { ResolvedSpec } from './resolve-spec.js'

export async function referencePlan(problem: Problem, dtype: Dtype, build: BuildSettings): Promise<ReferencePlan> {
  const reference = problem.reference
  if (reference.kind === 'gemm') return { kind: 'gemm', dtype }
  const entry = reference.entry ?? 'reference'
  // The decode function is compiled from the same file against its own prototype: a library each, both cached.
  const [library, decode] = await Promise.all([
    compileReference(reference.file, cPrototype(problem.signature, dtype, entry), dtype, build),
    problem.decode && compileReference(reference.file, cDecodePrototype(problem.signature, dtype, problem.decode.entry, problem.decode), dtype, build),
  ])
  return {
    kind: 'library',
    target: { library: library.path, source: reference.file, entry, params: koffiParams(problem.signature) },
    ...(decode && { decode: { library: decode.path, source: reference.file, entry: problem.decode!.entry, params: koffiDecodeParams(problem.signature) } }),
  }
}

class SolutionNotFoundError extends SourceError {}

/** The solution and the paths of its build settings, absolute. */
export interface SolutionFiles {
  file: string
  includeDirs: readonly string[]
  sources: readonly string[]
}

/**
 * The solution's absolute path and its build settings' folders and sources; a missing one fails with the bench that
 * names it and where it was looked for.
 */
export function solutionFiles(name: string, spec: ResolvedSpec, benchFile: string): SolutionFiles {
  const found = (option: string, relative: string, what: string) => {
    const file = path.resolve(path.dirname(benchFile), relative)
    if (!fs.existsSync(file)) {
      throw new SolutionNotFoundError(
        `${what} not found: ${file}\n` +
          `  kernelBench '${name}' in ${path.basename(benchFile)} names ${option} '${relative}', ` +
          "which is resolved against the bench file's folder",
      )
    }
    return file
  }
  return {
    file: found('solution', spec.solution, 'solution file'),
    includeDirs: (spec.build.includeDirs ?? []).map((dir) => found('build.includeDirs', dir, 'include folder')),
    sources: (spec.build.sources ?? []).map((source) => found('build.sources', source, 'build source')),
  }
}

/** The base solution of paired A/B runs: its files and how reports name it, or why this bench has none. */
export type BaseSolution = { files: SolutionFiles; label: string } | { missing: string; label: string }

/**
 * The bench's base solution, when it has one: the spec's `compareWith`, else the solution as it was at the plugin's
 * `compare.ref` (its include folders and extra sources too).
 */
export function baseSolutionFiles(name: string, spec: ResolvedSpec, benchFile: string, settings: PluginSettings): BaseSolution | undefined {
  if (spec.compareWith !== undefined) {
    const { file } = solutionFiles(name, { ...spec, solution: spec.compareWith }, benchFile)
    return { files: { ...solutionFiles(name, spec, benchFile), file }, label: spec.compareWith }
  }
  const ref = settings.compare?.ref
  if (ref === undefined) return undefined
  const current = solutionFiles(name, spec, benchFile)
  const base = solutionAtRef(current.file, ref, settings.cacheDir)
  if ('missing' in base) return { missing: base.missing, label: ref }
  const files = { file: base.file, includeDirs: current.includeDirs.map(base.at), sources: current.sources.map(base.at) }
  return { files, label: `${ref} (${base.commit.slice(0, 10)})` }
}

/**
 * A .cu solution compiled against the problem's prototype, or a TypeScript/JavaScript solution module that the
 * device host imports. Graph timing needs launches it can capture: `<<<>>>` then goes to the per-thread default
 * stream, because the legacy stream cannot be captured.
 */
export async function solutionTarget(
  spec: ResolvedSpec,
  { file, includeDirs, sources }: SolutionFiles,
  settings: PluginSettings,
  build: BuildSettings,
): Promise<CallTarget | ModuleTarget> {
  if (MODULE_SOLUTION.test(file)) return { module: file }
  const { problem, dtype, options } = spec
  const flags = [
    ...(settings.nvccFlags ?? DEFAULT_NVCC_FLAGS),
    ...(options.timing === 'graph' ? ['--default-stream', 'per-thread'] : []),
    ...(spec.build.flags ?? []),
  ]
  const compiled = await compile({
    source: file,
    prototype: cPrototype(problem.signature, dtype),
    alternatives: cPrototypeAlternatives(problem.signature, dtype),
    flags,
    defines: spec.build.defines,
    includeDirs,
    sources,
    libraries: spec.build.libraries,
    ...build,
  })
  const cupti = cuptiNamesIn(compiled.path)
  if (cupti.length > 0) {
    throw new SolutionUsesCupti(
      `the library built from ${file} names CUPTI (${cupti.join(', ')}): CUPTI belongs to the harness, which times and ` +
        'audits with it and holds its only callback subscriber while solutions run, so a solution may not subscribe to ' +
        'its callbacks or enable its activity. Remove the CUPTI calls; profile the kernel with Nsight Compute or ' +
        'Nsight Systems instead',
    )
  }
  return { library: compiled.path, source: file, entry: 'solution', params: koffiParams(problem.signature) }
}

/** A solution library that reaches for CUPTI (cupti-names.ts): refused before it is loaded. */
class SolutionUsesCupti extends SourceError {}

/**
 * What CPU-only CI compiles for when the plugin names no `arch`: Hopper's arch-specific target, which accepts
 * everything up to wgmma and setmaxnreg. A kernel for another GPU family sets the `arch` option.
 */
const CPU_ONLY_ARCH = 'sm_90a'

class SolutionImportError extends SourceError {}

/** Longer than tsx needs to import a solution and its imports, short enough that a module that hangs fails the bench. */
const IMPORT_CHECK_TIMEOUT_MS = 60_000

/**
 * Without a GPU, a TypeScript/JavaScript solution is type-checked (TypeScript only) and imported in a process of its
 * own, which checks that its default export is defineSolution(...). Setup needs a GPU, so the per-call function's
 * parameters are not matched to the problem's signature. Returns what was checked, for the skip reason.
 */
export async function checkModuleSolution(file: string, benchFile: string): Promise<string> {
  const notTypeChecked = TYPESCRIPT_SOLUTION.test(file) ? typeCheck(file, benchFile) : 'JavaScript'
  const check = engineProcess('solution-check')
  try {
    await promisify(execFile)(process.execPath, [...check.execArgv, check.file, file], { timeout: IMPORT_CHECK_TIMEOUT_MS })
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string }
    throw new SolutionImportError(`importing the solution failed: ${stderr?.trim() || message}`)
  }
  return notTypeChecked === undefined ? 'solution imported and type-checked' : `solution imported, not type-checked (${notTypeChecked})`
}

/**
 * CPU-only CI: without a GPU the solution and reference still compile, so a compile error, a signature mismatch
 * or a missing file fails here, with the compiler's file and line; a TypeScript solution is type-checked and
 * imported. Returns what was checked, for the skip reason.
 */
export async function compileWithoutGpu(spec: ResolvedSpec, files: SolutionFiles, settings: PluginSettings, benchFile: string): Promise<string> {
  if (settings.compileWithoutGpu === false) return 'nothing compiled (compileWithoutGpu is off); verification and timing need a GPU'
  const module = MODULE_SOLUTION.test(files.file)
  const checked = module ? [await checkModuleSolution(files.file, benchFile)] : []
  const arch = settings.arch ?? CPU_ONLY_ARCH
  try {
    findNvcc(settings.nvcc)
  } catch (error) {
    if (!(error instanceof NvccNotFoundError)) throw error
    return [...checked, 'nvcc not found either, so nothing was compiled'].join('; ')
  }
  const build = buildSettings(settings, arch)
  const compiled: string[] = []
  if (!module) {
    await solutionTarget(spec, files, settings, build)
    compiled.push('solution')
  }
  // A cuBLAS reference has nothing to compile.
  if ((await referencePlan(spec.problem, spec.dtype, build)).kind === 'library') compiled.push('reference')
  if (compiled.length > 0) checked.push(`${compiled.join(' and ')} compiled and signature-checked for ${arch}`)
  return `${checked.join('; ')}; verification and timing need a GPU`
}

/**
 * Starts compiling a bench's solution and reference as soon as its file is collected (the runner calls it for
 * every bench that will run), so all of a file's compiles run at once, bounded by compileJobs across processes,
 * and the first benches run while the rest compile. prepareKernelBench asks compile() for the same libraries and
 * is given these builds, errors included: it reports them, so here they are dropped.
 */
export function startCompiles(name: string, resolved: ResolvedSpec, benchFile: string, settings: PluginSettings): void {
  const start = async () => {
    const files = solutionFiles(name, resolved, benchFile)
    const status = await poolFor(settings).ready()
    // Without a GPU, the CPU-only CI target; a GPU that failed to come up fails the bench when it runs.
    const arch = status.available ? status.arch : status.noGpu && settings.compileWithoutGpu !== false ? (settings.arch ?? CPU_ONLY_ARCH) : undefined
    if (arch === undefined) return
    const build = buildSettings(settings, arch)
    await Promise.allSettled([solutionTarget(resolved, files, settings, build), referencePlan(resolved.problem, resolved.dtype, build)])
  }
  start().catch(() => {})
}
