// Measured ceilings, inside the device host: the best cuBLAS achieves on a large square GEMM per dtype,
// and the bandwidth of a device-to-device copy. They are the "practical peak" a kernel is judged against next to
// the datasheet's, and stand in for it on a GPU the peak table does not know. The worker caches them per GPU
// (src/cache/ceilings-cache.ts).
import { DTYPE_BYTES } from '../../spec/dtype.js'
import * as cuda from '../../native/cuda.js'
import * as cublas from '../../native/cublas.js'
import { CudaError } from '../../native/errors.js'
import type { MeasureOptions } from '../../spec/options.js'
import type { DeviceSession } from './device-session.js'
import { globalWarmup } from './start-case.js'
import type { CeilingDtype, CeilingTiming, CopyCeiling, GemmCeiling, MeasuredCeilings } from '../../shared/messages.js'
import { summarize } from '../../shared/stats.js'

/** Sizes to try, largest first: the next one is used when the buffers of the larger do not fit. */
type Sizes = readonly [number, ...number[]]

/** GEMM edges. 8192³ keeps every SM busy on the largest GPUs, as in the usual cuBLAS comparisons. */
const GEMM_SIZES: Sizes = [8192, 4096]
/** Copy buffer sizes: all far beyond any L2 (B200: 126 MB), so the copy streams from and to DRAM. */
const COPY_BYTES: Sizes = [2 ** 30, 2 ** 28]
const WARMUP = 3
const GEMM_REPETITIONS = 10
const COPY_REPETITIONS = 20

type Gemm = (a: cuda.DevicePtr, b: cuda.DevicePtr, c: cuda.DevicePtr, n: number) => void

// float32 without TF32, as the float32 problems are verified; half types on tensor cores with fp32 accumulate.
const GEMMS: Record<CeilingDtype, { call: string; run: Gemm }> = {
  float32: { call: 'cublasSgemm, pedantic math (no TF32)', run: (a, b, c, n) => cublas.sgemm(a, b, c, n, n, n) },
  float16: {
    call: 'cublasGemmEx, CUBLAS_COMPUTE_32F, default math (tensor cores)',
    run: (a, b, c, n) => cublas.tensorCoreGemm('float16', a, b, c, n, n, n),
  },
  bfloat16: {
    call: 'cublasGemmEx, CUBLAS_COMPUTE_32F, default math (tensor cores)',
    run: (a, b, c, n) => cublas.tensorCoreGemm('bfloat16', a, b, c, n, n, n),
  },
}

function outOfMemory(error: unknown): boolean {
  return error instanceof CudaError && error.errorName === 'cudaErrorMemoryAllocation'
}

/** `count` buffers of `bytes(size)` each, for the largest size that fits. */
function allocateLargest(sizes: Sizes, bytes: (size: number) => number, count: number): { size: number; buffers: cuda.DevicePtr[] } {
  const [size, ...smaller] = sizes
  const buffers: cuda.DevicePtr[] = []
  try {
    while (buffers.length < count) buffers.push(cuda.malloc(bytes(size)))
    return { size, buffers }
  } catch (error) {
    for (const ptr of buffers) cuda.free(ptr)
    const [next, ...rest] = smaller
    if (next === undefined || !outOfMemory(error)) throw error
    return allocateLargest([next, ...rest], bytes, count)
  }
}

/** Runs `body` on the largest buffers that fit, and frees them whatever happens. */
function withBuffers<T>(sizes: Sizes, bytes: (size: number) => number, count: number, body: (size: number, buffers: cuda.DevicePtr[]) => T): T {
  const { size, buffers } = allocateLargest(sizes, bytes, count)
  try {
    return body(size, buffers)
  } finally {
    for (const ptr of buffers) cuda.free(ptr)
  }
}

/**
 * WARMUP untimed calls, then `repetitions` calls each between its own pair of events on the legacy stream, all
 * queued back to back (every call is long enough that the host's enqueue never leaves the GPU idle).
 */
export function timeRepetitions(session: DeviceSession, repetitions: number, call: () => void): CeilingTiming {
  for (let i = 0; i < WARMUP; i++) call()
  const events = session.events(2 * repetitions)
  const pairs = Array.from({ length: repetitions }, (_, i) => [events[2 * i]!, events[2 * i + 1]!] as const)
  for (const [begin, end] of pairs) {
    cuda.eventRecord(begin)
    call()
    cuda.eventRecord(end)
  }
  const smClockMHz = session.smClockMHz() // read while the repetitions run
  cuda.synchronize()
  const times = summarize(pairs.map(([begin, end]) => cuda.eventElapsedMs(begin, end)))
  return { bestMs: times.min, medianMs: times.median, repetitions, warmup: WARMUP, smClockMHz }
}

function gemmCeiling(session: DeviceSession, dtype: CeilingDtype): GemmCeiling {
  const { call, run } = GEMMS[dtype]
  return withBuffers(GEMM_SIZES, (n) => n * n * DTYPE_BYTES[dtype], 3, (n, [a, b, c]) => {
    // Random inputs: tensor cores draw less power on zeros, which would flatter the ceiling.
    session.harness.fillUniform(a!, n * n, dtype, 1, -1, 1)
    session.harness.fillUniform(b!, n * n, dtype, 2, -1, 1)
    const timing = timeRepetitions(session, GEMM_REPETITIONS, () => run(a!, b!, c!, n))
    return { dtype, size: n, call, tflops: (2 * n ** 3) / (timing.bestMs * 1e-3) / 1e12, ...timing }
  })
}

function copyCeiling(session: DeviceSession): CopyCeiling {
  return withBuffers(COPY_BYTES, (bytes) => bytes, 2, (bytes, [src, dst]) => {
    cuda.memsetAsync(src!, 1, bytes)
    // A device-to-device cudaMemcpy is asynchronous to the host, on the legacy stream: the events bracket it.
    const timing = timeRepetitions(session, COPY_REPETITIONS, () => cuda.memcpy(dst!, src!, bytes))
    return { bytes, gbPerSecond: (2 * bytes) / (timing.bestMs * 1e-3) / 1e9, ...timing }
  })
}

/**
 * Runs `measure`; an error that leaves the context usable (memory, a dtype cuBLAS does not support here) is noted
 * in `unavailable` and the other ceilings are still measured. A sticky CUDA error ends the measurement.
 */
function attempt<T>(what: string, unavailable: string[], measure: () => T): T | undefined {
  try {
    return measure()
  } catch (error) {
    if (error instanceof CudaError && error.isSticky) throw error
    unavailable.push(`${what}: ${(error as Error).message}`)
    return undefined
  }
}

/** Measures every ceiling on the session's GPU, after the global warmup `options` asks for. */
export function measureCeilings(session: DeviceSession, options: MeasureOptions): MeasuredCeilings {
  globalWarmup(session, options)
  const unavailable: string[] = []
  const dtypes = Object.keys(GEMMS) as CeilingDtype[]
  const gemm = dtypes.flatMap((dtype) => attempt(`${dtype} GEMM`, unavailable, () => gemmCeiling(session, dtype)) ?? [])
  const copy = attempt('device-to-device copy', unavailable, () => copyCeiling(session))
  return {
    version: 1,
    measuredAt: new Date().toISOString(),
    gpu: session.measuredOn(),
    maxSmClockMHz: session.maxSmClockMHz,
    gemm,
    ...(copy && { copy }),
    unavailable,
  }
}
