// Opening a device session on one GPU, for the processes that own a GPU's CUDA context: the device host (host.ts),
// and the process that launches the calibration kernels for Nsight Compute (calibration-launches.ts).
import { archForComputeCapability } from '../../compile/nvcc.js'
import { compileCuptiShim, compileRangeProfilerShim } from '../../compile/cupti-shim.js'
import { compileHarness } from '../../compile/harness.js'
import * as cuda from '../../native/cuda.js'
import { DeviceSession } from './device-session.js'
import { acquireGpuLock, lockPath } from '../../cache/gpu-lock.js'
import type { HostConfig } from '../../shared/messages.js'

/** Takes the GPU's lock, saying whom it waits for. */
export function lockGpu(pciBusId: string, device: number): () => void {
  return acquireGpuLock(lockPath(pciBusId), (owner) =>
    process.stderr.write(`vitest-kernel-bench: waiting for GPU ${device} (${pciBusId}), in use by process ${owner}\n`),
  )
}

/**
 * Compiles the harness for the GPU's architecture and creates the session's context on it. `warm`: the GPU was busy
 * a moment ago, so the session skips the global warmup.
 */
export function openSession(config: HostConfig, warm: boolean): { session: DeviceSession; arch: string } {
  const identity = cuda.gpuIdentity(config.device)
  const arch = config.arch ?? archForComputeCapability(identity.computeCapability)
  const build = { arch, cacheDir: config.cacheDir, nvcc: config.nvcc, jobs: config.compileJobs }
  const harness = compileHarness(build)
  // Creating a context and loading modules is GPU work: never while another process times on this GPU.
  const release = lockGpu(identity.pciBusId, config.device)
  try {
    cuda.setDevice(config.device)
    const shims = { cupti: () => compileCuptiShim(build).path, rangeProfiler: () => compileRangeProfilerShim(build).path }
    return { session: new DeviceSession(cuda.deviceInfo(config.device), harness.path, shims, warm), arch }
  } finally {
    release()
  }
}
