// What the device host compares after every call of a solution and after loading its library (src/engine/
// device-state.ts): each change is named with how to avoid it. The reading itself runs on the GPU
// (tests/gpu/isolation.test.ts).
import { describe, expect, it } from 'vitest'
import { stateChanges, type HarnessState } from '../../src/engine/host/device-state.js'

const HARNESS: HarnessState = { device: 0, context: 0x5555n, scheduleFlags: 0, persistingL2Bytes: 0, lastError: undefined }

describe('stateChanges', () => {
  it('is empty for the harness state itself', () => {
    expect(stateChanges(HARNESS, { ...HARNESS })).toEqual([])
  })

  it('names a persisting-L2 carve-out against the harness value, absolutely, with how to undo it', () => {
    expect(stateChanges(HARNESS, { ...HARNESS, persistingL2Bytes: 4194304 })).toEqual([
      '4194304 bytes of L2 are set aside for persisting accesses (cudaLimitPersistingL2CacheSize; the harness runs with 0): ' +
        'persisting lines survive the L2 flush between timed calls, so every call would start on a warm cache. Remove the ' +
        'access-policy window and the carve-out (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) and cudaCtxResetPersistingL2Cache())',
    ])
  })

  it('names every change at once: an unread error, another device, another context, other flags', () => {
    const changes = stateChanges(HARNESS, { device: 1, context: 0x7777n, scheduleFlags: 4, persistingL2Bytes: 0, lastError: 'cudaErrorInvalidConfiguration' })
    expect(changes).toEqual([
      'a CUDA call failed with cudaErrorInvalidConfiguration and its error was left unread: check the status of every CUDA call (and cudaGetLastError() after each launch)',
      'the current device is 1, not 0: do not call cudaSetDevice (the harness picks the GPU)',
      "the current CUDA context was replaced (cuCtxCreate, cuCtxPushCurrent or cuCtxSetCurrent left another one current): pop or restore it before returning; the harness's buffers and events live in the runtime's primary context",
      "the device flags ask for cudaDeviceScheduleBlockingSync, not cudaDeviceScheduleAuto (cudaSetDeviceFlags): they change how the harness's synchronizations wait; leave them alone",
    ])
  })
})
