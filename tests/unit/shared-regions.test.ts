// The worker's side of the memory both sides of a paired case share (src/engine/worker/shared-regions.ts), against the
// real region host process (src/engine/host/region-host.ts): on a GPU, a region with a CUDA IPC handle, freed on
// request; without one, no region, promptly and every time, so that a paired case places each side's buffers of its own.
import { describe, expect, it } from 'vitest'
import { regionsOn } from '../../src/engine/worker/shared-regions.js'
import { gpu, onGpuTitle, withoutGpuTitle } from '../helpers/gpu.js'

describe.runIf(gpu.available)(onGpuTitle('regionsOn, on a GPU'), () => {
  it('allocates a region with an IPC handle, then frees it', async () => {
    const regions = regionsOn(0)
    const region = await regions(130 * 2 ** 20)
    expect(region?.handle).toMatch(/^[0-9a-f]{128}$/)
    await region!.free()
    const again = await regions(2 * 2 ** 20)
    expect(again?.handle).not.toBe(region!.handle)
    await again!.free()
  })
})

describe.skipIf(gpu.available)(withoutGpuTitle('regionsOn, without a GPU'), () => {
  it('gives no region, and asks again', async () => {
    const regions = regionsOn(0)
    expect(await regions(64 * 2 ** 20)).toBeUndefined()
    expect(await regions(2 * 2 ** 20)).toBeUndefined()
  })
})
