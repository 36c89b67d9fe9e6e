// The worker's side of the memory both sides of a paired case share (src/engine/worker/shared-regions.ts), against the
// real region host process (src/engine/host/region-host.ts): on a GPU, a region with a CUDA IPC handle, freed on
// request, or why not; without one, no region and why, promptly and every time, so that a paired case places each
// side's buffers of its own and says so.
import { describe, expect, it } from 'vitest'
import { regionsOn, type NoRegion, type SharedRegion } from '../../src/engine/worker/shared-regions.js'
import { gpu, onGpuTitle, withoutGpuTitle } from '../helpers/gpu.js'

function region(offer: SharedRegion | NoRegion): SharedRegion {
  if ('unavailable' in offer) throw new Error(`no region: ${offer.unavailable}`)
  return offer
}

describe.runIf(gpu.available)(onGpuTitle('regionsOn, on a GPU'), () => {
  it('allocates a region with an IPC handle, then frees it', async () => {
    const regions = regionsOn(0)
    const first = region(await regions(130 * 2 ** 20))
    expect(first.handle).toMatch(/^[0-9a-f]{128}$/)
    await first.free()
    const again = region(await regions(2 * 2 ** 20))
    expect(again.handle).not.toBe(first.handle)
    await again.free()
  })

  it('says why it gives no region for more memory than the GPU has', async () => {
    const offer = await regionsOn(0)(2 ** 50)
    expect(offer).toEqual({ unavailable: expect.stringMatching(/memory/i) })
  })
})

describe.skipIf(gpu.available)(withoutGpuTitle('regionsOn, without a GPU'), () => {
  it('gives no region, says why, and asks again', async () => {
    const regions = regionsOn(0)
    const offers = [await regions(64 * 2 ** 20), await regions(2 * 2 ** 20)]
    for (const offer of offers) expect(offer).toEqual({ unavailable: expect.stringMatching(/\S/) })
  })
})
