// Opening a device session on one GPU, for the processes that own a GPU's CUDA context: the device host (host.ts),
// and the process that launches the calibration kernels for Nsight Compute (calibration-launches.ts). In two steps:
// what needs no context (prepareSession), then the context (openSession).
import { compileCuptiShim, compileRangeProfilerShim, toolkitRootOf } from '../../compile/cupti-shim.js'
import { compileHarness } from '../../compile/harness.js'
import { archForComputeCapability, findNvcc } from '../../compile/nvcc.js'
import { loadCublas } from '../../native/cublas.js'
import { Cupti } from '../../native/cupti.js'
import * as cuda from '../../native/cuda.js'
import { Harness } from '../../native/harness.js'
import { NvmlDevice } from '../../native/nvml.js'
import { CuptiOwnership } from './cupti-ownership.js'
import { harnessProcesses } from './spawned-processes.js'
import { DeviceSession, type SessionLibraries } from './device-session.js'
import { acquireGpuLock, acquireGpuSetup, lockPath } from '../../cache/gpu-lock.js'
import type { HostConfig, HostMessage } from '../../shared/messages.js'

/**
 * Takes the GPU's lock (or, for a set-up, its shared side: see gpu-lock.ts), saying whom it waits for (on stderr,
 * and to the worker, which names it if the wait ends badly).
 */
export function lockGpu(pciBusId: string, device: number, acquire = acquireGpuLock): () => void {
  return acquire(lockPath(pciBusId), (owner) => {
    process.stderr.write(`vitest-kernel-bench: waiting for GPU ${device} (${pciBusId}), in use by process ${owner}\n`)
    // Not while exiting after the worker let go: a send on a closed channel would end the host with an error.
    if (process.connected) process.send?.({ type: 'waiting', owner: Number(owner) } satisfies HostMessage)
  })
}

/**
 * What a host prepares before it has a CUDA context, so that a host started ahead of need (on standby, while another
 * host still works on the GPU) does it off the GPU's clock: the driver initialized, the harness built and loaded,
 * cuBLAS loaded, the toolkit of the CUPTI shims located, the activity-API shim loaded and CUPTI's callback subscriber
 * taken. None of it creates a context or touches the GPU.
 */
export interface PreparedSession {
  config: HostConfig
  pciBusId: string
  arch: string
  libraries: Omit<SessionLibraries, 'nvml'>
}

export function prepareSession(config: HostConfig): PreparedSession {
  const identity = cuda.gpuIdentity(config.device)
  const arch = config.arch ?? archForComputeCapability(identity.computeCapability)
  const build = { arch, cacheDir: config.cacheDir, nvcc: config.nvcc, jobs: config.compileJobs }
  const harness = new Harness(compileHarness(build).path)
  loadCublas()
  try {
    toolkitRootOf(findNvcc(config.nvcc))
  } catch {
    // No toolkit to find: the shims' builders say so when a case needs one.
  }
  // Built when a case first needs them, in the middle of a request: their compiler runs are the harness's processes.
  const shims = {
    cupti: () => harnessProcesses(() => compileCuptiShim(build).path),
    rangeProfiler: () => harnessProcesses(() => compileRangeProfilerShim(build).path),
  }
  // Before any solution loads, CUPTI's one callback subscriber is the harness's. Taken here, on standby: with the
  // context made first, it took 0.44 s of each paired host's open on an H100 (2026-11-28, four hosts at once).
  const cupti = loadCupti(shims.cupti)
  return { config, pciBusId: identity.pciBusId, arch, libraries: { harness, shims, cupti, cuptiOwnership: new CuptiOwnership(cupti) } }
}

/** The activity-API shim, built and loaded, or why it could not be. */
function loadCupti(build: () => string): Cupti | string {
  try {
    return new Cupti(build())
  } catch (error) {
    return `CUPTI could not load (${(error as Error).message.split('\n')[0]})`
  }
}

/**
 * NVML's handle of the GPU, or why NVML cannot be used. Opened with the context, while nobody times on the GPU:
 * initializing NVML queries the driver about every GPU, and whether doing that on standby disturbs another process's
 * timed windows has not been measured on its own.
 */
function openNvml(pciBusId: string): SessionLibraries['nvml'] {
  try {
    return NvmlDevice.open(pciBusId)
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/**
 * Creates the session's context on the prepared GPU, while no other process holds the GPU's lock (other processes
 * may be creating theirs). `warm`: the GPU was busy a moment ago, so the session skips the global warmup.
 */
export function openSession({ config, pciBusId, libraries }: PreparedSession, warm: boolean): { session: DeviceSession; lockWaitMs: number } {
  // Creating a context and loading modules is GPU work: never while another process times on this GPU. But the
  // workers of a run each open a context on every GPU at its start; one after another, that took 1.5-2.2 s per GPU.
  const waiting = performance.now()
  const release = lockGpu(pciBusId, config.device, acquireGpuSetup)
  const lockWaitMs = performance.now() - waiting
  try {
    cuda.setDevice(config.device)
    return { session: new DeviceSession(cuda.deviceInfo(config.device), { ...libraries, nvml: openNvml(pciBusId) }, warm), lockWaitMs }
  } finally {
    release()
  }
}
