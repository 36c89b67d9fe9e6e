// Bindings to the range-profiler shim (cuda/range_profiler_shim.cpp), compiled by src/compile/cupti-shim.ts: for one
// solution() call, Nsight Compute's gpu__time_duration.sum summed over every kernel it launched, on any stream, read
// in this process through CUPTI's Range Profiler API; or, for the counters, any Nsight Compute metrics per kernel.
// Where the GPU, the driver or the user's rights do not allow profiling, a ProfilerUnavailableError says why and how
// to allow it; other failures are CuptiErrors.
//
// Use: enable(device) before a case's timed calls, timeCall(call) for each, disable() at the end; or
// countCall(device, metrics, prepare, call) for the untimed call of the counters.
import koffi from 'koffi'
import { cuptiChecker, CuptiError } from './cupti.js'
import { currentContext } from './driver.js'

/** Kernels one call may launch: the ranges a session holds. A call that launches more fails its case. */
export const MAX_KERNELS_PER_CALL = 256

/** One profiled call. */
export interface ProfiledCall {
  /** gpu__time_duration.sum summed over the call's kernels, ms. */
  ms: number
  /** Kernels the call launched, each profiled as a range of its own. */
  kernels: number
}

/** One counted call. */
export interface CountedCall {
  /** Per range (each kernel of the call), in launch order: the values of the metrics named, in their order. */
  values: number[][]
  /** The passes the metrics took: how many times the call ran. */
  passes: number
}

/** This GPU, driver or user cannot be profiled; the message says why and what to do. */
export class ProfilerUnavailableError extends Error {
  override name = 'ProfilerUnavailable'
}

/** What the profiler is used for: the `profiler` timing mode, or the counters of an untimed call. */
export type ProfilerUse = 'timing' | 'counters'

const SUBJECT: Record<ProfilerUse, string> = { timing: "timing 'profiler'", counters: 'the performance counters' }
const VERB: Record<ProfilerUse, string> = { timing: 'cannot run here', counters: 'cannot be read here' }
const WAY_OUT: Record<ProfilerUse, string> = {
  timing: "Timing 'cupti' and 'events' need no access to the performance counters.",
  counters: 'The case is timed all the same; only its counters are missing.',
}

/** What a CUPTI failure means for the `profiler` timing mode, when it means the mode cannot run here at all. */
export function unavailableReason(resultName: string): string | undefined {
  switch (resultName) {
    case 'CUPTI_ERROR_INSUFFICIENT_PRIVILEGES':
      return (
        'profiling is restricted to admin users on this machine (the NVIDIA driver restricts access to the GPU ' +
        'performance counters; /proc/driver/nvidia/params then shows RmProfilingAdminOnly: 1). To allow every user, ' +
        'put the line `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in a file under /etc/modprobe.d/, then ' +
        'reload the nvidia kernel module or reboot (run `update-initramfs -u` first where the module is loaded from ' +
        'the initramfs); or run the benchmark as root or with CAP_SYS_ADMIN. ' +
        'See https://developer.nvidia.com/ERR_NVGPUCTRPERM.'
      )
    case 'CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES':
      return 'the hypervisor does not allow profiling on this virtual GPU (ask its administrator to enable vGPU profiling).'
    case 'CUPTI_ERROR_HARDWARE_BUSY':
      return "the GPU's performance counters are in use by another profiler (Nsight Compute, Nsight Systems' GPU metrics, DCGM profiling): stop it, or time in another mode."
    case 'CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED':
      return 'CUPTI cannot profile a MIG instance.'
    case 'CUPTI_ERROR_INVALID_CHIP_NAME':
    case 'CUPTI_ERROR_NOT_COMPATIBLE':
      return "the CUPTI of nvcc's toolkit does not support this GPU or driver: a newer CUDA toolkit (and driver) may."
    case 'CUPTI_ERROR_NOT_SUPPORTED':
    case 'CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED':
    case 'CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED':
    case 'CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED':
    case 'CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED':
    case 'CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED':
      return 'this GPU, or the way it is set up, does not support CUPTI range profiling.'
    default:
      return undefined
  }
}

