// Bindings to the range-profiler shim (cuda/range_profiler_shim.cpp), compiled by src/compile/cupti-shim.ts: for one
// solution() call, Nsight Compute's gpu__time_duration.sum summed over every kernel it launched, on any stream, read
// in this process through CUPTI's Range Profiler API. Where the GPU, the driver or the user's rights do not allow
// profiling, a ProfilerUnavailableError says why and how to allow it; other failures are CuptiErrors.
//
// Use: enable(device) before a case's timed calls, timeCall(call) for each, disable() at the end.
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

/** This GPU, driver or user cannot be profiled; the message says why and what to do. */
export class ProfilerUnavailableError extends Error {
  override name = 'ProfilerUnavailable'
}

const OTHER_MODES = "Timing 'cupti' and 'events' need no access to the performance counters."

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
function unavailable(reason: string, cause?: CuptiError): ProfilerUnavailableError {
  const failure = cause ? ` (${cause.message})` : ''
  return new ProfilerUnavailableError(`timing 'profiler' cannot run here${failure}: ${reason} ${OTHER_MODES}`, { cause })
}

/** The ProfilerUnavailableError a CUPTI failure amounts to, when it means that profiling cannot run here at all. */
export function asUnavailable(error: CuptiError): ProfilerUnavailableError | undefined {
  const reason = unavailableReason(error.resultName)
  return reason === undefined ? undefined : unavailable(reason, error)
}

export class RangeProfiler {
  private readonly fns
  private readonly check

  constructor(libraryPath: string) {
    const lib = koffi.load(libraryPath)
    const check = cuptiChecker(lib)
    this.check = (status: number, call: string) => {
      try {
        check(status, call)
      } catch (error) {
        throw (error instanceof CuptiError && asUnavailable(error)) || error
      }
    }
    this.fns = {
      support: lib.func('int kb_prof_support(int device, int *levels)'),
      enable: lib.func('int kb_prof_enable(void *context, int device, size_t maxKernels, _Out_ size_t *passes)'),
      start: lib.func('int kb_prof_start(void)'),
      stop: lib.func('int kb_prof_stop(_Out_ double *ns, _Out_ size_t *kernels, _Out_ size_t *dropped, _Out_ int *allPasses)'),
      disable: lib.func('int kb_prof_disable(void)'),
    }
  }

  /**
   * Enables profiling of the current context (CUDA device `device`'s, selected with the runtime) for calls of up to
   * MAX_KERNELS_PER_CALL kernels. Throws ProfilerUnavailableError when this machine cannot profile.
   */
  enable(device: number): void {
    const levels = new Int32Array(SUPPORT_ASPECTS.length + 1)
    this.check(this.fns.support(device, levels), 'kb_prof_support')
    const unsupported = unsupportedAspects([...levels])
    if (unsupported) throw unavailable(unsupported)
    const passes = [0]
    const status = this.fns.enable(currentContext(), device, MAX_KERNELS_PER_CALL, passes) as number
    const needed = Number(passes[0])
    if (needed > 1) throw unavailable(`gpu__time_duration.sum takes ${needed} passes on this GPU, and only one-pass collection is supported.`)
    this.check(status, 'kb_prof_enable')
  }

  /** Runs `call` with every kernel it launches profiled, and returns their summed duration. */
  timeCall(call: () => void): ProfiledCall {
    this.check(this.fns.start(), 'kb_prof_start')
    const ns = [0]
    const kernels = [0]
    const dropped = [0]
    const allPasses = [0]
    const stop = () => this.fns.stop(ns, kernels, dropped, allPasses) as number
    try {
      call()
    } catch (error) {
      stop() // ends the session; the call's own error is the one to report
      throw error
    }
    this.check(stop(), 'kb_prof_stop')
    if (Number(dropped[0]) > 0) {
      throw new Error(`timing 'profiler': solution() launched more than ${MAX_KERNELS_PER_CALL} kernels in one call (${dropped[0]} were not profiled)`)
    }
    if (!allPasses[0]) throw new Error("timing 'profiler': CUPTI did not collect every pass of gpu__time_duration.sum in one session")
    return { ms: Number(ns[0]) / 1e6, kernels: Number(kernels[0]) }
  }

  disable(): void {
    this.check(this.fns.disable(), 'kb_prof_disable')
  }
}
