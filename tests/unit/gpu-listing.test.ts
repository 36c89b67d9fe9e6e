// The machine's GPU listing kept between runs of one boot: the hint that lets a run start every GPU's host at once.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { keepGpuListing, readGpuListing } from '../../src/cache/gpu-listing.js'
import type { GpuListing } from '../../src/shared/messages.js'
import { useScratch } from '../helpers/scratch.js'

const gpus: GpuListing[] = [
  { index: 0, name: 'NVIDIA H200', pciBusId: '00000000:19:00.0' },
  { index: 1, name: 'NVIDIA H200', pciBusId: '00000000:3B:00.0' },
]

describe.runIf(fs.existsSync('/proc/sys/kernel/random/boot_id'))('the GPU listing kept since boot', () => {
  const dir = useScratch('kb-gpu-listing-')

  it('is read back by a later run with the same GPUs visible, and by none with others', () => {
    expect(readGpuListing(dir(), {})).toBeUndefined()
    keepGpuListing(dir(), gpus, {})
    expect(readGpuListing(dir(), {})).toEqual(gpus)
    expect(readGpuListing(dir(), { CUDA_VISIBLE_DEVICES: '1' })).toBeUndefined()
    keepGpuListing(dir(), [gpus[1]!], { CUDA_VISIBLE_DEVICES: '1' })
    expect(readGpuListing(dir(), { CUDA_VISIBLE_DEVICES: '1' })).toEqual([gpus[1]])
    expect(readGpuListing(dir(), {})).toBeUndefined()
  })

  it('is not one after another boot', () => {
    keepGpuListing(dir(), gpus, {})
    const file = `${dir()}/gpu-listing.json`
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), bootId: 'another-boot' }))
    expect(readGpuListing(dir(), {})).toBeUndefined()
  })
})
