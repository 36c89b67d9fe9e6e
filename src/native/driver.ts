// koffi bindings to the CUDA driver API: load a cubin/PTX image as a module and launch its kernels on the legacy
// default stream, in the context the CUDA runtime made current (the device's primary context).
import koffi from 'koffi'
import { loadLibrary, type LibrarySpec } from './library.js'
import { CudaError } from './errors.js'

/** libcuda comes with the driver, not the toolkit (the toolkit's stubs/libcuda.so must never be loaded). */
export const CUDA_DRIVER: LibrarySpec = { title: 'CUDA driver', files: ['libcuda.so.1', 'libcuda.so'], fromDriver: true }

/** A CUDA driver call failed; `errorName` is the CUresult's name, e.g. 'CUDA_ERROR_INVALID_PTX'. */
export class CuDriverError extends CudaError {
  constructor(call: string, code: number, errorName: string, description: string) {
    super(call, code, errorName, description)
    this.name = 'CuDriverError'
  }

  protected override get stickyErrors(): ReadonlySet<string> {
    return STICKY_ERRORS
  }
}

// The driver-API names of the runtime's sticky errors (see errors.ts).
const STICKY_ERRORS = new Set([
  'CUDA_ERROR_ILLEGAL_ADDRESS',
  'CUDA_ERROR_LAUNCH_FAILED',
  'CUDA_ERROR_LAUNCH_TIMEOUT',
  'CUDA_ERROR_HARDWARE_STACK_ERROR',
  'CUDA_ERROR_ILLEGAL_INSTRUCTION',
  'CUDA_ERROR_MISALIGNED_ADDRESS',
  'CUDA_ERROR_INVALID_ADDRESS_SPACE',
  'CUDA_ERROR_INVALID_PC',
  'CUDA_ERROR_ASSERT',
  'CUDA_ERROR_ECC_UNCORRECTABLE',
  'CUDA_ERROR_UNKNOWN',
])

const CUDA_ERROR_INVALID_VALUE = 1
const CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
/** Dynamic shared memory a kernel may use without opting in through cuFuncSetAttribute. */
const DEFAULT_DYNAMIC_SHARED_BYTES = 48 * 1024
/** The legacy default stream by its explicit handle, where Tensara-style solutions launch (see cuda.ts). */
const CU_STREAM_LEGACY = 1n

function bind() {
  const lib = loadLibrary(CUDA_DRIVER)
  const api = {
    init: lib.func('int cuInit(unsigned int flags)'),
    getErrorName: lib.func('int cuGetErrorName(int error, _Out_ const char **name)'),
    getErrorString: lib.func('int cuGetErrorString(int error, _Out_ const char **description)'),
    ctxGetCurrent: lib.func('int cuCtxGetCurrent(_Out_ void **context)'),
    moduleLoadData: lib.func('int cuModuleLoadData(_Out_ void **module, const uint8_t *image)'),
    moduleGetFunction: lib.func('int cuModuleGetFunction(_Out_ void **function, void *module, const char *name)'),
    moduleUnload: lib.func('int cuModuleUnload(void *module)'),
    funcSetAttribute: lib.func('int cuFuncSetAttribute(void *function, int attribute, int value)'),
    launchKernel: lib.func(
      'int cuLaunchKernel(void *function, unsigned int gridX, unsigned int gridY, unsigned int gridZ, unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int sharedMemBytes, void *stream, void *kernelParams, void *extra)',
    ),
    // CUDA 12.4+: lets a launch's declared parameter types be checked against the kernel's real ones.
    funcGetParamInfo: optionalFunc(lib, 'int cuFuncGetParamInfo(void *function, size_t index, _Out_ size_t *offset, _Out_ size_t *size)'),
  }
  check(api, api.init(0), 'cuInit')
  return api
}

function optionalFunc(lib: ReturnType<typeof loadLibrary>, definition: string): ReturnType<typeof lib.func> | undefined {
  try {
    return lib.func(definition)
  } catch {
    return undefined // an older driver without this entry point
  }
}

type Bindings = ReturnType<typeof bind>
let bindings: Bindings | undefined

/** Loads libcuda on first use, so that importing this module never fails on a machine without a driver. */
function driver(): Bindings {
  bindings ??= Object.freeze(bind())
  return bindings
}

function check(api: Pick<Bindings, 'getErrorName' | 'getErrorString'>, status: number, call: string): void {
  if (status === 0) return
  const name: (string | null)[] = [null]
  const description: (string | null)[] = [null]
  api.getErrorName(status, name)
  api.getErrorString(status, description)
  throw new CuDriverError(call, status, name[0] ?? `CUresult ${status}`, description[0] ?? 'unknown error')
}

function out(call: (slot: (bigint | null)[]) => number, name: string): bigint {
  const slot: (bigint | null)[] = [null]
  check(driver(), call(slot), name)
  return slot[0] ?? 0n
}

// ---- Kernel arguments -------------------------------------------------------------------------------------

