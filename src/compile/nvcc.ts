// The nvcc driver: turns a .cu file into a shared library that koffi can load. Results are cached by a hash of
// everything that affects the output; errors are reported with the user's file and line.
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { waitForLock, waitForLockSync, type Attempt } from '../cache/lock-file.js'
import { DEFAULT_TOOLKIT_ROOTS, findOnPath, toolkitRoots } from './toolkit.js'
import { CUDA_LIBRARIES } from '../spec/build.js'
import type { ElementAlias } from '../spec/signature.js'
import { jobSlotsDir, resolveCompileJobs, tryJobSlot, tryLibraryLock } from '../cache/build-locks.js'

export class NvccNotFoundError extends Error {
  constructor(looked: readonly string[]) {
    super(
      `nvcc not found. Looked in:\n${looked.map((p) => `  - ${p}`).join('\n')}\n` +
        'Install the CUDA toolkit, put its bin folder on PATH, set CUDA_HOME, or pass the `nvcc` option to kernelBenchPlugin().',
    )
    this.name = 'NvccNotFoundError'
  }
}

/**
 * An error in the user's source, reported with their file and line: where in this package it was noticed is of no
 * use to them, so the stack is the message alone (Vitest then prints no code frame of ours).
 */
export class SourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = new.target.name
    this.stack = `${this.name}: ${message}`
  }
}

export interface CompilerDiagnostic {
  file: string
  line: number
  message: string
}

export class CompileError extends SourceError {
  constructor(
    readonly source: string,
    readonly diagnostics: readonly CompilerDiagnostic[],
    readonly log: string,
    /** What to do about it, where the log tells (a missing header). */
    hint?: string,
  ) {
    const first = diagnostics[0]
    const where = first ? `${first.file}:${first.line}` : source
    super(
      `nvcc failed to compile ${where}\n` +
        (diagnostics.length
          ? diagnostics.map((d) => `  ${d.file}:${d.line}: ${d.message}`).join('\n')
          : log.trim().split('\n').slice(-20).join('\n')) +
        (hint ? `\n${hint}` : ''),
    )
  }
}

/** The library compiled but does not link: symbols defined nowhere (`-z defs`), or a library the linker lacks. */
export class LinkError extends SourceError {
  constructor(
    readonly source: string,
    readonly undefinedSymbols: readonly string[],
    readonly log: string,
  ) {
    const missing = [...log.matchAll(/cannot find -l(\S+?):/g)].map((m) => m[1]!)
    const lines = [
      ...missing.map((name) => {
        const known = CUDA_LIBRARIES.find((l) => l.name === name)
        return `the linker found no library '${name}' (lib${name}.so)${known ? `: install the CUDA toolkit's ${known.title} package next to nvcc` : ''}`
      }),
      ...(undefinedSymbols.length ? [`undefined symbols: ${undefinedSymbols.join(', ')}`, ...undefinedSymbols.map(symbolHint).filter(unique)] : []),
    ]
    super(`${path.basename(source)} compiled but does not link:\n${lines.map((l) => `  ${l}`).join('\n')}`)
  }
}

function unique(item: string, index: number, items: readonly string[]): boolean {
  return items.indexOf(item) === index
}

function symbolHint(symbol: string): string {
  const library = CUDA_LIBRARIES.find((l) => symbol.startsWith(l.prefix))
  return library
    ? `${symbol} is ${library.title}'s: link it with the bench's build: { libraries: ['${library.name}'] }`
    : `${symbol} is defined in none of the solution's files: add the file that defines it to build.sources, or its library to build.libraries`
}

