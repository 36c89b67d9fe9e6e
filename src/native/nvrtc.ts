// koffi bindings to NVRTC: CUDA C++ source → cubin (for a real GPU such as sm_90a) or PTX (for a virtual one such
// as compute_90), for kernels that TypeScript solutions compile at setup time.
import fs from 'node:fs'
import path from 'node:path'
import koffi from 'koffi'
import { cString } from './cuda.js'
import { toolkitRoots } from '../compile/toolkit.js'
import { candidateFolders, loadLibrary, type LibrarySpec } from './library.js'

export const NVRTC: LibrarySpec = {
  title: 'NVRTC',
  files: ['libnvrtc.so.13', 'libnvrtc.so.12', 'libnvrtc.so'],
  pipFolder: 'cuda_nvrtc',
}

/** An NVRTC call failed for a reason other than the program's own errors; `log` is the program log, if any. */
export class NvrtcError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    description: string,
    readonly log = '',
  ) {
    super(`${call} failed: ${description} (nvrtcResult ${code})${log.trim() ? `\n${log.trim()}` : ''}`)
    this.name = 'NvrtcError'
  }
}

/** The program did not compile; `log` is NVRTC's full program log. */
export class NvrtcCompileError extends Error {
  constructor(
    readonly program: string,
    readonly log: string,
  ) {
    super(`NVRTC failed to compile ${program}:\n${log.trim()}`)
    this.name = 'NvrtcCompileError'
  }
}

// nvrtcResult NVRTC_ERROR_COMPILATION: the program has errors, reported in its log.
const NVRTC_ERROR_COMPILATION = 6

/**
 * libnvrtc dlopens its builtins library by name when it compiles, which fails (NVRTC_ERROR_BUILTIN_OPERATION_FAILURE)
 * unless the toolkit's lib folder is on LD_LIBRARY_PATH. Loading it first, from the folder libnvrtc comes from (the
 * same search as loadLibrary), makes that dlopen find the copy already loaded.
 */
function preloadBuiltins(): void {
  const folders = candidateFolders(NVRTC)
  const folder = NVRTC.files.map((file) => folders.find((dir) => fs.existsSync(path.join(dir, file)))).find(Boolean)
  if (!folder) return // libnvrtc comes from the loader's own search path, where its builtins are found too
  const builtins = fs
    .readdirSync(folder)
    .filter((file) => /^libnvrtc-builtins\.so(\.\d+)*$/.test(file))
    .sort()[0]
  if (builtins) koffi.load(path.join(folder, builtins))
}

function bind() {
  const lib = loadLibrary(NVRTC)
  preloadBuiltins()
  return {
    errorString: lib.func('const char *nvrtcGetErrorString(int result)'),
    createProgram: lib.func(
      'int nvrtcCreateProgram(_Out_ void **prog, const char *src, const char *name, int numHeaders, const char **headers, const char **includeNames)',
    ),
    destroyProgram: lib.func('int nvrtcDestroyProgram(_Inout_ void **prog)'),
    addNameExpression: lib.func('int nvrtcAddNameExpression(void *prog, const char *nameExpression)'),
    compileProgram: lib.func('int nvrtcCompileProgram(void *prog, int numOptions, const char **options)'),
    getLoweredName: lib.func('int nvrtcGetLoweredName(void *prog, const char *nameExpression, _Out_ const char **loweredName)'),
    getProgramLogSize: lib.func('int nvrtcGetProgramLogSize(void *prog, _Out_ size_t *size)'),
    getProgramLog: lib.func('int nvrtcGetProgramLog(void *prog, _Out_ uint8_t *log)'),
    getCubinSize: lib.func('int nvrtcGetCUBINSize(void *prog, _Out_ size_t *size)'),
    getCubin: lib.func('int nvrtcGetCUBIN(void *prog, _Out_ uint8_t *cubin)'),
    getPtxSize: lib.func('int nvrtcGetPTXSize(void *prog, _Out_ size_t *size)'),
    getPtx: lib.func('int nvrtcGetPTX(void *prog, _Out_ uint8_t *ptx)'),
  }
}

type Bindings = ReturnType<typeof bind>
let bindings: Bindings | undefined

/** Loads libnvrtc on first use, so that importing this module never fails on a machine without it. */
function nvrtc(): Bindings {
  bindings ??= Object.freeze(bind())
  return bindings
}

