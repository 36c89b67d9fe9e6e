// TypeScript solutions, the analogue of Tensara's Python solutions. A solution module's default export is
// defineSolution(setup): `setup` runs once, outside timing (compile NVRTC kernels, prepare anything), and returns
// the per-call function. That function receives the C solution's arguments in signature order (device pointers as
// bigint, scalars as numbers, a uint64_t given as a bigint as one) and must enqueue its work on the legacy default
// stream before it returns.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { archForComputeCapability } from '../../compile/nvcc.js'
import { gemmEx, sgemm } from '../../native/cublas.js'
import type { DeviceInfo } from '../../shared/messages.js'
import { CuModule, type KernelArg, type KernelParamType, type LaunchConfig } from '../../native/driver.js'
import { compileWithNvrtc } from '../../native/nvrtc.js'

export type { Dim3, KernelArg, KernelParamType, LaunchConfig } from '../../native/driver.js'

/** What the per-call function receives: pointers (device buffers, arrays) as bigint, scalars as numbers (a uint64_t given as a bigint as one). */
export type SolutionArg = bigint | number

/** A kernel compiled by ctx.compileKernel. */
export interface Kernel {
  readonly name: string
  /** Enqueues the kernel on the legacy default stream; the arguments follow the kernel's parameter list. */
  launch(config: LaunchConfig, ...args: KernelArg[]): void
}

export interface CompileKernelOptions {
  /** Extra NVRTC options, e.g. ['--use_fast_math', '-DTILE=64']. */
  nvrtcOptions?: readonly string[]
}

/** cuBLAS on the legacy default stream; row-major, as in the problems (see src/native/cublas.ts). */
export interface SolutionCublas {
  sgemm: typeof sgemm
  gemmEx: typeof gemmEx
}

export interface SolutionContext {
  readonly device: DeviceInfo
  /** What NVRTC compiles for, e.g. 'sm_90a'. */
  readonly arch: string
  /**
   * Compiles kernel `name` (a C++ or extern "C" name) from CUDA source with NVRTC and loads it. `params` are the
   * kernel's parameter types in order: a JavaScript number does not say whether it is an int, a size_t or a float.
   */
  compileKernel(source: string, name: string, params: readonly KernelParamType[], options?: CompileKernelOptions): Kernel
  readonly cublas: SolutionCublas
}

type Awaitable<T> = T | Promise<T>
type SolutionCall = (...args: SolutionArg[]) => unknown
export type SolutionSetup<Args extends SolutionArg[] = SolutionArg[]> = (ctx: SolutionContext) => Awaitable<(...args: Args) => void>

/** A string brand rather than a class, so that two copies of this module (src and dist, say) still agree. */
const TS_SOLUTION = 'vitest-kernel-bench/ts-solution'

export interface TsSolution {
  readonly kind: typeof TS_SOLUTION
  readonly setup: (ctx: SolutionContext) => Awaitable<SolutionCall>
}

/**
 * Declares a TypeScript solution:
 * `export default defineSolution((ctx) => (a: bigint, b: bigint, c: bigint, n: number) => { … })`.
 */
export function defineSolution<Args extends SolutionArg[]>(setup: SolutionSetup<Args>): TsSolution {
  if (typeof setup !== 'function') {
    throw new TypeError(`defineSolution() takes the setup function, (ctx) => (...args) => void; got ${describe(setup)}`)
  }
  // The host calls it with the signature's arguments; Args only types the user's parameters.
  return Object.freeze({ kind: TS_SOLUTION, setup: setup as unknown as TsSolution['setup'] })
}

export function isTsSolution(value: unknown): value is TsSolution {
  return typeof value === 'object' && value !== null && (value as TsSolution).kind === TS_SOLUTION && typeof (value as TsSolution).setup === 'function'
}

export class TsSolutionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'TsSolutionError'
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

const EXPECTED_SHAPE = 'export default defineSolution((ctx) => { /* setup */ return (...args) => { /* launch */ } })'

