// The GPU state a device host keeps between cases: the harness library, loaded solutions, the L2 flush buffer,
// padding matrices, timing events, NVML and whether the global warmup has run.
import koffi, { type LibraryHandle } from 'koffi'
import * as cuda from '../native/cuda.js'
import * as cublas from '../native/cublas.js'
import { Cupti } from '../native/cupti.js'
import { Harness } from '../native/harness.js'
import { NvmlDevice } from '../native/nvml.js'
import type { MeasureOptions } from '../options.js'
import { loadTsSolution, type LoadedTsSolution } from '../ts-solution.js'
import type { CallTarget, ModuleTarget } from './protocol.js'

type NativeFunction = (...args: unknown[]) => unknown

/** The spin kernel gives up after this long, so a host that stalls cannot hold the GPU forever. */
const SPIN_TIMEOUT_NS = 2e9

export class DeviceSession {
  readonly info: cuda.DeviceInfo
  readonly harness: Harness
  /** Why clocks are unknown, when NVML could not be used. */
  readonly nvmlError?: string
  private readonly nvml?: NvmlDevice
  readonly maxSmClockMHz: number
  private readonly libraries = new Map<string, LibraryHandle>()
  private readonly functions = new Map<string, NativeFunction>()
  private readonly modules = new Map<string, LoadedTsSolution>()
  private readonly events: Array<[cuda.EventHandle, cuda.EventHandle]> = []
  private flushBuffer?: { ptr: cuda.DevicePtr; bytes: number; sink: cuda.DevicePtr }
  private padding?: { size: number; a: cuda.DevicePtr; b: cuda.DevicePtr; c: cuda.DevicePtr }
  private spinFlag?: { host: bigint; device: cuda.DevicePtr; timedOut: cuda.DevicePtr }
  private warmedUp: boolean
  private cuptiShim?: Cupti
  private scratchWords?: cuda.DevicePtr

  /**
   * Call cuda.setDevice(info.index) first. `warm`: the GPU was busy a moment ago, so skip the global warmup.
   * `cuptiLibrary` builds the CUPTI shim, only when a case first times in `cupti` mode.
   */
  constructor(
    info: cuda.DeviceInfo,
    harnessLibrary: string,
    private readonly cuptiLibrary: () => string,
    warm = false,
  ) {
    this.info = info
    this.warmedUp = warm
    this.harness = new Harness(harnessLibrary)
    try {
      this.nvml = NvmlDevice.open(this.info.pciBusId)
    } catch (error) {
      this.nvmlError = (error as Error).message
    }
    this.maxSmClockMHz = this.nvml?.maxSmClockMHz() ?? this.info.maxSmClockMHz
  }

  driverVersion(): string | undefined {
    return this.nvml?.driverVersion()
  }

  /** Current SM clock, or NaN when NVML is unavailable. */
  smClockMHz(): number {
    return this.nvml ? this.nvml.smClockMHz() : NaN
  }

  /** A koffi function for a compiled entry point, its type built from the problem's signature. */
  fn(target: CallTarget): NativeFunction {
    const key = `${target.library}#${target.entry}(${target.params.join(',')})`
    let fn = this.functions.get(key)
    if (!fn) {
      let lib = this.libraries.get(target.library)
      if (!lib) {
        lib = koffi.load(target.library)
        this.libraries.set(target.library, lib)
      }
      fn = lib.func(target.entry, 'void', target.params) as NativeFunction
      this.functions.set(key, fn)
    }
    return fn
  }

  /** 16 bytes of device memory for markers and sinks. */
  scratch(): cuda.DevicePtr {
    this.scratchWords ??= cuda.malloc(16)
    return this.scratchWords
  }

  cupti(): Cupti {
    this.cuptiShim ??= new Cupti(this.cuptiLibrary())
    return this.cuptiShim
  }

