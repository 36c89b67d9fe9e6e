// koffi bindings to cuBLAS: references for the GEMM family, the global warmup, the padding workload and the
// measured GEMM ceilings.
// All matrices are row-major, as in the problems; cuBLAS is column-major, so C = A·B is computed as Cᵀ = Bᵀ·Aᵀ.
import { CublasError } from './errors.js'
import type { DevicePtr } from './cuda.js'
import { loadLibrary, type LibrarySpec } from './library.js'

export const CUBLAS: LibrarySpec = {
  title: 'cuBLAS',
  files: ['libcublas.so.13', 'libcublas.so.12', 'libcublas.so'],
  pipFolder: 'cublas',
}

const OP_N = 0
// cublasMath_t: PEDANTIC keeps float32 products in float32 (no TF32), as a reference must; DEFAULT lets half
// types run on tensor cores.
const MATH_MODE = { pedantic: 2, default: 0 } as const
type MathMode = keyof typeof MATH_MODE
// cudaDataType_t and cublasComputeType_t values from library_types.h and cublas_api.h.
export const CUDA_DATA_TYPE = { float32: 0, float64: 1, float16: 2, bfloat16: 14 } as const
const COMPUTE_32F = 68
const COMPUTE_32F_PEDANTIC = 69
const COMPUTE_64F_PEDANTIC = 71
const GEMM_DEFAULT = -1

function bind() {
  const lib = loadLibrary(CUBLAS)
  return {
    create: lib.func('int cublasCreate_v2(_Out_ void **handle)'),
    destroy: lib.func('int cublasDestroy_v2(void *handle)'),
    setMathMode: lib.func('int cublasSetMathMode(void *handle, int mode)'),
    statusName: lib.func('const char *cublasGetStatusName(int status)'),
    sgemm: lib.func(
      'int cublasSgemm_v2(void *handle, int transa, int transb, int m, int n, int k, const float *alpha, void *A, int lda, void *B, int ldb, const float *beta, void *C, int ldc)',
    ),
    gemmEx: lib.func(
      'int cublasGemmEx(void *handle, int transa, int transb, int m, int n, int k, const void *alpha, void *A, int Atype, int lda, void *B, int Btype, int ldb, const void *beta, void *C, int Ctype, int ldc, int computeType, int algo)',
    ),
  }
}

type Bindings = ReturnType<typeof bind>
let bindings: Bindings | undefined
const handles: Partial<Record<MathMode, bigint>> = {}

function cublas(): Bindings {
  bindings ??= Object.freeze(bind())
  return bindings
}

/**
 * Loads cuBLAS (hundreds of MB of libraries) without touching the GPU, so a device host can do it before it has a
 * context, while another host still works on the GPU.
 */
export function loadCublas(): void {
  cublas()
}

function check(status: number, call: string): void {
  if (status !== 0) throw new CublasError(call, status, cublas().statusName(status) as string)
}

/** One handle per process and math mode, on the legacy default stream; pedantic (no TF32) unless asked. */
function cublasHandle(math: MathMode = 'pedantic'): bigint {
  let handle = handles[math]
  if (handle === undefined) {
    const slot = [0n]
    check(cublas().create(slot), 'cublasCreate')
    handle = slot[0] as bigint
    check(cublas().setMathMode(handle, MATH_MODE[math]), 'cublasSetMathMode')
    handles[math] = handle
  }
  return handle
}

/** Row-major C[m×n] = A[m×k] · B[k×n] in float32, no TF32. */
export function sgemm(a: DevicePtr, b: DevicePtr, c: DevicePtr, m: number, n: number, k: number): void {
  check(cublas().sgemm(cublasHandle(), OP_N, OP_N, n, m, k, [1], b, n, a, k, [0], c, n), `cublasSgemm(${m}×${n}×${k})`)
}

/**
 * Row-major C = A·B for any storage type, accumulating in float32 (float64 for float64 data) without TF32:
 * the GEMM family's reference for half-precision inputs.
 */
export function gemmEx(
  dtype: keyof typeof CUDA_DATA_TYPE,
  a: DevicePtr,
  b: DevicePtr,
  c: DevicePtr,
  m: number,
  n: number,
  k: number,
): void {
  const compute = dtype === 'float64' ? COMPUTE_64F_PEDANTIC : COMPUTE_32F_PEDANTIC
  rowMajorGemmEx(cublasHandle(), dtype, compute, a, b, c, m, n, k)
}

/**
 * Row-major C = A·B for half types on tensor cores, accumulating in float32 (CUBLAS_COMPUTE_32F, default math):
 * the fastest product cuBLAS offers at that accuracy, for the measured ceilings (src/engine/host/ceilings.ts).
 */
export function tensorCoreGemm(dtype: 'float16' | 'bfloat16', a: DevicePtr, b: DevicePtr, c: DevicePtr, m: number, n: number, k: number): void {
  rowMajorGemmEx(cublasHandle('default'), dtype, COMPUTE_32F, a, b, c, m, n, k)
}

function rowMajorGemmEx(
  handle: bigint,
  dtype: keyof typeof CUDA_DATA_TYPE,
  compute: number,
  a: DevicePtr,
  b: DevicePtr,
  c: DevicePtr,
  m: number,
  n: number,
  k: number,
): void {
  const type = CUDA_DATA_TYPE[dtype]
  const isDouble = dtype === 'float64'
  const one = isDouble ? new Float64Array([1]) : new Float32Array([1])
  const zero = isDouble ? new Float64Array([0]) : new Float32Array([0])
  check(
    cublas().gemmEx(handle, OP_N, OP_N, n, m, k, one, b, type, n, a, type, k, zero, c, type, n, compute, GEMM_DEFAULT),
    `cublasGemmEx(${dtype}, ${m}×${n}×${k})`,
  )
}
