// The GPU resources a device host keeps between cases: the harness library, loaded solutions, the L2 flush buffer,
// padding matrices, the spin flag, timing events, NVML, the CUPTI shims and whether the global warmup has run. What is done
// with them is the measurement protocol's business (docs/protocol.md, run by measure.ts and timed-iteration.ts).
import path from 'node:path'
import koffi, { type LibraryHandle } from 'koffi'
import * as cuda from '../../native/cuda.js'
import { Cupti } from '../../native/cupti.js'
import { Harness } from '../../native/harness.js'
import { NvmlDevice } from '../../native/nvml.js'
import { RangeProfiler } from '../../native/range-profiler.js'
import { loadTsSolution, type LoadedTsSolution } from './ts-solution.js'
import { CodeIntegrity } from './code-integrity.js'
import { checkState, readState, type HarnessState } from './device-state.js'
import type { CuptiOwnership } from './cupti-ownership.js'
import { PhaseClock } from '../../shared/phases.js'
import type { CallTarget, DeviceInfo, MeasuredOn, ModuleTarget } from '../../shared/messages.js'

type NativeFunction = (...args: unknown[]) => unknown

/** Build the CUPTI shims and return their paths; each only when a case first needs it. */
export interface ShimBuilders {
  /** The activity-API shim: `cupti` timing and the stream audit. */
  cupti: () => string
  /** The range-profiler shim: `profiler` timing and the counters. */
  rangeProfiler: () => string
}

/** The libraries a session uses, loaded before its context exists (open-session.ts). */
export interface SessionLibraries {
  harness: Harness
  /** The GPU's NVML handle, or why NVML cannot be used. */
  nvml: NvmlDevice | { error: string }
  shims: ShimBuilders
  /** The activity-API shim, loaded, or why it could not load. */
  cupti: Cupti | string
  /** CUPTI's callback subscriber, taken by the harness before any solution loads. */
  cuptiOwnership: CuptiOwnership
}

export class DeviceSession {
  readonly info: DeviceInfo
  readonly harness: Harness
  /** Why clocks are unknown, when NVML could not be used. */
  readonly nvmlError?: string
  private readonly nvml?: NvmlDevice
  private readonly shims: ShimBuilders
  readonly maxSmClockMHz: number
  private readonly libraries = new Map<string, LibraryHandle>()
  private readonly functions = new Map<string, NativeFunction>()
  private readonly modules = new Map<string, LoadedTsSolution>()
  private readonly eventPool: cuda.EventHandle[] = []
  private flush?: { ptr: cuda.DevicePtr; bytes: number; sink: cuda.DevicePtr }
  private padding?: { size: number; a: cuda.DevicePtr; b: cuda.DevicePtr; c: cuda.DevicePtr }
  private spin?: { host: bigint; device: cuda.DevicePtr; timedOut: cuda.DevicePtr }
  /** Whether this process has run the global warmup (or replaced a host that had, moments ago). */
  warmedUp: boolean
  /** Where the current case's time goes, phase by phase (taken into its outcome by the host). */
  readonly phases = new PhaseClock()
  private cuptiShim?: Cupti
  private rangeProfilerShim?: RangeProfiler
  private scratchWords?: cuda.DevicePtr
  /** The device state the protocol relies on, as the harness set it up, before any solution was loaded. */
  private readonly harnessState: HarnessState
  /** The process's code and built-ins before any solution ran. */
  private readonly integrity: CodeIntegrity
  /** CUPTI's callback subscriber, held by the harness (the range profiler's users let go of it while it runs). */
  readonly cuptiOwnership: CuptiOwnership

  /** Call cuda.setDevice(info.index) first. `warm`: the GPU was busy a moment ago, so skip the global warmup. */
  constructor(info: DeviceInfo, libraries: SessionLibraries, warm = false) {
    this.info = info
    this.warmedUp = warm
    this.harness = libraries.harness
    this.shims = libraries.shims
    if (libraries.nvml instanceof NvmlDevice) this.nvml = libraries.nvml
    else this.nvmlError = libraries.nvml.error
    this.maxSmClockMHz = this.nvml?.maxSmClockMHz() ?? this.info.maxSmClockMHz
    this.harnessState = readState()
    this.integrity = new CodeIntegrity()
    if (typeof libraries.cupti !== 'string') this.cuptiShim = libraries.cupti
    this.cuptiOwnership = libraries.cuptiOwnership
  }

  /** Fails the case (and retires this host) when code or built-ins of this process were changed since it started. */
  checkIntegrity(who: string, when: string): void {
    this.phases.during('checks', () => {
      this.integrity.check(who, when)
      this.cuptiOwnership.check(who, when)
    })
  }