  /** The function a case calls: a compiled entry point, or a TypeScript solution set up once on this GPU. */
  async solution(target: CallTarget | ModuleTarget): Promise<NativeFunction> {
    if (!('module' in target)) return this.fn(target)
    let loaded = this.modules.get(target.module)
    if (!loaded) {
      loaded = await loadTsSolution(target.module, this.info)
      this.modules.set(target.module, loaded)
    }
    const solution = loaded
    return (...args) => solution.call(args as Array<bigint | number>)
  }

  /** DESIGN §3.1: bring the GPU to its working clocks once per process before anything is timed. */
  globalWarmup(options: MeasureOptions): void {
    if (this.warmedUp || options.globalWarmupCount === 0) return
    const n = options.globalWarmupSize
    const bytes = n * n * 4
    const [a, b, c] = [cuda.malloc(bytes), cuda.malloc(bytes), cuda.malloc(bytes)] as const
    try {
      this.harness.fillUniform(a, n * n, 'float32', 1, -1, 1)
      this.harness.fillUniform(b, n * n, 'float32', 2, -1, 1)
      for (let i = 0; i < options.globalWarmupCount; i++) cublas.sgemm(a, b, c, n, n, n)
      cuda.synchronize()
    } finally {
      for (const p of [a, b, c]) cuda.free(p)
    }
    this.warmedUp = true
  }

  /** Pairs of timing events, created once and reused. */
  eventPairs(count: number): Array<[cuda.EventHandle, cuda.EventHandle]> {
    while (this.events.length < count) this.events.push([cuda.eventCreate(), cuda.eventCreate()])
    return this.events.slice(0, count)
  }

  /** Evicts the solution's data from L2 (DESIGN §3.3): by reading a buffer ≥ 2× L2, or writing it for comparison. */
  flushL2(options: MeasureOptions): void {
    if (options.flush === 'none') return
    const bytes = Math.ceil((options.flushFactor * this.info.l2CacheBytes) / 16) * 16
    if (!this.flushBuffer || this.flushBuffer.bytes !== bytes) {
      this.releaseFlushBuffer()
      const ptr = cuda.malloc(bytes)
      const sink = cuda.malloc(16)
      cuda.memsetAsync(ptr, 0, bytes)
      this.flushBuffer = { ptr, bytes, sink }
    }
    const { ptr, sink } = this.flushBuffer
    if (options.flush === 'read') this.harness.flushRead(ptr, bytes, sink)
    else cuda.memsetAsync(ptr, 0, bytes)
  }

  /** Queues GPU work ahead of a timed launch so the host's enqueue is hidden (matmul mode). */
  pad(options: MeasureOptions): void {
    if (options.padding !== 'matmul') return
    const n = options.paddingSize
    if (!this.padding || this.padding.size !== n) {
      this.releasePadding()
      const bytes = n * n * 4
      this.padding = { size: n, a: cuda.malloc(bytes), b: cuda.malloc(bytes), c: cuda.malloc(bytes) }
      this.harness.fillUniform(this.padding.a, n * n, 'float32', 3, -1, 1)
      this.harness.fillUniform(this.padding.b, n * n, 'float32', 4, -1, 1)
    }
    cublas.sgemm(this.padding.a, this.padding.b, this.padding.c, n, n, n)
  }

  /** Spin mode: hold the stream until release(), so a whole batch is queued before any of it runs. */
  block(): void {
    if (!this.spinFlag) {
      const flag = cuda.hostAllocMapped(4)
      this.spinFlag = { host: flag.host, device: flag.device, timedOut: cuda.malloc(4) }
    }
    this.harness.setFlag(this.spinFlag.host, 0)
    this.harness.spin(this.spinFlag.device, SPIN_TIMEOUT_NS, this.spinFlag.timedOut)
  }

  release(): void {
    if (this.spinFlag) this.harness.setFlag(this.spinFlag.host, 1)
  }

  private releaseFlushBuffer(): void {
    if (!this.flushBuffer) return
    cuda.free(this.flushBuffer.ptr)
    cuda.free(this.flushBuffer.sink)
    this.flushBuffer = undefined
  }

  private releasePadding(): void {
    if (!this.padding) return
    for (const p of [this.padding.a, this.padding.b, this.padding.c]) cuda.free(p)
    this.padding = undefined
  }
}
