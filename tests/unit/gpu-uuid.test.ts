// The board's UUID as the device report carries it (src/native/cuda.ts formatGpuUuid): the 16 bytes of
// cudaDeviceProp.uuid, written as nvidia-smi writes them, so a baseline's board reads the same as `nvidia-smi -L`.
import { describe, expect, it } from 'vitest'
import { formatGpuUuid } from '../../src/native/cuda.js'

describe('formatGpuUuid', () => {
  it('writes the 16 bytes as GPU- and 8-4-4-4-12 hex digits, as nvidia-smi does', () => {
    const bytes = Uint8Array.from(Buffer.from('5108da83e7f51223014353f8def875ed', 'hex'))
    expect(formatGpuUuid(bytes)).toBe('GPU-5108da83-e7f5-1223-0143-53f8def875ed')
    expect(formatGpuUuid(new Uint8Array(16))).toBe('GPU-00000000-0000-0000-0000-000000000000')
  })
})
