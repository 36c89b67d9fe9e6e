// koffi bindings to the CUDA runtime. Every call is checked: a non-zero cudaError_t becomes a CudaError that
// names the call and the error. Device pointers are koffi pointers (BigInt addresses).
import koffi from 'koffi'
import { CudaError } from './errors.js'
import { loadLibrary, type LibrarySpec } from './library.js'
import type { SmLimits } from '../shared/counters.js'
import type { DeviceInfo } from '../shared/messages.js'

export type DevicePtr = bigint
export type StreamHandle = bigint
export type EventHandle = bigint

/** The legacy default stream: where Tensara-style solutions launch when they name no stream. */
export const LEGACY_STREAM: StreamHandle = 0n
/** cudaStreamPerThread: where `<<<>>>` launches go in code compiled with `--default-stream per-thread`. */
export const PER_THREAD_STREAM: StreamHandle = 2n

export type GraphExecHandle = bigint

export const CUDA_RUNTIME: LibrarySpec = {
  title: 'CUDA runtime',
  files: ['libcudart.so.13', 'libcudart.so.12', 'libcudart.so'],
  pipFolder: 'cuda_runtime',
}

// cudaDeviceAttr values from driver_types.h.
const ATTR = {
  maxThreadsPerBlock: 1,
  warpSize: 10,
  maxRegistersPerBlock: 12,
  clockRateKHz: 13,
  multiProcessorCount: 16,
  memoryClockRateKHz: 36,
  memoryBusWidthBits: 37,
  l2CacheBytes: 38,
  computeCapabilityMajor: 75,
  computeCapabilityMinor: 76,
  maxThreadsPerMultiProcessor: 39,
  maxSharedMemoryPerMultiprocessor: 81,
  maxRegistersPerMultiprocessor: 82,
  maxBlocksPerMultiprocessor: 106,
  reservedSharedMemoryPerBlock: 111,
} as const

const HOST_ALLOC_MAPPED = 0x02
/** cudaStreamCaptureModeRelaxed: the solution's host code may call anything that does not touch the stream. */
const CAPTURE_MODE_RELAXED = 2

/** cudaIpcMemHandle_t: 64 opaque bytes, passed by value to cudaIpcOpenMemHandle. */
const IPC_HANDLE_BYTES = 64
/** cudaIpcMemLazyEnablePeerAccess: the flag cudaIpcOpenMemHandle requires (peer access matters only across GPUs). */
const IPC_LAZY_PEER_ACCESS = 1

function bind() {
  const lib = loadLibrary(CUDA_RUNTIME)
  koffi.struct('cudaIpcMemHandle_t', { reserved: koffi.array('uint8_t', IPC_HANDLE_BYTES, 'Typed') })
  return {
    getErrorName: lib.func('const char *cudaGetErrorName(int error)'),
    getErrorString: lib.func('const char *cudaGetErrorString(int error)'),
    getDeviceCount: lib.func('int cudaGetDeviceCount(_Out_ int *count)'),
    setDevice: lib.func('int cudaSetDevice(int device)'),
    deviceGetAttribute: lib.func('int cudaDeviceGetAttribute(_Out_ int *value, int attr, int device)'),
    // cudaDeviceProp starts with `char name[256]`; the rest of its (version-specific) layout is never read.
    getDeviceProperties: lib.func('int cudaGetDeviceProperties(_Out_ uint8_t *prop, int device)'),
    deviceGetPCIBusId: lib.func('int cudaDeviceGetPCIBusId(_Out_ uint8_t *busId, int len, int device)'),
    memGetInfo: lib.func('int cudaMemGetInfo(_Out_ size_t *free, _Out_ size_t *total)'),
    runtimeGetVersion: lib.func('int cudaRuntimeGetVersion(_Out_ int *version)'),
    driverGetVersion: lib.func('int cudaDriverGetVersion(_Out_ int *version)'),
    malloc: lib.func('int cudaMalloc(_Out_ void **ptr, size_t size)'),
    free: lib.func('int cudaFree(void *ptr)'),
    ipcGetMemHandle: lib.func('int cudaIpcGetMemHandle(_Out_ uint8_t *handle, void *ptr)'),
    ipcOpenMemHandle: lib.func('int cudaIpcOpenMemHandle(_Out_ void **ptr, cudaIpcMemHandle_t handle, unsigned int flags)'),
    ipcCloseMemHandle: lib.func('int cudaIpcCloseMemHandle(void *ptr)'),
    hostAlloc: lib.func('int cudaHostAlloc(_Out_ void **ptr, size_t size, unsigned int flags)'),
    hostGetDevicePointer: lib.func('int cudaHostGetDevicePointer(_Out_ void **device, void *host, unsigned int flags)'),
    freeHost: lib.func('int cudaFreeHost(void *ptr)'),
    memcpy: lib.func('int cudaMemcpy(void *dst, const void *src, size_t count, int kind)'),
    memcpyToHost: lib.func('int cudaMemcpy(_Out_ uint8_t *dst, const void *src, size_t count, int kind)'),
    memcpyAsync: lib.func('int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream)'),
    deviceGetLimit: lib.func('int cudaDeviceGetLimit(_Out_ size_t *value, int limit)'),
    getDevice: lib.func('int cudaGetDevice(_Out_ int *device)'),
    getDeviceFlags: lib.func('int cudaGetDeviceFlags(_Out_ unsigned int *flags)'),
    memsetAsync: lib.func('int cudaMemsetAsync(void *ptr, int value, size_t count, void *stream)'),
    deviceSynchronize: lib.func('int cudaDeviceSynchronize()'),
    getLastError: lib.func('int cudaGetLastError()'),
    eventCreate: lib.func('int cudaEventCreate(_Out_ void **event)'),
    eventRecord: lib.func('int cudaEventRecord(void *event, void *stream)'),
    eventElapsedTime: lib.func('int cudaEventElapsedTime(_Out_ float *ms, void *start, void *end)'),
    streamBeginCapture: lib.func('int cudaStreamBeginCapture(void *stream, int mode)'),
    streamEndCapture: lib.func('int cudaStreamEndCapture(void *stream, _Out_ void **graph)'),
    graphInstantiate: lib.func('int cudaGraphInstantiate(_Out_ void **exec, void *graph, unsigned long long flags)'),
    graphDestroy: lib.func('int cudaGraphDestroy(void *graph)'),
    graphLaunch: lib.func('int cudaGraphLaunch(void *exec, void *stream)'),
    graphExecDestroy: lib.func('int cudaGraphExecDestroy(void *exec)'),
  }
}