  /**
   * Fails the case (and retires this host) when the device state differs from the harness's: `who` ran since the
   * last check, and `when` says where in the case this one is.
   */
  checkState(who: string, when: string): void {
    this.phases.during('checks', () => checkState(this.harnessState, who, when))
  }

  driverVersion(): string | undefined {
    return this.nvml?.driverVersion()
  }

  /** The GPU and software a record measured now (ceilings, calibration) was measured on. */
  measuredOn(): MeasuredOn {
    const { name, pciBusId, computeCapability, driverVersion, runtimeVersion } = this.info
    return { name, pciBusId, computeCapability, driverRelease: this.driverVersion(), driverVersion, runtimeVersion }
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
        this.integrity.allowOwnCode(target.library)
        this.settleAfterLoad(`the library built from ${path.basename(target.source ?? target.library)}`)
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
    this.cuptiShim ??= new Cupti(this.shims.cupti())
    return this.cuptiShim
  }

  rangeProfiler(): RangeProfiler {
    this.rangeProfilerShim ??= new RangeProfiler(this.shims.rangeProfiler())
    return this.rangeProfilerShim
  }

  /** The function a case calls: a compiled entry point, or a TypeScript solution set up once on this GPU. */
  async solution(target: CallTarget | ModuleTarget): Promise<NativeFunction> {
    if (!('module' in target)) return this.fn(target)
    let loaded = this.modules.get(target.module)
    if (!loaded) {
      loaded = await loadTsSolution(target.module, this.info)
      this.modules.set(target.module, loaded)
      this.settleAfterLoad(`the module ${path.basename(target.module)}`)
    }
    const solution = loaded
    return (...args) => solution.call(args as Array<bigint | number>)
  }

  /**
   * What code ran when it was loaded (static constructors, a module's top level) may have started GPU work or
   * changed the device state: the work is waited for, the state checked, before anything of the case runs.
   */
  private settleAfterLoad(what: string): void {
    cuda.synchronize()
    this.checkState(`${what}, when it was loaded,`, 'right after loading it')
    this.checkIntegrity(`${what}, when it was loaded,`, 'right after loading it')
  }

  /** Timing events, created once and reused: the first `count` of them. */
  events(count: number): cuda.EventHandle[] {
    while (this.eventPool.length < count) this.eventPool.push(cuda.eventCreate())
    return this.eventPool.slice(0, count)
  }

  /** The L2 flush's scratch buffer of `bytes` (zeroed once) and a word its kernel may write. */
  flushBuffer(bytes: number): { ptr: cuda.DevicePtr; bytes: number; sink: cuda.DevicePtr } {
    if (!this.flush || this.flush.bytes !== bytes) {
      this.releaseFlushBuffer()
      const ptr = cuda.malloc(bytes)
      const sink = cuda.malloc(16)
      cuda.memsetAsync(ptr, 0, bytes)
      this.flush = { ptr, bytes, sink }
    }
    return this.flush
  }

  /** Three square fp32 matrices of edge `size` for matmul padding, a and b filled with values once. */
  paddingMatrices(size: number): { size: number; a: cuda.DevicePtr; b: cuda.DevicePtr; c: cuda.DevicePtr } {
    if (!this.padding || this.padding.size !== size) {
      this.releasePadding()
      const bytes = size * size * 4
      this.padding = { size, a: cuda.malloc(bytes), b: cuda.malloc(bytes), c: cuda.malloc(bytes) }
      this.harness.fillUniform(this.padding.a, size * size, 'float32', 3, -1, 1)
      this.harness.fillUniform(this.padding.b, size * size, 'float32', 4, -1, 1)
    }
    return this.padding
  }

  /** The spin kernel's host-mapped flag and the device word where it records a timeout. */
  spinFlag(): { host: bigint; device: cuda.DevicePtr; timedOut: cuda.DevicePtr } {
    if (!this.spin) {
      const flag = cuda.hostAllocMapped(4)
      this.spin = { host: flag.host, device: flag.device, timedOut: cuda.malloc(4) }
    }
    return this.spin
  }

  /**
   * Frees the flush buffer and the padding matrices, so that the timer's next use allocates them anew, at a new place.
   * A paired A/B block moves them with the case's buffers: where the pre-window work's buffers sit against the case's
   * is otherwise fixed for the life of a process, a difference between the two sides that no block can vary.
   */
  movePreWindowBuffers(): void {
    this.releaseFlushBuffer()
    this.releasePadding()
  }

  private releaseFlushBuffer(): void {
    if (!this.flush) return
    cuda.free(this.flush.ptr)
    cuda.free(this.flush.sink)
    this.flush = undefined
  }

  private releasePadding(): void {
    if (!this.padding) return
    for (const p of [this.padding.a, this.padding.b, this.padding.c]) cuda.free(p)
    this.padding = undefined
  }
}
