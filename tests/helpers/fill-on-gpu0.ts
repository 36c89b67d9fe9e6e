// What the tests of the native timers (cupti.test.ts, profiler.test.ts) run on: GPU 0, the harness library built for
// it, and a buffer of 2^24 floats (64 MiB) that fill() writes, tens of microseconds of GPU work on a datacenter GPU.
// Their suites hold GPU 0's lock, as a device host does for a case: their GPU work must not land in another test
// file's timed windows, and a range profiler they enable must not hold the performance counters while another
// file's case reads them (CUPTI_ERROR_HARDWARE_BUSY).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll } from 'vitest'
import { acquireGpuLock, lockPath } from '../../src/cache/gpu-lock.js'
import { compileHarness, type BuildSettings } from '../../src/compile/harness.js'
import { archForComputeCapability } from '../../src/compile/nvcc.js'
import * as cuda from '../../src/native/cuda.js'
import { Harness } from '../../src/native/harness.js'

export const cacheDir = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'node_modules/.cache/vitest-kernel-bench')
export const FLOATS = 2 ** 24

export interface FillOnGpu0 {
  /** How to build a shim for GPU 0, as the harness was built. */
  build: BuildSettings
  harness: Harness
  buffer: cuda.DevicePtr
  /** Queues one fill of the buffer on the legacy stream. */
  fill(): void
}

/** Opens GPU 0 and fills the buffer `warmups` times (the first launch loads the module), then synchronizes. */
export function fillOnGpu0(warmups: number): FillOnGpu0 {
  cuda.setDevice(0)
  const build = { arch: archForComputeCapability(cuda.deviceInfo(0).computeCapability), cacheDir }
  const harness = new Harness(compileHarness(build).path)
  const buffer = cuda.malloc(FLOATS * 4)
  const fill = () => harness.fillUniform(buffer, FLOATS, 'float32', 1, -1, 1)
  for (let i = 0; i < warmups; i++) fill()
  cuda.synchronize()
  return { build, harness, buffer, fill }
}

/**
 * GPU 0 as fillOnGpu0(warmups) leaves it, for the enclosing suite, which holds GPU 0's lock: locked and opened before
 * its tests (and before the suite's own before hooks), its buffer freed and the lock released after them (after the
 * suite's own after hooks). Such a suite must not run cases itself: their device hosts would wait for its lock.
 */
export function useFillOnGpu0(warmups: number): { gpu0: () => FillOnGpu0; fill: () => void } {
  let current: FillOnGpu0 | undefined
  let release: (() => void) | undefined
  beforeAll(() => {
    release = acquireGpuLock(lockPath(cuda.gpuIdentity(0).pciBusId))
    current = fillOnGpu0(warmups)
  })
  afterAll(() => {
    try {
      if (current) cuda.free(current.buffer)
    } finally {
      release?.()
    }
  })
  const gpu0 = () => {
    if (!current) throw new Error('GPU 0 is read outside the tests of its suite')
    return current
  }
  return { gpu0, fill: () => gpu0().fill() }
}
