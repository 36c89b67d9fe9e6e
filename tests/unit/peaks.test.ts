import { describe, expect, it } from 'vitest'
import { GPU_PEAKS, peaksFor, type PeakDtype } from '../../src/report/peaks.js'

// Device names as cudaGetDeviceProperties().name reports them, and the model each must resolve to.
const KNOWN: ReadonlyArray<readonly [string, string]> = [
  ['NVIDIA H100 80GB HBM3', 'H100 SXM'],
  ['NVIDIA H100 PCIe', 'H100 PCIe'],
  ['NVIDIA H100 NVL', 'H100 NVL'],
  ['NVIDIA H200', 'H200 SXM'],
  ['NVIDIA H800', 'H800 SXM'],
  ['NVIDIA A100-SXM4-80GB', 'A100 80GB SXM'],
  ['NVIDIA A100-SXM4-40GB', 'A100 40GB SXM'],
  ['NVIDIA A100-PCIE-40GB', 'A100 40GB PCIe'],
  ['NVIDIA A100 80GB PCIe', 'A100 80GB PCIe'],
  ['NVIDIA L40S', 'L40S'],
  ['NVIDIA GeForce RTX 4090', 'RTX 4090'],
  ['NVIDIA RTX PRO 6000 Blackwell Workstation Edition', 'RTX PRO 6000 Blackwell'],
  ['NVIDIA B200', 'B200'],
]

const DTYPES: readonly PeakDtype[] = ['float32', 'tf32', 'float16', 'bfloat16', 'fp8']

describe('peaksFor', () => {
  it.each(KNOWN)('resolves %s to %s', (deviceName, model) => {
    expect(peaksFor(deviceName)?.model).toBe(model)
  })

  it('is case-insensitive and tolerant of spacing', () => {
    expect(peaksFor('nvidia h100 pcie')?.model).toBe('H100 PCIe')
    expect(peaksFor('NVIDIA H100 PCIE')?.model).toBe('H100 PCIe')
    expect(peaksFor('  NVIDIA   H100 80GB HBM3 ')?.model).toBe('H100 SXM')
    expect(peaksFor('nvidia a100-pcie-40gb')?.model).toBe('A100 40GB PCIe')
    expect(peaksFor('NVIDIA GEFORCE RTX 4090')?.model).toBe('RTX 4090')
    expect(peaksFor('H200')?.model).toBe('H200 SXM')
  })

  it('keeps H100 PCIe and NVL off the SXM entry', () => {
    expect(peaksFor('NVIDIA H100 PCIe')?.memoryBandwidthGBs).toBe(2000)
    expect(peaksFor('NVIDIA H100 NVL')?.memoryBandwidthGBs).toBe(3900)
    expect(peaksFor('NVIDIA H100 80GB HBM3')?.memoryBandwidthGBs).toBe(3350)
  })

  it('tells the A100 variants apart by form factor and memory size', () => {
    expect(peaksFor('NVIDIA A100-SXM4-80GB')?.memoryBandwidthGBs).toBe(2039)
    expect(peaksFor('NVIDIA A100-SXM4-40GB')?.memoryBandwidthGBs).toBe(1555)
    expect(peaksFor('NVIDIA A100-PCIE-40GB')?.memoryBandwidthGBs).toBe(1555)
    expect(peaksFor('NVIDIA A100 80GB PCIe')?.memoryBandwidthGBs).toBe(1935)
    // Same compute on all four.
    const fp32 = ['A100-SXM4-80GB', 'A100-SXM4-40GB', 'A100-PCIE-40GB', 'A100 80GB PCIe'].map(
      (n) => peaksFor(`NVIDIA ${n}`)?.tflops.float32,
    )
    expect(new Set(fp32)).toEqual(new Set([19.5]))
  })

  it.each([
    '',
    '   ',
    'NVIDIA GeForce RTX 3090',
    'NVIDIA GeForce RTX 4090 D',
    'NVIDIA GeForce RTX 4090 Laptop GPU',
    'NVIDIA GeForce RTX 5090',
    'NVIDIA H20',
    'NVIDIA H200 NVL',
    'NVIDIA H800 PCIe',
    'NVIDIA H100',
    'NVIDIA GH200 480GB',
    'NVIDIA GB200',
    'NVIDIA A100',
    'NVIDIA A10',
    'NVIDIA A800-SXM4-80GB',
    'NVIDIA L40',
    'NVIDIA L4',
    'NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition',
    'NVIDIA RTX PRO 6000 Blackwell Server Edition',
    'NVIDIA RTX 6000 Ada Generation',
    'Tesla V100-SXM2-16GB',
    'AMD Instinct MI300X',
  ])('gives undefined for %j', (deviceName) => {
    expect(peaksFor(deviceName)).toBeUndefined()
  })

  it('returns the entry that GPU_PEAKS holds', () => {
    for (const [deviceName] of KNOWN) {
      expect(GPU_PEAKS).toContain(peaksFor(deviceName))
    }
  })
})