type Bindings = ReturnType<typeof bind>
let bindings: Bindings | undefined

/** Loads libcudart on first use, so that importing this module never fails on a machine without CUDA. Frozen: a
 * TypeScript solution that imports this module cannot swap the functions the harness times with. */
export function cudart(): Bindings {
  bindings ??= Object.freeze(bind())
  return bindings
}

/** Throws a CudaError for any status but cudaSuccess. */
export function check(status: number, call: string): void {
  if (status === 0) return
  throw new CudaError(call, status, errorName(status), cudart().getErrorString(status) as string)
}

function out<T>(call: (slot: T[]) => number, name: string, initial: T): T {
  const slot = [initial]
  check(call(slot), name)
  return slot[0] as T
}

export function deviceCount(): number {
  return out((s: number[]) => cudart().getDeviceCount(s), 'cudaGetDeviceCount', 0)
}

export function setDevice(device: number): void {
  check(cudart().setDevice(device), `cudaSetDevice(${device})`)
}

function attribute(attr: number, device: number): number {
  return out((s: number[]) => cudart().deviceGetAttribute(s, attr, device), 'cudaDeviceGetAttribute', 0)
}

/** The text of a NUL-terminated C string written into a buffer. */
export function cString(buffer: Buffer): string {
  const end = buffer.indexOf(0)
  return buffer.subarray(0, end < 0 ? buffer.length : end).toString('utf8')
}


function versionString(v: number): string {
  return `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`
}

/**
 * The PCI bus id and compute capability of a device, read without creating a CUDA context (cudaSetDevice does
 * create one), so a host can take the GPU's lock before its context touches the GPU.
 */
export function gpuIdentity(device: number): { pciBusId: string; computeCapability: string } {
  const busId = Buffer.alloc(64)
  check(cudart().deviceGetPCIBusId(busId, busId.length, device), 'cudaDeviceGetPCIBusId')
  return {
    pciBusId: cString(busId),
    computeCapability: `${attribute(ATTR.computeCapabilityMajor, device)}.${attribute(ATTR.computeCapabilityMinor, device)}`,
  }
}

/**
 * A board's UUID as nvidia-smi prints it (`GPU-` and 32 hex digits in groups of 8-4-4-4-12), from the 16 bytes of
 * cudaDeviceProp.uuid, which follow the 256 bytes of its name in every CUDA release since 10.0.
 */
export function formatGpuUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex')
  return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** Describes the current device (call setDevice first). */
