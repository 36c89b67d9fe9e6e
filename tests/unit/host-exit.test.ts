// Which failures end the device host (under the GPU's lock, so that nothing of the process overlaps another
// solution's timing) and which leave it serving the solution's next case.
import { describe, expect, it } from 'vitest'
import { CudaError } from '../../src/native/errors.js'
import { TamperingDetected } from '../../src/engine/host/code-integrity.js'
import { DeviceStateChanged } from '../../src/engine/host/device-state.js'
import { hostMustExit } from '../../src/engine/host/measure.js'
import { SpawnedProcessError } from '../../src/engine/host/spawned-processes.js'
import { EscapedWorkError, IncompleteRecordsError, StrayWorkError } from '../../src/engine/host/stream-audit.js'

describe('hostMustExit', () => {
  it.each([
    ['a lost context', new CudaError('cudaDeviceSynchronize', 700, 'cudaErrorIllegalAddress', 'an illegal memory access')],
    ['a changed device state', new DeviceStateChanged('the device flags changed')],
    ['changed code', new TamperingDetected('libcudart was written to')],
    ['work a thread of the solution launched outside its calls (it may go on launching)', new StrayWorkError('3 pieces')],
    ["CUPTI's records lost or unfinished (work still running after the synchronize)", new IncompleteRecordsError('2 records')],
    ['a process the solution started (its processes are killed with the host)', new SpawnedProcessError('sleep 600')],
  ])('ends the host after %s', (_, error) => {
    expect(hostMustExit(error)).toBe(true)
  })

  it.each([
    ['a call whose stream the timer does not see', new EscapedWorkError('1 of 8 timed calls')],
    ['a CUDA error that leaves the context usable', new CudaError('cudaMalloc', 2, 'cudaErrorMemoryAllocation', 'out of memory')],
    ['any other error', new Error('wrong answer')],
  ])('keeps the host after %s', (_, error) => {
    expect(hostMustExit(error)).toBe(false)
  })

  it('reports stray work under the name of escaped work', () => {
    expect(new StrayWorkError('x').name).toBe('EscapedWork')
  })
})