/** How a kernel declares each parameter: device pointers, integers and floating-point scalars. */
export type KernelParamType = 'pointer' | 'int' | 'uint' | 'size_t' | 'int64' | 'float' | 'double'
/** A device pointer is a bigint; integers are numbers (or bigints for the 64-bit ones); floats are numbers. */
export type KernelArg = bigint | number

/** Size of each parameter type on the 64-bit targets CUDA supports; each is also its alignment. */
export const PARAM_BYTES: Readonly<Record<KernelParamType, 4 | 8>> = {
  pointer: 8,
  int: 4,
  uint: 4,
  size_t: 8,
  int64: 8,
  float: 4,
  double: 8,
}

export interface ParamLayout {
  /** Byte offset of each argument's value in the storage block. */
  readonly offsets: readonly number[]
  readonly bytes: number
}

/** One storage block holding every argument's value in order, each at its natural alignment. */
export function paramLayout(types: readonly KernelParamType[]): ParamLayout {
  let bytes = 0
  const offsets = types.map((type) => {
    const size = PARAM_BYTES[type]
    const offset = Math.ceil(bytes / size) * size
    bytes = offset + size
    return offset
  })
  return { offsets, bytes }
}

type IntegerRange = readonly [min: bigint, limit: bigint]
const INT32: IntegerRange = [-(2n ** 31n), 2n ** 31n]
const UINT32: IntegerRange = [0n, 2n ** 32n]
const INT64: IntegerRange = [-(2n ** 63n), 2n ** 63n]
const UINT64: IntegerRange = [0n, 2n ** 64n]

function integerArg(value: KernelArg, where: string, [min, limit]: IntegerRange): bigint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new TypeError(`${where}: expected an integer, got ${value}`)
  const integer = BigInt(value)
  if (integer < min || integer >= limit) throw new RangeError(`${where}: ${value} is out of range`)
  return integer
}

function numberArg(value: KernelArg, where: string): number {
  if (typeof value !== 'number') throw new TypeError(`${where}: expected a number, got ${typeof value}`)
  return value
}

function writeArg(view: DataView, offset: number, type: KernelParamType, value: KernelArg, where: string): void {
  // Little-endian: every platform CUDA runs on.
  switch (type) {
    case 'pointer':
      if (typeof value !== 'bigint') throw new TypeError(`${where}: a device pointer must be a bigint, got ${typeof value}`)
      view.setBigUint64(offset, integerArg(value, where, UINT64), true)
      return
    case 'size_t':
      view.setBigUint64(offset, integerArg(value, where, UINT64), true)
      return
    case 'int64':
      view.setBigInt64(offset, integerArg(value, where, INT64), true)
      return
    case 'int':
      view.setInt32(offset, Number(integerArg(value, where, INT32)), true)
      return
    case 'uint':
      view.setUint32(offset, Number(integerArg(value, where, UINT32)), true)
      return
    case 'float':
      view.setFloat32(offset, numberArg(value, where), true)
      return
    case 'double':
      view.setFloat64(offset, numberArg(value, where), true)
      return
  }
}

/**
 * cuLaunchKernel's `kernelParams`: a void*[] whose i-th entry points at argument i's value. The array and the
 * values live in native memory allocated once per kernel (koffi.alloc memory never moves); each launch rewrites
 * the values, which is safe because the driver copies them during the call.
 */
export class KernelArgs {
  readonly layout: ParamLayout
  /** Address of the void*[] to pass as kernelParams. */
  readonly kernelParams: bigint
  private readonly storage: bigint
  private readonly values: DataView
  private freed = false

  constructor(readonly types: readonly KernelParamType[]) {
    this.layout = paramLayout(types)
    const storageBytes = Math.max(this.layout.bytes, 1)
    const arrayBytes = Math.max(types.length * 8, 1)
    this.storage = koffi.alloc('uint8_t', storageBytes) as bigint
    this.kernelParams = koffi.alloc('uint8_t', arrayBytes) as bigint
    this.values = new DataView(koffi.view(this.storage, storageBytes))
    const pointers = new DataView(koffi.view(this.kernelParams, arrayBytes))
    this.layout.offsets.forEach((offset, i) => pointers.setBigUint64(i * 8, this.storage + BigInt(offset), true))
  }

  write(args: readonly KernelArg[], kernel = 'kernel'): void {
    if (this.freed) throw new Error(`${kernel}: launched after its module was unloaded`)
    if (args.length !== this.types.length) {
      throw new TypeError(`${kernel} takes ${this.types.length} arguments (${this.types.join(', ')}), got ${args.length}`)
    }
    this.types.forEach((type, i) => writeArg(this.values, this.layout.offsets[i]!, type, args[i]!, `${kernel} argument ${i} (${type})`))
  }

  free(): void {
    if (this.freed) return
    this.freed = true
    koffi.free(this.storage)
    koffi.free(this.kernelParams)
  }
}