function check(status: number, call: string): void {
  if (status !== 0) throw new NvrtcError(call, status, nvrtc().errorString(status) as string)
}

export interface NvrtcRequest {
  source: string
  /** The program's name in NVRTC's messages, e.g. 'relu.cu'. */
  programName: string
  /** A real architecture (sm_90a) gives a cubin; a virtual one (compute_90a) gives PTX for the driver to JIT. */
  arch: string
  /** Kernels to look up afterwards: C++ names ('relu', 'ns::gemm<128>') or extern "C" names. */
  kernels: readonly string[]
  /** Extra NVRTC options, e.g. ['--use_fast_math']. */
  options?: readonly string[]
}

export interface NvrtcOutput {
  kind: 'cubin' | 'ptx'
  /** What cuModuleLoadData takes: the cubin, or NUL-terminated PTX text. */
  image: Buffer
  /** Each requested kernel's symbol in the image (its mangled name unless it is extern "C"). */
  loweredNames: ReadonlyMap<string, string>
  /** NVRTC's log: warnings, when the program compiled. */
  log: string
}

export function imageKind(arch: string): 'cubin' | 'ptx' {
  if (/^sm_\d+[a-z]?$/.test(arch)) return 'cubin'
  if (/^compute_\d+[a-z]?$/.test(arch)) return 'ptx'
  throw new Error(`bad GPU architecture '${arch}': expected e.g. sm_90a (cubin) or compute_90a (PTX)`)
}

/** The toolkit's include folder, so that kernels can include cuda_fp16.h and friends as with nvcc. */
function toolkitIncludeDirs(): string[] {
  const found = toolkitRoots()
    .map((root) => path.join(root, 'include'))
    .find((dir) => fs.existsSync(path.join(dir, 'cuda_fp16.h')))
  return found ? [found] : []
}

export function nvrtcOptions(arch: string, extra: readonly string[] = [], includeDirs: readonly string[] = toolkitIncludeDirs()): string[] {
  imageKind(arch)
  return [`--gpu-architecture=${arch}`, '-lineinfo', ...includeDirs.map((dir) => `--include-path=${dir}`), ...extra]
}

function readProgramText(
  program: bigint,
  sizeOf: (prog: bigint, size: number[]) => number,
  read: (prog: bigint, out: Buffer) => number,
  call: string,
): Buffer {
  const size = [0]
  check(sizeOf(program, size), `${call}Size`)
  const buffer = Buffer.alloc(Number(size[0]))
  check(read(program, buffer), call)
  return buffer
}

export function compileWithNvrtc(request: NvrtcRequest): NvrtcOutput {
  const api = nvrtc()
  const kind = imageKind(request.arch)
  const slot = [0n]
  check(api.createProgram(slot, request.source, request.programName, 0, null, null), 'nvrtcCreateProgram')
  const program = slot[0] as bigint
  try {
    // Name expressions make NVRTC instantiate and report the symbol of each kernel, mangled or not.
    for (const kernel of request.kernels) check(api.addNameExpression(program, kernel), `nvrtcAddNameExpression(${kernel})`)
    const options = nvrtcOptions(request.arch, request.options)
    const status = api.compileProgram(program, options.length, options) as number
    const log = cString(readProgramText(program, api.getProgramLogSize, api.getProgramLog, 'nvrtcGetProgramLog'))
    if (status === NVRTC_ERROR_COMPILATION) throw new NvrtcCompileError(request.programName, log)
    if (status !== 0) throw new NvrtcError(`nvrtcCompileProgram(${request.programName})`, status, api.errorString(status) as string, log)

    const loweredNames = new Map<string, string>()
    for (const kernel of request.kernels) {
      const lowered: (string | null)[] = [null]
      check(api.getLoweredName(program, kernel, lowered), `nvrtcGetLoweredName(${kernel})`)
      loweredNames.set(kernel, lowered[0] ?? kernel)
    }
    const image =
      kind === 'cubin'
        ? readProgramText(program, api.getCubinSize, api.getCubin, 'nvrtcGetCUBIN')
        : readProgramText(program, api.getPtxSize, api.getPtx, 'nvrtcGetPTX')
    return { kind, image, loweredNames, log }
  } finally {
    api.destroyProgram([program])
  }
}