/** The solution a module's namespace holds, or an error that says what the module exports instead. */
export function solutionFromModule(namespace: Readonly<Record<string, unknown>>, file: string): TsSolution {
  let value = namespace.default
  // A .ts file that Node treats as CommonJS (no "type": "module") arrives as its transpiled exports object.
  if (typeof value === 'object' && value !== null && (value as { __esModule?: unknown }).__esModule === true) {
    value = (value as { default?: unknown }).default
  }
  if (isTsSolution(value)) return value
  const found =
    value === undefined
      ? 'it has no default export'
      : typeof value === 'function'
        ? 'its default export is a plain function: wrap it in defineSolution()'
        : `its default export is ${describe(value)}, not defineSolution(...)`
  throw new TsSolutionError(`${file}: ${found}. Expected:\n  ${EXPECTED_SHAPE}`)
}

const TYPESCRIPT = /\.[cm]?ts$/

async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href
  if (!TYPESCRIPT.test(file)) return (await import(url)) as Record<string, unknown>
  let tsImport: (specifier: string, parentURL: string) => Promise<unknown>
  try {
    ;({ tsImport } = await import('tsx/esm/api'))
  } catch (error) {
    throw new TsSolutionError(`${file}: a TypeScript solution needs the 'tsx' package to load (npm install -D tsx)`, { cause: error })
  }
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>
}

/** Imports a solution module and returns the solution it declares; loads no native library and needs no GPU. */
export async function importSolution(file: string): Promise<TsSolution> {
  return solutionFromModule(await importModule(file), file)
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
}

/** What the device host holds for a loaded TypeScript solution. */
export interface LoadedTsSolution {
  /** Runs the per-call function with the C solution's arguments, in signature order. */
  call(args: readonly SolutionArg[]): void
  /** Frees the kernels' argument storage and unloads their modules. */
  dispose(): void
}

export interface LoadTsSolutionOptions {
  /** Overrides the architecture derived from the device, e.g. 'sm_90'. */
  arch?: string
}

/**
 * Imports a solution module (.ts through tsx, .js/.mjs directly) and runs its setup on the current device. The
 * caller (the device host) has selected the device with the CUDA runtime; nothing here is timed.
 */
export async function loadTsSolution(modulePath: string, device: DeviceInfo, options: LoadTsSolutionOptions = {}): Promise<LoadedTsSolution> {
  const file = path.resolve(modulePath)
  if (!fs.existsSync(file)) throw new TsSolutionError(`solution file not found: ${file}`)
  const solution = await importSolution(file)

  const cleanups: (() => void)[] = []
  const dispose = () => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup()
  }
  const arch = options.arch ?? archForComputeCapability(device.computeCapability)
  const context: SolutionContext = {
    device,
    arch,
    compileKernel(source, name, params, compileOptions = {}) {
      const output = compileWithNvrtc({
        source,
        programName: `${path.basename(file)}:${name}`,
        arch,
        kernels: [name],
        options: compileOptions.nvrtcOptions,
      })
      const module = CuModule.load(output.image)
      cleanups.push(() => module.unload())
      const kernel = module.kernel(name, output.loweredNames.get(name) ?? name, params)
      cleanups.push(() => kernel.free())
      return kernel
    },
    cublas: { sgemm, gemmEx },
  }

  let run: unknown
  try {
    run = await solution.setup(context)
  } catch (error) {
    dispose()
    throw error
  }
  if (typeof run !== 'function') {
    dispose()
    throw new TsSolutionError(`${file}: setup returned ${describe(run)}; it must return the function that launches the work. Expected:\n  ${EXPECTED_SHAPE}`)
  }
  const call = run as SolutionCall
  return {
    call(args) {
      const result = call(...args)
      if (isThenable(result)) {
        result.then(undefined, () => {}) // reported below; keep it from becoming an unhandled rejection
        throw new TsSolutionError(`${file}: the solution function returned a Promise; it must enqueue its work and return synchronously, or the timer misses it`)
      }
    },
    dispose,
  }
}
