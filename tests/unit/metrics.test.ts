import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { formatBandwidth, formatBytes, formatFlops, formatPercent, formatTime, renderTable } from '../../src/report/format.js'
import { TF32_PRODUCTS_PER_FP32, computeCeiling, gbPerSecond, peakKey, roofline, tflops } from '../../src/report/metrics.js'
import { peaksFor, type GpuPeaks } from '../../src/report/peaks.js'

const H200 = peaksFor('NVIDIA H200')!
const H100_SXM = peaksFor('NVIDIA H100 80GB HBM3')!

describe('tflops and gbPerSecond', () => {
  it('turn a count and a time in ms into rates', () => {
    expect(tflops(1e12, 1000)).toBeCloseTo(1, 12)
    expect(tflops(2e12, 1)).toBeCloseTo(2000, 9)
    expect(tflops(2 * 4096 ** 3, 2)).toBeCloseTo(68.719476736, 9)
    expect(gbPerSecond(1e9, 1000)).toBeCloseTo(1, 12)
    expect(gbPerSecond(12 * 2 ** 20, 0.01)).toBeCloseTo(1258.2912, 9)
  })
})

describe('peakKey', () => {
  it('judges float32 and the half types against their own peak, and has none for float64 or int32', () => {
    expect(peakKey('float32')).toBe('float32')
    expect(peakKey('float16')).toBe('float16')
    expect(peakKey('bfloat16')).toBe('bfloat16')
    expect(peakKey('float64')).toBeUndefined()
    expect(peakKey('int32')).toBeUndefined()
  })
})

describe('computeCeiling', () => {
  it('judges float32 against the fastest fp32-accurate path: 3×TF32 on tensor cores where it beats the CUDA cores', () => {
    expect(TF32_PRODUCTS_PER_FP32).toBe(3)
    // H100 SXM: max(FP32 67, TF32 494.5 / 3 = 164.8333) TFLOPS.
    expect(computeCeiling('float32', H100_SXM)).toBeCloseTo(164.833333333, 9)
    // A GPU whose CUDA cores beat a third of its TF32 rate keeps its FP32 figure: max(80, 150 / 3 = 50) = 80.
    expect(computeCeiling('float32', { tflops: { float32: 80, tf32: 150 } })).toBe(80)
    // Without a TF32 figure (measured cuBLAS ceilings have none), the FP32 figure alone.
    expect(computeCeiling('float32', { tflops: { float32: 67 } })).toBe(67)
  })

  it('keeps the half types on their own tensor-core rate, and has none for float64', () => {
    expect(computeCeiling('float16', H100_SXM)).toBe(989.5)
    expect(computeCeiling('bfloat16', H100_SXM)).toBe(989.5)
    expect(computeCeiling('float64', H100_SXM)).toBeUndefined()
    expect(computeCeiling('float16', { tflops: { float32: 67, tf32: 494.5 } })).toBeUndefined()
  })
})

describe('an fp32 GEMM on an H100 SXM against the 3×TF32 ceiling (164.83 TFLOPS)', () => {
  const flops = 2 * 4096 ** 3
  const bytes = 4 * 3 * 4096 ** 2
  const msAt = (tflopsRate: number) => (flops / (tflopsRate * 1e12)) * 1e3

  it('is the H100 SXM entry', () => expect(H100_SXM.model).toBe('H100 SXM'))

  it('at 100 TFLOPS is not above the roofline: SOL 100 / 164.83 = 60.67%', () => {
    const r = roofline(flops, bytes, msAt(100), 'float32', H100_SXM)
    expect(r.bound).toBe('compute')
    expect(r.solPercent).toBeCloseTo(60.66734075, 6)
    expect(r.solPercent).toBeLessThan(100)
  })

  it('at 200 TFLOPS is above it: SOL 200 / 164.83 = 121.33%', () => {
    const r = roofline(flops, bytes, msAt(200), 'float32', H100_SXM)
    expect(r.solPercent).toBeCloseTo(121.3346815, 6)
    expect(r.solPercent).toBeGreaterThan(100)
  })
})