/** The aspects kb_prof_support reports after the overall level, in its order. */
const SUPPORT_ASPECTS = ['GPU architecture', 'SLI', 'vGPU', 'confidential computing', 'crypto mining processor (CMP)', 'WSL'] as const
const SUPPORT_LEVELS = ['unknown', 'unsupported', 'disabled by the system', 'supported'] as const
const SUPPORTED = 3

/** Why CUPTI says the device cannot be range-profiled, from kb_prof_support's levels; undefined when it can. */
export function unsupportedAspects(levels: readonly number[]): string | undefined {
  if (levels[0] === SUPPORTED) return undefined
  const aspects = SUPPORT_ASPECTS.flatMap((aspect, i) => {
    const level = levels[i + 1] ?? 0
    return level === SUPPORTED ? [] : [`${aspect}: ${SUPPORT_LEVELS[level] ?? `level ${level}`}`]
  })
  return `CUPTI reports that this GPU cannot be range-profiled (${aspects.join('; ') || 'no reason given'}).`
}

/** `cause`: the CUPTI failure that says so, if one did. */
function unavailable(use: ProfilerUse, reason: string, cause?: CuptiError): ProfilerUnavailableError {
  const failure = cause ? ` (${cause.message})` : ''
  return new ProfilerUnavailableError(`${SUBJECT[use]} ${VERB[use]}${failure}: ${reason} ${WAY_OUT[use]}`, { cause })
}

/** The ProfilerUnavailableError a CUPTI failure amounts to, when it means that profiling cannot run here at all. */
export function asUnavailable(error: CuptiError, use: ProfilerUse = 'timing'): ProfilerUnavailableError | undefined {
  const reason = unavailableReason(error.resultName)
  return reason === undefined ? undefined : unavailable(use, reason, error)
}

export class RangeProfiler {
  private readonly fns
  private readonly cuptiCheck
  /** What the profiler was last enabled for: the use its failures are reported for. */
  private use: ProfilerUse = 'timing'

  constructor(libraryPath: string) {
    const lib = koffi.load(libraryPath)
    this.cuptiCheck = cuptiChecker(lib)
    this.fns = {
      support: lib.func('int kb_prof_support(int device, int *levels)'),
      enable: lib.func('int kb_prof_enable(void *context, int device, size_t maxKernels, _Out_ size_t *passes)'),
      start: lib.func('int kb_prof_start(void)'),
      stop: lib.func('int kb_prof_stop(_Out_ double *ns, _Out_ size_t *kernels, _Out_ size_t *dropped, _Out_ int *allPasses)'),
      disable: lib.func('int kb_prof_disable(void)'),
      countersEnable: lib.func(
        'int kb_prof_counters_enable(void *context, int device, size_t maxKernels, const char **metrics, size_t count, _Out_ size_t *passes)',
      ),
      countersEndPass: lib.func('int kb_prof_counters_end_pass(_Out_ int *allPasses)'),
      countersDecode: lib.func('int kb_prof_counters_decode(_Out_ size_t *kernels, _Out_ size_t *dropped)'),
      countersRead: lib.func('int kb_prof_counters_read(size_t range, _Out_ double *values)'),
    }
  }

  private check(status: number, call: string): void {
    try {
      this.cuptiCheck(status, call)
    } catch (error) {
      throw (error instanceof CuptiError && asUnavailable(error, this.use)) || error
    }
  }

  /** CUPTI's device check, before the profiler is enabled for `use`. */
  private checkSupport(device: number, use: ProfilerUse): void {
    this.use = use
    const levels = new Int32Array(SUPPORT_ASPECTS.length + 1)
    this.check(this.fns.support(device, levels), 'kb_prof_support')
    const unsupported = unsupportedAspects([...levels])
    if (unsupported) throw unavailable(use, unsupported)
  }