export function deviceInfo(device: number): DeviceInfo {
  const rt = cudart()
  const props = Buffer.alloc(4096) // larger than cudaDeviceProp in every CUDA release
  check(rt.getDeviceProperties(props, device), 'cudaGetDeviceProperties')
  return {
    index: device,
    name: cString(props.subarray(0, 256)),
    uuid: formatGpuUuid(props.subarray(256, 272)),
    ...gpuIdentity(device),
    multiProcessors: attribute(ATTR.multiProcessorCount, device),
    l2CacheBytes: attribute(ATTR.l2CacheBytes, device),
    totalMemoryBytes: memoryInfo().total,
    maxSmClockMHz: attribute(ATTR.clockRateKHz, device) / 1000,
    memoryClockMHz: attribute(ATTR.memoryClockRateKHz, device) / 1000,
    memoryBusWidthBits: attribute(ATTR.memoryBusWidthBits, device),
    runtimeVersion: versionString(out((s: number[]) => rt.runtimeGetVersion(s), 'cudaRuntimeGetVersion', 0)),
    driverVersion: versionString(out((s: number[]) => rt.driverGetVersion(s), 'cudaDriverGetVersion', 0)),
  }
}

/** The occupancy limits of `device`, read without creating a context. */
export function smLimits(device: number): SmLimits {
  const read = (attr: number) => attribute(attr, device)
  return {
    computeCapability: gpuIdentity(device).computeCapability,
    multiProcessors: read(ATTR.multiProcessorCount),
    warpSize: read(ATTR.warpSize),
    maxThreadsPerBlock: read(ATTR.maxThreadsPerBlock),
    maxThreadsPerSm: read(ATTR.maxThreadsPerMultiProcessor),
    maxBlocksPerSm: read(ATTR.maxBlocksPerMultiprocessor),
    registersPerSm: read(ATTR.maxRegistersPerMultiprocessor),
    registersPerBlock: read(ATTR.maxRegistersPerBlock),
    sharedBytesPerSm: read(ATTR.maxSharedMemoryPerMultiprocessor),
    reservedSharedBytesPerBlock: read(ATTR.reservedSharedMemoryPerBlock),
  }
}

function memoryInfo(): { free: number; total: number } {
  const free = [0]
  const total = [0]
  check(cudart().memGetInfo(free, total), 'cudaMemGetInfo')
  return { free: Number(free[0]), total: Number(total[0]) }
}

export function freeMemoryBytes(): number {
  return memoryInfo().free
}

export function malloc(bytes: number): DevicePtr {
  return out((s: bigint[]) => cudart().malloc(s, bytes), `cudaMalloc(${bytes} bytes)`, 0n)
}

export function free(ptr: DevicePtr): void {
  check(cudart().free(ptr), 'cudaFree')
}

/** A handle to `ptr`'s allocation (from cudaMalloc) that another process on the same GPU opens: hex, to travel in a message. */
export function ipcHandle(ptr: DevicePtr): string {
  const handle = Buffer.alloc(IPC_HANDLE_BYTES)
  check(cudart().ipcGetMemHandle(handle, ptr), 'cudaIpcGetMemHandle')
  return handle.toString('hex')
}

/** Maps another process's allocation, named by ipcHandle(), into this one; closeIpc() unmaps it. */
export function openIpc(handle: string): DevicePtr {
  const reserved = new Uint8Array(Buffer.from(handle, 'hex'))
  if (reserved.length !== IPC_HANDLE_BYTES) throw new RangeError(`openIpc: a handle is ${IPC_HANDLE_BYTES} bytes in hex, got ${reserved.length}`)
  return out((s: bigint[]) => cudart().ipcOpenMemHandle(s, { reserved }, IPC_LAZY_PEER_ACCESS), 'cudaIpcOpenMemHandle', 0n)
}

export function closeIpc(ptr: DevicePtr): void {
  check(cudart().ipcCloseMemHandle(ptr), 'cudaIpcCloseMemHandle')
}

/** Page-locked host memory mapped into the device's address space (for the spin kernel's flag). */
export function hostAllocMapped(bytes: number): { host: bigint; device: DevicePtr } {
  const rt = cudart()
  const host = out((s: bigint[]) => rt.hostAlloc(s, bytes, HOST_ALLOC_MAPPED), 'cudaHostAlloc', 0n)
  const device = out((s: bigint[]) => rt.hostGetDevicePointer(s, host, 0), 'cudaHostGetDevicePointer', 0n)
  return { host, device }
}

/** Page-locked host memory: a host address that kernels can also read directly (unified addressing). */
export function hostAlloc(bytes: number): bigint {
  return out((s: bigint[]) => cudart().hostAlloc(s, bytes, 0), 'cudaHostAlloc', 0n)
}

export function freeHost(ptr: bigint): void {
  check(cudart().freeHost(ptr), 'cudaFreeHost')
}

/** cudaMemcpyDefault: the direction follows from the addresses (unified addressing). */
const MEMCPY_DEFAULT = 4

/** Copies `bytes` to device or page-locked memory, from there or from host memory in a Node array. */
export function memcpy(dst: bigint, src: bigint | Uint8Array, bytes: number): void {
  check(cudart().memcpy(dst, src, bytes, MEMCPY_DEFAULT), 'cudaMemcpy')
}