// ---- Launch configuration ----------------------------------------------------------------------------------

/** A grid or block size: x alone, or [x, y?, z?]. */
export type Dim3 = number | readonly [number, number?, number?]

export interface LaunchConfig {
  grid: Dim3
  block: Dim3
  /** Dynamic shared memory per block; above 48 KiB the kernel is opted in automatically. */
  sharedMemBytes?: number
}

export function dim3(value: Dim3, what: string): [number, number, number] {
  const [x, y = 1, z = 1] = typeof value === 'number' ? [value] : value
  const dims: [number, number, number] = [x, y, z]
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 1 || d >= 2 ** 32) {
      throw new RangeError(`${what} dimensions must be positive integers, got ${JSON.stringify(value)}`)
    }
  }
  return dims
}

// ---- Modules and kernels ----------------------------------------------------------------------------------

/** The CUcontext current on this thread, or 0n when there is none. */
export function contextOnThread(): bigint {
  return out((slot) => driver().ctxGetCurrent(slot), 'cuCtxGetCurrent')
}

/** The CUcontext current on this thread: the one the CUDA runtime made current for the selected device. */
export function currentContext(): bigint {
  const context = contextOnThread()
  if (!context) throw new Error('no current CUDA context: select the device with the CUDA runtime (cudaSetDevice) first')
  return context
}

/** A loaded cubin or PTX image. */
export class CuModule {
  private constructor(private readonly handle: bigint) {}

  /** Loads into the current context: the one the CUDA runtime made current for the selected device. */
  static load(image: Uint8Array): CuModule {
    currentContext()
    return new CuModule(out((slot) => driver().moduleLoadData(slot, image), 'cuModuleLoadData'))
  }

  /** `symbol` is the kernel's name in the image (its mangled name unless it is extern "C"). */
  kernel(name: string, symbol: string, params: readonly KernelParamType[]): CuKernel {
    const fn = out((slot) => driver().moduleGetFunction(slot, this.handle, symbol), `cuModuleGetFunction(${name})`)
    checkParamSizes(name, kernelParamSizes(fn), params)
    return new CuKernel(name, fn, new KernelArgs(params))
  }

  unload(): void {
    check(driver(), driver().moduleUnload(this.handle), 'cuModuleUnload')
  }
}

/** The byte size of each parameter of a kernel, or undefined where the driver cannot say (before CUDA 12.4). */
function kernelParamSizes(fn: bigint): number[] | undefined {
  const api = driver()
  if (!api.funcGetParamInfo) return undefined
  const sizes: number[] = []
  for (let index = 0; ; index++) {
    const offset = [0]
    const size = [0]
    const status = api.funcGetParamInfo(fn, index, offset, size) as number
    if (status === CUDA_ERROR_INVALID_VALUE) return sizes // past the last parameter
    check(api, status, 'cuFuncGetParamInfo')
    sizes.push(Number(size[0]))
  }
}

/** A declared int for a size_t parameter would make the driver read 8 bytes from 4: refuse before launching. */
export function checkParamSizes(kernel: string, actual: readonly number[] | undefined, declared: readonly KernelParamType[]): void {
  if (!actual) return
  const expected = declared.map((type) => PARAM_BYTES[type])
  if (actual.length === expected.length && actual.every((size, i) => size === expected[i])) return
  throw new TypeError(
    `kernel '${kernel}' has ${actual.length} parameters of ${actual.join(', ') || 'no'} bytes, ` +
      `but was declared with [${declared.join(', ')}] (${expected.join(', ') || 'no'} bytes)`,
  )
}

export class CuKernel {
  private dynamicSharedLimit = DEFAULT_DYNAMIC_SHARED_BYTES

  constructor(
    readonly name: string,
    private readonly fn: bigint,
    private readonly args: KernelArgs,
  ) {}

  /** Enqueues the kernel on the legacy default stream. */
  launch(config: LaunchConfig, ...args: KernelArg[]): void {
    const api = driver()
    const [gx, gy, gz] = dim3(config.grid, `${this.name}: grid`)
    const [bx, by, bz] = dim3(config.block, `${this.name}: block`)
    const shared = config.sharedMemBytes ?? 0
    if (!Number.isInteger(shared) || shared < 0) throw new RangeError(`${this.name}: sharedMemBytes must be an integer >= 0, got ${shared}`)
    if (shared > this.dynamicSharedLimit) {
      check(api, api.funcSetAttribute(this.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared), `cuFuncSetAttribute(${this.name}, ${shared} bytes of shared memory)`)
      this.dynamicSharedLimit = shared
    }
    this.args.write(args, this.name)
    check(api, api.launchKernel(this.fn, gx, gy, gz, bx, by, bz, shared, CU_STREAM_LEGACY, this.args.kernelParams, null), `cuLaunchKernel(${this.name})`)
  }

  /** Frees the argument storage; the module's unload frees the code. */
  free(): void {
    this.args.free()
  }
}