describe('GPU_PEAKS', () => {
  it('has one entry per model', () => {
    const models = GPU_PEAKS.map((p) => p.model)
    expect(new Set(models).size).toBe(models.length)
  })

  it('every model is reachable from some device name', () => {
    const reached = new Set(KNOWN.map(([, model]) => model))
    for (const p of GPU_PEAKS) expect(reached).toContain(p.model)
  })

  it.each(GPU_PEAKS.map((p) => [p.model, p] as const))('%s: source, bandwidth and figures are sane', (_, p) => {
    expect(p.source.trim().length).toBeGreaterThan(20)
    expect(Number.isFinite(p.memoryBandwidthGBs)).toBe(true)
    expect(p.memoryBandwidthGBs).toBeGreaterThan(0)
    // GB/s, not TB/s: every listed part has 500 GB/s to 10 TB/s.
    expect(p.memoryBandwidthGBs).toBeGreaterThan(500)
    expect(p.memoryBandwidthGBs).toBeLessThan(10_000)
    expect(p.tflops.float32).toBeGreaterThan(0)
    for (const [dtype, value] of Object.entries(p.tflops)) {
      expect(DTYPES).toContain(dtype)
      expect(Number.isFinite(value)).toBe(true)
      expect(value).toBeGreaterThan(0)
    }
  })

  it.each(GPU_PEAKS.map((p) => [p.model, p] as const))(
    '%s: tensor figures are ordered tf32 <= 16-bit <= fp8 and 16-bit >= fp32',
    (_, p) => {
      const { float32, tf32, float16, bfloat16, fp8 } = p.tflops
      if (tf32 !== undefined && float16 !== undefined) expect(tf32).toBeLessThanOrEqual(float16)
      if (float16 !== undefined && bfloat16 !== undefined) expect(bfloat16).toBe(float16)
      if (float16 !== undefined && fp8 !== undefined) expect(float16).toBeLessThanOrEqual(fp8)
      if (float16 !== undefined && float32 !== undefined) expect(float16).toBeGreaterThan(float32)
    },
  )

  it('entries cannot be mutated by callers', () => {
    const p = peaksFor('NVIDIA H100 80GB HBM3')!
    expect(Object.isFrozen(p)).toBe(true)
    expect(Object.isFrozen(p.tflops)).toBe(true)
    expect(Object.isFrozen(GPU_PEAKS)).toBe(true)
  })
})

describe('spot checks against the datasheets (dense)', () => {
  it('H100 SXM: FP32 67, BF16 ~989.5, FP8 ~1979, 3.35 TB/s', () => {
    const p = peaksFor('NVIDIA H100 80GB HBM3')!
    expect(p.tflops.float32).toBe(67)
    expect(p.tflops.bfloat16).toBeCloseTo(989.5, 0)
    expect(p.tflops.float16).toBeCloseTo(989.5, 0)
    expect(p.tflops.tf32).toBeCloseTo(494.5, 0)
    expect(p.tflops.fp8).toBeCloseTo(1979, 0)
    expect(p.memoryBandwidthGBs).toBe(3350)
  })

  it('H200 has the H100 SXM compute and 4.8 TB/s', () => {
    const h200 = peaksFor('NVIDIA H200')!
    const h100 = peaksFor('NVIDIA H100 80GB HBM3')!
    expect(h200.memoryBandwidthGBs).toBe(4800)
    expect(h200.tflops).toEqual(h100.tflops)
  })

  it('H100 PCIe: FP32 51, BF16 ~756, 2 TB/s', () => {
    const p = peaksFor('NVIDIA H100 PCIe')!
    expect(p.tflops.float32).toBe(51)
    expect(p.tflops.bfloat16).toBeCloseTo(756.5, 0)
    expect(p.memoryBandwidthGBs).toBe(2000)
  })

  it('A100: FP32 19.5, TF32 156, BF16 312, no FP8', () => {
    const p = peaksFor('NVIDIA A100-SXM4-80GB')!
    expect(p.tflops).toEqual({ float32: 19.5, tf32: 156, float16: 312, bfloat16: 312 })
    expect(p.tflops.fp8).toBeUndefined()
  })

  it('RTX 4090 uses the FP32-accumulate tensor rate (165.2), not the FP16-accumulate one (330.3)', () => {
    const p = peaksFor('NVIDIA GeForce RTX 4090')!
    expect(p.tflops.float16).toBeCloseTo(165.2, 1)
    expect(p.tflops.float32).toBeCloseTo(82.6, 1)
    expect(p.memoryBandwidthGBs).toBe(1008)
  })

  it('RTX PRO 6000 Blackwell has only the figures its datasheet gives', () => {
    const p = peaksFor('NVIDIA RTX PRO 6000 Blackwell Workstation Edition')!
    expect(p.tflops).toEqual({ float32: 125 })
    expect(p.memoryBandwidthGBs).toBe(1792)
  })

  it('B200: dense BF16 2250 (half the 4.5 PFLOPS sparse figure)', () => {
    const p = peaksFor('NVIDIA B200')!
    expect(p.tflops.bfloat16).toBe(2250)
    expect(p.tflops.fp8).toBe(4500)
  })

  it('every source that halves sparse figures says so', () => {
    for (const p of GPU_PEAKS) {
      if (/listed with sparsity/i.test(p.source)) expect(p.source).toMatch(/halved/i)
    }
  })
})