/** What to do about a header the compiler could not find: which toolkit package has it, or build.includeDirs. */
function missingHeaderHint(log: string): string | undefined {
  // The host compiler preprocesses, so the message is gcc's.
  const header = /fatal error: ([^\s:]+): No such file or directory/.exec(log)?.[1]
  if (!header) return undefined
  const library = CUDA_LIBRARIES.find((l) => path.basename(header).startsWith(l.prefix))
  const install = library
    ? `it is ${library.title}'s, which this CUDA toolkit lacks (CPU-only CUDA images often do): install the toolkit's ` +
      `${library.title} development package (apt: ${library.dev}-X-Y for CUDA X.Y), or `
    : ''
  return `header ${header} not found: ${install}give the folder that holds it in the bench's build: { includeDirs: [...] } (relative to the bench file)`
}

/** The solution's parameters do not match the problem's signature (found by the compiler, see wrapperSource). */
export class SignatureMismatchError extends SourceError {
  constructor(source: string, expected: string, found: CompilerDiagnostic | undefined) {
    super(
      `${path.basename(source)}: the solution's signature does not match the problem.\n` +
        `  expected: extern "C" ${expected};\n` +
        (found ? `  found at ${found.file}:${found.line}: ${found.message}` : `  found: no such function in ${source}`),
    )
  }
}

/** Where the user's file declares the entry point, to show next to the expected prototype. */
function findDeclaration(source: string, text: string, entry: string): CompilerDiagnostic | undefined {
  const lines = text.split('\n')
  const index = lines.findIndex((line) => new RegExp(`\\b${entry}\\s*\\(`).test(line))
  return index < 0 ? undefined : { file: source, line: index + 1, message: (lines[index] ?? '').trim() }
}

/**
 * The nvcc to run: the explicit path, then CUDA_HOME / CUDA_PATH, then PATH, then the toolkit roots (see
 * toolkitRoots; `defaultRoots` replaces /usr/local/cuda). Throws NvccNotFoundError listing every place looked.
 */