  /** Runs `call` in one profiling session; `stop` ends it, also when the call throws (its error is then the one). */
  private session<T>(call: () => void, stop: () => T): T {
    this.check(this.fns.start(), 'kb_prof_start')
    try {
      call()
    } catch (error) {
      try {
        stop()
      } catch {
        // the call's own error is the one to report
      }
      throw error
    }
    return stop()
  }

  private checkDropped(use: string, dropped: number): void {
    if (dropped > 0) {
      throw new Error(`${use}: solution() launched more than ${MAX_KERNELS_PER_CALL} kernels in one call (${dropped} were not profiled)`)
    }
  }

  /**
   * Enables profiling of the current context (CUDA device `device`'s, selected with the runtime) for calls of up to
   * MAX_KERNELS_PER_CALL kernels. Throws ProfilerUnavailableError when this machine cannot profile.
   */
  enable(device: number): void {
    this.checkSupport(device, 'timing')
    const passes = [0]
    const status = this.fns.enable(currentContext(), device, MAX_KERNELS_PER_CALL, passes) as number
    const needed = Number(passes[0])
    if (needed > 1) throw unavailable('timing', `gpu__time_duration.sum takes ${needed} passes on this GPU, and only one-pass collection is supported.`)
    this.check(status, 'kb_prof_enable')
  }

  /** Runs `call` with every kernel it launches profiled, and returns their summed duration. */
  timeCall(call: () => void): ProfiledCall {
    const ns = [0]
    const kernels = [0]
    const dropped = [0]
    const allPasses = [0]
    this.session(call, () => this.check(this.fns.stop(ns, kernels, dropped, allPasses), 'kb_prof_stop'))
    this.checkDropped("timing 'profiler'", Number(dropped[0]))
    if (!allPasses[0]) throw new Error("timing 'profiler': CUPTI did not collect gpu__time_duration.sum in one pass")
    return { ms: Number(ns[0]) / 1e6, kernels: Number(kernels[0]) }
  }

  /**
   * Counts `metrics` (Nsight Compute's names) for every kernel `call` launches, on the current context (device
   * `device`'s): the call runs once per pass the metrics take, and `prepare` runs before each, outside profiling
   * (the same inputs: every pass must see what the first saw). `maxKernels`: the most kernels one run of `call`
   * launches for a solution() of up to MAX_KERNELS_PER_CALL.
   * The profiler is enabled for this call alone; call it while profiling is not enabled for timing. Throws
   * ProfilerUnavailableError where the counters cannot be read.
   */
  countCall(device: number, metrics: readonly string[], prepare: () => void, call: () => void, maxKernels: number): CountedCall {
    this.checkSupport(device, 'counters')
    const passes = [0]
    this.check(this.fns.countersEnable(currentContext(), device, maxKernels, metrics, metrics.length, passes), 'kb_prof_counters_enable')
    const needed = Number(passes[0])
    let values: number[][]
    let ran = 0
    try {
      for (let pass = 0; ; pass++) {
        // CUPTI says how many passes it needs; a session that still wants one past them would never end.
        if (pass === needed) throw new Error(`counters: CUPTI wanted more than the ${needed} passes it announced`)
        prepare()
        const allPasses = [0]
        this.session(call, () => this.check(this.fns.countersEndPass(allPasses), 'kb_prof_counters_end_pass'))
        ran = pass + 1
        if (allPasses[0]) break
      }
      const kernels = [0]
      const dropped = [0]
      this.check(this.fns.countersDecode(kernels, dropped), 'kb_prof_counters_decode')
      this.checkDropped('counters', Number(dropped[0]))
      values = Array.from({ length: Number(kernels[0]) }, (_, range) => {
        const row = new Float64Array(metrics.length)
        this.check(this.fns.countersRead(range, row), `kb_prof_counters_read(${range})`)
        return [...row]
      })
    } catch (error) {
      this.fns.disable() // the first failure is the one to report
      throw error
    }
    this.disable()
    return { values, passes: ran }
  }

  disable(): void {
    this.check(this.fns.disable(), 'kb_prof_disable')
  }
}