/** Copies `bytes` from device or page-locked memory into a new host buffer (synchronous). */
export function readBytes(src: DevicePtr, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes)
  check(cudart().memcpyToHost(buffer, src, bytes, MEMCPY_DEFAULT), 'cudaMemcpy (to host)')
  return buffer
}

/** Stream-ordered copy between device buffers (or page-locked memory). */
export function memcpyAsync(dst: DevicePtr, src: DevicePtr, bytes: number, stream: StreamHandle = LEGACY_STREAM): void {
  check(cudart().memcpyAsync(dst, src, bytes, MEMCPY_DEFAULT, stream), 'cudaMemcpyAsync')
}

/** cudaLimitPersistingL2CacheSize from driver_types.h. */
const LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06

/** Bytes of L2 set aside for persisting accesses: non-zero once code asks for a carve-out. */
export function persistingL2Bytes(): number {
  return Number(out((s: number[]) => cudart().deviceGetLimit(s, LIMIT_PERSISTING_L2_CACHE_SIZE), 'cudaDeviceGetLimit', 0))
}

/** The device the calling thread's CUDA runtime calls go to. */
export function currentDevice(): number {
  return out((s: number[]) => cudart().getDevice(s), 'cudaGetDevice', 0)
}

/** The current device's flags (cudaSetDeviceFlags: how synchronizations wait, mapped memory, local memory). */
export function deviceFlags(): number {
  return out((s: number[]) => cudart().getDeviceFlags(s), 'cudaGetDeviceFlags', 0)
}

/** Reads and clears the error that the last failed runtime call on this thread left behind (0 when none). */
export function takeLastError(): number {
  return cudart().getLastError() as number
}

/** cudaGetErrorName of a status. */
export function errorName(status: number): string {
  return cudart().getErrorName(status) as string
}

export function memsetAsync(ptr: DevicePtr, value: number, bytes: number, stream: StreamHandle = LEGACY_STREAM): void {
  check(cudart().memsetAsync(ptr, value, bytes, stream), 'cudaMemsetAsync')
}

export function synchronize(): void {
  check(cudart().deviceSynchronize(), 'cudaDeviceSynchronize')
}

/** Reports (and clears) an error left by a kernel launch. */
export function checkLastError(what: string): void {
  check(takeLastError(), what)
}

export function eventCreate(): EventHandle {
  return out((s: bigint[]) => cudart().eventCreate(s), 'cudaEventCreate', 0n)
}

export function eventRecord(event: EventHandle, stream: StreamHandle = LEGACY_STREAM): void {
  check(cudart().eventRecord(event, stream), 'cudaEventRecord')
}

export function eventElapsedMs(start: EventHandle, end: EventHandle): number {
  return out((s: number[]) => cudart().eventElapsedTime(s, start, end), 'cudaEventElapsedTime', 0)
}

/**
 * Records what `enqueue` launches on `stream` into an executable CUDA graph instead of running it. A capture that
 * fails (the code synchronized, or used another stream) is ended before the error is thrown.
 */
export function captureGraph(stream: StreamHandle, enqueue: () => void): GraphExecHandle {
  const rt = cudart()
  let graph = 0n
  check(rt.streamBeginCapture(stream, CAPTURE_MODE_RELAXED), 'cudaStreamBeginCapture')
  try {
    enqueue()
  } finally {
    // A launch the capture refused (e.g. onto the legacy stream) is the real cause of an invalidated capture.
    const launchStatus = rt.getLastError() as number
    const ended = [0n]
    const endStatus = rt.streamEndCapture(stream, ended) as number
    graph = ended[0]!
    if (graph && (launchStatus || endStatus)) rt.graphDestroy(graph)
    check(launchStatus, 'a launch during stream capture')
    check(endStatus, 'cudaStreamEndCapture')
  }
  try {
    return out((s: bigint[]) => rt.graphInstantiate(s, graph, 0), 'cudaGraphInstantiate', 0n)
  } finally {
    check(rt.graphDestroy(graph), 'cudaGraphDestroy')
  }
}

export function graphLaunch(exec: GraphExecHandle, stream: StreamHandle = LEGACY_STREAM): void {
  check(cudart().graphLaunch(exec, stream), 'cudaGraphLaunch')
}

export function graphExecDestroy(exec: GraphExecHandle): void {
  check(cudart().graphExecDestroy(exec), 'cudaGraphExecDestroy')
}

export type GpuProbe = { available: true; count: number } | { available: false; reason: string }

/** Whether a CUDA GPU can be used here, and if not, why (for skips with a visible reason). */
export function probeGpu(): GpuProbe {
  try {
    const count = deviceCount()
    return count > 0 ? { available: true, count } : { available: false, reason: 'no CUDA device found' }
  } catch (error) {
    return { available: false, reason: (error as Error).message }
  }
}