// fp32 compute ceiling on an H200: max(FP32 67, TF32 494.5 / 3) = 164.8333 TFLOPS.
describe('roofline on an H200 (164.83 TFLOPS fp32-accurate via 3×TF32, 4800 GB/s)', () => {
  it('uses the H200 datasheet figures', () => {
    expect(H200.tflops.float32).toBe(67)
    expect(H200.tflops.tf32).toBe(494.5)
    expect(H200.memoryBandwidthGBs).toBe(4800)
  })

  it('sgemm 4096³ in 4 ms is compute-bound: floor 0.83381 ms, SOL 20.85%', () => {
    const flops = 2 * 4096 ** 3 // 137,438,953,472
    const bytes = 4 * 3 * 4096 ** 2 // 201,326,592
    const r = roofline(flops, bytes, 4, 'float32', H200)
    // compute: 137438953472 / 164.8333e12 s = 0.833805582 ms; memory: 201326592 / 4.8e12 s = 0.041943040 ms
    // SOL = compute % = 0.833805582 / 4 = 34.359738368 TFLOPS / 164.8333 = 20.84513956%
    expect(r.bound).toBe('compute')
    expect(r.floorMs).toBeCloseTo(0.833805582, 8)
    expect(r.solPercent).toBeCloseTo(20.84513956, 6)
    expect(r.computePercent).toBeCloseTo(20.84513956, 6)
    expect(r.bandwidthPercent).toBeCloseTo(1.048576, 9)
  })

  it('vector add of 2^26 floats in 0.2 ms is memory-bound: floor 0.16777 ms, SOL 83.89%', () => {
    const n = 2 ** 26
    const r = roofline(n, 12 * n, 0.2, 'float32', H200)
    // memory: 805306368 / 4.8e12 s = 0.16777216 ms; compute: 67108864 / 164.8333e12 s = 0.00040713 ms
    // compute % = 0.33554432 TFLOPS / 164.8333 = 0.20356582%
    expect(r.bound).toBe('memory')
    expect(r.floorMs).toBeCloseTo(0.16777216, 10)
    expect(r.solPercent).toBeCloseTo(83.88608, 6)
    expect(r.bandwidthPercent).toBeCloseTo(83.88608, 6)
    expect(r.computePercent).toBeCloseTo(0.20356582, 6)
  })

  it('the floor is the larger of the two ceilings, not their sum', () => {
    const r = roofline(494.5e9 / 3, 4.8e9, 2, 'float32', H200) // 1 ms of compute and 1 ms of memory traffic
    expect(r.floorMs).toBeCloseTo(1, 12)
    expect(r.solPercent).toBeCloseTo(50, 9)
  })

  it('a time under the floor gives SOL above 100', () => {
    const n = 2 ** 26
    const r = roofline(n, 12 * n, 0.1, 'float32', H200)
    expect(r.solPercent).toBeCloseTo(167.77216, 6)
    expect(r.solPercent).toBeGreaterThan(100)
  })

  it('uses the tensor-core peak for half types', () => {
    const flops = 2 * 8192 ** 3
    const r = roofline(flops, 2 * 3 * 8192 ** 2, 2, 'bfloat16', H200)
    // 1,099,511,627,776 FLOP / 989.5e12 = 1.111179 ms
    expect(r.bound).toBe('compute')
    expect(r.floorMs).toBeCloseTo(flops / 989.5e9, 9)
  })

  it('with no compute peak for the dtype, judges by bandwidth only', () => {
    const r = roofline(1e15, 4.8e9, 2, 'float64', H200)
    expect(r.computePercent).toBeUndefined()
    expect(r.bound).toBe('memory')
    expect(r.floorMs).toBeCloseTo(1, 12)
  })

  it('with a GPU whose table lacks the dtype, judges by bandwidth only', () => {
    const noHalf: GpuPeaks = { model: 'x', tflops: { float32: 10 }, memoryBandwidthGBs: 1000, source: 'test' }
    const r = roofline(1e15, 1e9, 1, 'float16', noHalf)
    expect(r.computePercent).toBeUndefined()
    expect(r.floorMs).toBeCloseTo(1, 12)
  })
})

describe('formatTime', () => {
  it.each([
    [0.0012, '1.20 µs'],
    [0.00999, '9.99 µs'],
    [0.01, '10.0 µs'],
    [0.4567, '456.7 µs'],
    [0.999, '999.0 µs'],
    [1, '1.000 ms'],
    [9.999, '9.999 ms'],
    [10, '10.00 ms'],
    [999.99, '999.99 ms'],
    [1000, '1.00 s'],
    [12_345, '12.35 s'],
    [Number.NaN, '—'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatTime(ms)).toBe(text)
  })
})

describe('formatFlops', () => {
  it.each([
    [5e8, '0.5 GFLOPS'],
    [123.45e9, '123.5 GFLOPS'],
    [999e9, '999.0 GFLOPS'],
    [1e12, '1.00 TFLOPS'],
    [9.99e12, '9.99 TFLOPS'],
    [10e12, '10.0 TFLOPS'],
    [989.5e12, '989.5 TFLOPS'],
    [Number.NaN, '—'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%d FLOP/s → %s', (rate, text) => {
    expect(formatFlops(rate)).toBe(text)
  })
})

describe('formatBandwidth', () => {
  it.each([
    [0.5, '0.50 GB/s'],
    [9.5, '9.50 GB/s'],
    [10, '10 GB/s'],
    [4026.53184, '4027 GB/s'],
    [Number.NaN, '—'],
  ])('%d GB/s → %s', (rate, text) => {
    expect(formatBandwidth(rate)).toBe(text)
  })
})

describe('formatPercent', () => {
  it.each([
    [undefined, '—'],
    [Number.NaN, '—'],
    [0.5, '0.5%'],
    [9.94, '9.9%'],
    [10, '10%'],
    [83.88608, '84%'],
    [167.77, '168%'],
  ])('%s → %s', (value, text) => {
    expect(formatPercent(value)).toBe(text)
  })
})

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [50 * 2 ** 20, '50 MiB'],
    [143_771_287_552, '134 GiB'],
    [2 ** 50, '1048576 GiB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })
})

describe('renderTable', () => {
  const RED = '\u001b[31m'
  const RESET = '\u001b[39m'

  it('pads columns to the widest cell, left or right, and trims trailing spaces', () => {
    const lines = renderTable(
      ['case', 'time', 'note'],
      [
        ['a', '1.0 ms', 'x'],
        ['longer case', '10.25 ms', ''],
      ],
      ['left', 'right', 'left'],
    )
    expect(lines).toEqual([
      'case             time  note',
      'a              1.0 ms  x',
      'longer case  10.25 ms',
    ])
  })

  it('ignores ANSI colour codes when measuring widths', () => {
    const lines = renderTable(
      ['name', 'value'],
      [
        [`${RED}red${RESET}`, `${RED}1${RESET}`],
        ['plain', '22'],
      ],
      ['left', 'right'],
    )
    expect(lines.map(stripVTControlCharacters)).toEqual(['name   value', 'red        1', 'plain     22'])
    // The colour codes themselves are kept.
    expect(lines[1]).toBe(`${RED}red${RESET}        ${RED}1${RESET}`)
  })

  it('treats a short row as having empty cells', () => {
    expect(renderTable(['a', 'b'], [['x']], ['left', 'left'])).toEqual(['a  b', 'x'])
  })
})