export function findNvcc(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  defaultRoots: readonly string[] = DEFAULT_TOOLKIT_ROOTS,
): string {
  // An nvcc the user named must be the one used: falling back silently would compile with another toolkit.
  if (explicit) {
    if (isExecutable(explicit)) return explicit
    throw new NvccNotFoundError([`${explicit} (the nvcc option): not an executable file`])
  }
  const looked: string[] = []
  const candidates = ['CUDA_HOME', 'CUDA_PATH'].flatMap((v) => (env[v] ? [path.join(env[v], 'bin', 'nvcc')] : []))
  for (const candidate of candidates) {
    looked.push(candidate)
    if (isExecutable(candidate)) return candidate
  }
  looked.push('nvcc on PATH')
  const onPath = findOnPath('nvcc', env)
  if (onPath) return onPath
  for (const root of toolkitRoots(env, defaultRoots)) {
    const candidate = path.join(root, 'bin', 'nvcc')
    if (looked.includes(candidate)) continue
    looked.push(candidate)
    if (isExecutable(candidate)) return candidate
  }
  throw new NvccNotFoundError(looked)
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/** nvcc's target for a compute capability: the arch-specific variant ('a') from Hopper on, so wgmma and setmaxnreg work. */
export function archForComputeCapability(computeCapability: string): string {
  const [major, minor] = computeCapability.split('.').map(Number)
  if (major === undefined || minor === undefined || Number.isNaN(major) || Number.isNaN(minor)) {
    throw new Error(`bad compute capability '${computeCapability}'`)
  }
  return `sm_${major}${minor}${major >= 9 ? 'a' : ''}`
}

/** -gencode for one target: the long form, because `-arch=sm_90a` also runs a plain sm_90 pass in nvcc 13.0. */
export function gencodeFlag(arch: string): string {
  const match = /^sm_(\d+[a-z]?)$/.exec(arch)
  if (!match) throw new Error(`bad GPU architecture '${arch}': expected e.g. sm_90a or sm_80`)
  return `-gencode=arch=compute_${match[1]},code=sm_${match[1]}`
}

// nvcc's front end prints `file(12): error: …`; the host compiler and linker print `file:12:5: error: …`.
const DIAGNOSTIC = /^(.+?)(?:\((\d+)\)|:(\d+)(?::\d+)?):\s*(?:fatal\s+)?(error|warning)\s*:?\s*(.*)$/

export function parseDiagnostics(log: string): CompilerDiagnostic[] {
  const diagnostics: CompilerDiagnostic[] = []
  for (const line of log.split('\n')) {
    const m = DIAGNOSTIC.exec(line.trim())
    if (!m || m[4] !== 'error') continue
    diagnostics.push({ file: m[1] ?? '', line: Number(m[2] ?? m[3]), message: (m[5] ?? '').trim() })
  }
  return diagnostics
}

export interface CompileRequest {
  /** Absolute path of the .cu file. */
  source: string
  /** The exact C prototype the caller will use, e.g. `void solution(const float* a, float* c, size_t n)`. */
  prototype?: string
  /** Other spellings of the same prototype the solution may use instead (see compile). */
  alternatives?: readonly string[]
  /** Preprocessor definitions, e.g. { KB_T: 'float' } for a reference written for any dtype; true defines the name alone. */
  defines?: Readonly<Record<string, string | number | true>>
  /** Absolute folders searched for headers. */
  includeDirs?: readonly string[]
  /** Absolute paths of more files compiled and linked into the library. */
  sources?: readonly string[]
  /** Libraries linked in (`-l<name>`). */
  libraries?: readonly string[]
  arch: string
  flags?: readonly string[]
  nvcc?: string
  cacheDir: string
  /** At most this many nvcc processes at once on this host (default: resolveCompileJobs). */
  jobs?: number
  /** The folder of the job slots that bound nvcc processes (default: one per user on this host, see jobSlotsDir). */
  jobSlots?: string
  /** How long one nvcc run may take, counted from its start (waiting for a slot does not count). */
  timeoutMs?: number
}

/** nvcc compiles a solution in seconds; ten minutes of its own run means it hangs, whatever the machine's load. */
export const NVCC_TIMEOUT_MS = 600_000

export interface CompiledLibrary {
  path: string
  cached: boolean
}

/** How the harness's own native code (cuda/) is optimised. */
export const HARNESS_NVCC_FLAGS: readonly string[] = ['-O3', '-lineinfo']

// Solutions and references: C++20 as Tensara's build has it (`nvcc -std=c++20 -O2`), so a solution written for
// Tensara compiles unchanged (nvcc's own default is C++17).
export const DEFAULT_NVCC_FLAGS: readonly string[] = ['-std=c++20', ...HARNESS_NVCC_FLAGS]

/** What the wrapper includes in front of every solution: the types of every dtype's C spelling. */
export const WRAPPER_INCLUDES: readonly string[] = [
  '#include <cuda_runtime.h>',
  '#include <cuda_fp16.h>',
  '#include <cuda_bf16.h>',
  '#include <stddef.h>',
  '#include <stdint.h>',
]

/** The header of each element alias (ElementAlias) a prototype spelling may use. */
const ALIAS_HEADERS: Readonly<Record<ElementAlias, string>> = { __nv_fp8_e4m3: '#include <cuda_fp8.h>' }

/**
 * What a prototype spelling needs beyond WRAPPER_INCLUDES: the headers of the element aliases it uses (only there, so
 * every other solution compiles without them).
 */
export function spellingIncludes(prototype: string | undefined): string[] {
  return Object.entries(ALIAS_HEADERS).flatMap(([alias, header]) => (prototype?.includes(alias) ? [header] : []))
}

/**
 * The translation unit nvcc compiles: the user's file, then the prototype the harness will call through koffi.
 * A solution declared with other parameter types (or without extern "C") conflicts with that declaration, so
 * the compiler itself reports a signature mismatch, at the user's line.
 */
export function wrapperSource(req: CompileRequest): string {
  const lines = [...WRAPPER_INCLUDES, ...spellingIncludes(req.prototype), `#include ${JSON.stringify(req.source)}`]
  if (req.prototype) {
    const entry = entryName(req.prototype)
    // Taking the address makes a file that never defines the entry point fail to link (-z defs).
    lines.push(`${PROTOTYPE_MARKER}\nextern "C" ${req.prototype};`, `__attribute__((used)) static void* kb_entry = (void*)&${entry};`)
  }
  return lines.join('\n') + '\n'
}

function entryName(prototype: string): string {
  const name = /^void\s+(\w+)\s*\(/.exec(prototype)?.[1]
  if (!name) throw new Error(`bad prototype '${prototype}'`)
  return name
}

const PROTOTYPE_MARKER = '// vitest-kernel-bench: the signature the problem expects'

function nvccArgs(req: CompileRequest, input: string, output: string): string[] {
  return [
    ...(req.flags ?? DEFAULT_NVCC_FLAGS),
    gencodeFlag(req.arch),
    '-shared',
    '-Xcompiler',
    '-fPIC',
    // One CUDA runtime in the process: the one koffi loaded (a static copy per library would be separate).
    '-cudart',
    'shared',
    // A library that lacks the entry point (or anything else) fails here, not at load time.
    '-Xlinker',
    '-z,defs',
    ...Object.entries(req.defines ?? {}).map(([k, v]) => (v === true ? `-D${k}` : `-D${k}=${v}`)),
    ...(req.includeDirs ?? []).map((dir) => `-I${dir}`),
    '-o',
    output,
    input,
    ...(req.sources ?? []),
    // After the inputs, which the linker resolves against them.
    ...(req.libraries ?? []).map((name) => `-l${name}`),
  ]
}

const INCLUDE = /^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)/gm

/**
 * The text of every file a source includes, transitively, as the compiler finds it: a quoted name next to the
 * including file, then in `includeDirs`; a bracketed one in `includeDirs` only. An edited header must change the
 * cache key. (Other system headers belong to the toolkit, which the nvcc path covers.)
 */
export function includedTexts(file: string, text: string, includeDirs: readonly string[] = [], seen = new Set<string>([path.resolve(file)])): string[] {
  const texts: string[] = []
  for (const [, quoted, bracketed] of text.matchAll(INCLUDE)) {
    const folders = quoted === undefined ? includeDirs : [path.dirname(file), ...includeDirs]
    const included = folders.map((dir) => path.resolve(dir, (quoted ?? bracketed)!)).find((candidate) => fs.existsSync(candidate))
    if (included === undefined || seen.has(included)) continue
    seen.add(included)
    const content = fs.readFileSync(included, 'utf8')
    texts.push(content, ...includedTexts(included, content, includeDirs, seen))
  }
  return texts
}

interface TranslationUnit {
  req: CompileRequest
  wrapper: string
  /** The cached library's path, named by a hash of everything that affects it. */
  output: string
}
/** `texts`: the source and every header it includes, all part of the cache key. */
function translationUnit(req: CompileRequest, nvcc: string, texts: readonly string[]): TranslationUnit {
  const wrapper = wrapperSource(req)
  const hash = crypto
    .createHash('sha256')
    .update(JSON.stringify([wrapper, ...texts, fs.realpathSync(nvcc), nvccArgs(req, '', '')]))
    .digest('hex')
    .slice(0, 24)
  const base = `${path.basename(req.source).replace(/\W/g, '_')}-${req.arch}-${hash}`
  return { req, wrapper, output: path.join(req.cacheDir, `${base}.so`) }
}

/** What the build procedure asks of whoever drives it: to wait for a lock, or to run nvcc. */
type Step = { lock: () => Attempt } | NvccStep
interface NvccStep {
  nvcc: string
  args: readonly string[]
  timeoutMs: number
}
type StepResult = (() => void) | NvccRun
interface NvccRun {
  status: number | null
  /** stdout, then stderr. */
  log: string
  /** Set when nvcc could not be started at all. */
  error?: Error
  /** Set when nvcc ran past its time limit and was killed. */
  timedOut?: boolean
}
type Build = Generator<Step, CompiledLibrary, StepResult>

interface BuildPlan {
  nvcc: string
  sourceText: string
  /** One per spelling of the prototype, the requested one first. */
  units: readonly TranslationUnit[]
}

function planBuild(req: CompileRequest): BuildPlan {
  const nvcc = findNvcc(req.nvcc)
  let sourceText: string
  try {
    sourceText = fs.readFileSync(req.source, 'utf8')
  } catch {
    throw new Error(`solution file not found: ${req.source}`)
  }
  const spellings = req.prototype ? [req.prototype, ...(req.alternatives ?? [])] : [undefined]
  const texts = [sourceText, ...includedTexts(req.source, sourceText, req.includeDirs)]
  for (const extra of req.sources ?? []) {
    if (!fs.existsSync(extra)) throw new Error(`build source not found: ${extra}`)
    const text = fs.readFileSync(extra, 'utf8')
    texts.push(text, ...includedTexts(extra, text, req.includeDirs))
  }
  const units = spellings.map((prototype) => translationUnit({ ...req, prototype }, nvcc, texts))
  return { nvcc, sourceText, units }
}

/**
 * The build, as steps that compileSync runs blocking and compile runs concurrently. A solution may spell its
 * prototype any of the ways in `alternatives` (ABI-identical, e.g. `size_t* shape` for `const size_t* shape`):
 * each is tried in turn when the previous one conflicts with the user's declaration, and a mismatch with all of
 * them reports the first.
 */
function* buildSteps({ nvcc, sourceText, units }: BuildPlan): Build {
  const cached = units.find((unit) => fs.existsSync(unit.output))
  if (cached) return { path: cached.output, cached: true }
  let mismatch: SignatureMismatchError | undefined
  for (const unit of units) {
    try {
      return yield* buildUnit(unit, nvcc, sourceText)
    } catch (error) {
      if (!(error instanceof SignatureMismatchError)) throw error
      mismatch ??= error
    }
  }
  throw mismatch
}

function* buildUnit({ req, wrapper, output }: TranslationUnit, nvcc: string, sourceText: string): Build {
  fs.mkdirSync(req.cacheDir, { recursive: true })
  const releaseLibrary = (yield { lock: () => tryLibraryLock(output) }) as () => void
  try {
    // Whoever held the lock before us may have compiled it.
    if (fs.existsSync(output)) return { path: output, cached: true }
    const input = output.replace(/\.so$/, '.cu')
    fs.writeFileSync(input, wrapper)
    // Compile to a private name and rename: a process loading the library never sees a partial one.
    const temp = `${output}.${process.pid}.tmp`
    const releaseJob = (yield { lock: () => tryJobSlot(req.jobSlots ?? jobSlotsDir(), req.jobs ?? resolveCompileJobs(undefined)) }) as () => void
    const timeoutMs = req.timeoutMs ?? NVCC_TIMEOUT_MS
    let run: NvccRun
    try {
      run = (yield { nvcc, args: nvccArgs(req, input, temp), timeoutMs }) as NvccRun
    } finally {
      releaseJob()
    }
    if (run.error) throw new Error(`could not run ${nvcc}: ${run.error.message}`)
    if (run.timedOut) {
      fs.rmSync(temp, { force: true })
      throw new Error(
        `nvcc did not finish compiling ${req.source} within ${timeoutMs / 1000} s of running, and was stopped ` +
          '(the time waiting for a free nvcc job slot does not count)',
      )
    }
    if (run.status !== 0) {
      fs.rmSync(temp, { force: true })
      throw buildError(req, wrapper, input, run.log, sourceText)
    }
    fs.renameSync(temp, output)
    return { path: output, cached: false }
  } finally {
    releaseLibrary()
  }
}

/** A failed build as the user should see it: a signature mismatch, or the compiler's errors at their lines. */
function buildError(req: CompileRequest, wrapper: string, input: string, log: string, sourceText: string): SourceError {
  const diagnostics = parseDiagnostics(log)
  const prototypeLine = wrapper.split('\n').indexOf(PROTOTYPE_MARKER) + 2
  const entry = req.prototype && entryName(req.prototype)
  const mismatched =
    diagnostics.some((d) => d.file === input && d.line === prototypeLine) ||
    (entry && new RegExp(`undefined (reference to|symbol:) \`?${entry}\\b`).test(log))
  if (req.prototype && entry && mismatched) {
    return new SignatureMismatchError(req.source, req.prototype, findDeclaration(req.source, sourceText, entry))
  }
  const undefinedSymbols = [...new Set([...log.matchAll(/undefined reference to `([^'`]+)'/g)].map((m) => m[1]!))]
  if (undefinedSymbols.length > 0 || /cannot find -l/.test(log)) return new LinkError(req.source, undefinedSymbols, log)
  return new CompileError(req.source, diagnostics, log, missingHeaderHint(log))
}

/**
 * Compiles (or finds in the cache) a library for the request, blocking: for the device host, which compiles its
 * own harness between synchronous steps. Waits like compile() for the library's lock and a job slot.
 */
export function compileSync(req: CompileRequest): CompiledLibrary {
  const build = buildSteps(planBuild(req))
  let step = build.next()
  while (!step.done) {
    const current = step.value
    try {
      step = build.next('lock' in current ? waitForLockSync(current.lock) : nvccSync(current))
    } catch (error) {
      step = build.throw(error)
    }
  }
  return step.value
}

function nvccSync({ nvcc, args, timeoutMs }: NvccStep): NvccRun {
  const result = spawnSync(nvcc, args, { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' })
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
  return { status: result.status, log: `${result.stdout}${result.stderr}`, error: timedOut ? undefined : result.error, timedOut }
}

/** Builds under way or failed in this process, by library path: a bench asks again for what its file started. */
const BUILDS = Symbol.for('vitest-kernel-bench.builds')

function builds(): Map<string, Promise<CompiledLibrary>> {
  const global = globalThis as typeof globalThis & { [BUILDS]?: Map<string, Promise<CompiledLibrary>> }
  global[BUILDS] ??= new Map()
  return global[BUILDS]
}

/**
 * Compiles (or finds in the cache) a library for the request, in an nvcc child process, so one worker can run many
 * builds at once. Across processes, the library's lock lets one compile it while the others wait, and the job
 * slots bound how many nvcc run at once. A failed build is kept, so asking again reports the same error.
 */
export async function compile(req: CompileRequest): Promise<CompiledLibrary> {
  const plan = planBuild(req)
  const key = plan.units[0]!.output
  let build = builds().get(key)
  if (!build) {
    build = driveAsync(buildSteps(plan))
    builds().set(key, build)
    build.then(() => builds().delete(key), () => {})
  }
  return build
}

async function driveAsync(build: Build): Promise<CompiledLibrary> {
  let step = build.next()
  while (!step.done) {
    const current = step.value
    try {
      step = build.next('lock' in current ? await waitForLock(current.lock) : await nvccAsync(current))
    } catch (error) {
      step = build.throw(error)
    }
  }
  return step.value
}

function nvccAsync({ nvcc, args, timeoutMs }: NvccStep): Promise<NvccRun> {
  return new Promise((resolve) => {
    // A group of its own, so a timeout ends the compiler passes nvcc started (cicc, ptxas) as well.
    const child = spawn(nvcc, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.kill(-child.pid!, 'SIGKILL')
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ status: null, log: '', error })
    })
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, log: `${stdout}${stderr}`, timedOut })
    })
  })
}
