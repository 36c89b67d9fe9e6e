// Measured ceilings without a GPU: the per-GPU cache (key, write, read back, corrupt files), the "% of practical
// peak" arithmetic, the fallback for a GPU missing from the datasheet table, the terminal golden, the plugin option
// and the CLI's arguments.
import fs from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { describeMeasuringCommand } from '../helpers/measuring-cli.js'
import { CEILINGS, findCeilings } from '../../src/cache/ceilings-cache.js'
import { readCachedRecord, recordFile } from '../../src/cache/gpu-cache.js'
import type { CeilingsOutcome, DeviceReport, MeasuredCeilings } from '../../src/shared/messages.js'
import { ceilingPeaks, ceilingsLine, describeCeilings, peaksNote } from '../../src/report/ceilings.js'
import { caseCells, caseFigures, hasSolAbove100, renderDeviceHeader, renderKernelResult } from '../../src/report/kernel-table.js'
import { roofline } from '../../src/report/metrics.js'
import type { CaseResult, KernelBenchResult } from '../../src/shared/results.js'
import { loadFixture } from '../fixtures/results/index.js'
import { useScratch } from '../helpers/scratch.js'

const plain = (text: string) => stripVTControlCharacters(text)

const hgemm = loadFixture('ceilings-hgemm').result!
const unknownGpu = loadFixture('ceilings-unknown-gpu').result!
const H100 = hgemm.device!

function timing(bestMs: number, smClockMHz = 1980) {
  return { bestMs, medianMs: bestMs * 1.01, repetitions: 10, warmup: 3, smClockMHz }
}

/** Round figures: fp32 50 TFLOPS, fp16 800 TFLOPS, copy 2000 GB/s (no bfloat16). */
function ceilingsOf(device: DeviceReport, overrides: Partial<MeasuredCeilings> = {}): MeasuredCeilings {
  const { name, pciBusId, computeCapability, driverRelease, driverVersion, runtimeVersion } = device
  return {
    version: 1,
    measuredAt: '2026-11-21T10:00:00.000Z',
    gpu: { name, pciBusId, computeCapability, driverRelease, driverVersion, runtimeVersion },
    maxSmClockMHz: 1980,
    gemm: [
      { dtype: 'float32', size: 8192, call: 'cublasSgemm, pedantic math (no TF32)', tflops: 50, ...timing(21.99) },
      { dtype: 'float16', size: 8192, call: 'cublasGemmEx, CUBLAS_COMPUTE_32F, default math (tensor cores)', tflops: 800, ...timing(1.374) },
    ],
    copy: { bytes: 2 ** 30, gbPerSecond: 2000, ...timing(1.074) },
    unavailable: ['bfloat16 GEMM: cublasGemmEx(bfloat16, 8192×8192×8192) failed: CUBLAS_STATUS_NOT_SUPPORTED'],
    ...overrides,
  }
}

describe('the ceilings cache', () => {
  const dir = useScratch('kb-ceilings-')

  const measured = (ceilings: MeasuredCeilings) => vi.fn(async (): Promise<CeilingsOutcome> => ({ status: 'ok', record: ceilings }))

  it('keeps one file per GPU: model, PCI bus id and driver release', () => {
    const file = recordFile(dir(), CEILINGS, H100)
    expect(path.relative(dir(), file)).toBe('ceilings/NVIDIA_H100_80GB_HBM3__00000000_1B_00.0__580.95.05.json')
    expect(recordFile(dir(), CEILINGS, { ...H100, pciBusId: '00000000:2A:00.0' })).not.toBe(file)
    expect(recordFile(dir(), CEILINGS, { ...H100, driverRelease: '580.159.04' })).not.toBe(file)
    expect(path.basename(recordFile(dir(), CEILINGS, { ...H100, driverRelease: undefined }))).toBe('NVIDIA_H100_80GB_HBM3__00000000_1B_00.0__cuda-13.0.json')
  })

  it('measures once when asked, writes the file, and later reads it instead of measuring', async () => {
    const warn = vi.fn()
    const measure = measured(ceilingsOf(H100))
    const first = await findCeilings({ cacheDir: dir(), device: H100, measure, warn })
    expect(first).toEqual({ record: ceilingsOf(H100), file: recordFile(dir(), CEILINGS, H100), source: 'measured' })
    expect(JSON.parse(fs.readFileSync(first!.file, 'utf8'))).toEqual(ceilingsOf(H100))
    expect(fs.readdirSync(path.dirname(first!.file))).toEqual([path.basename(first!.file)]) // no temp file left

    const second = await findCeilings({ cacheDir: dir(), device: H100, measure, warn })
    expect(second).toEqual({ ...first, source: 'cache' })
    expect(measure).toHaveBeenCalledTimes(1)
    // Without the option a cached file is still used; another GPU has none.
    expect((await findCeilings({ cacheDir: dir(), device: H100, warn }))?.source).toBe('cache')
    expect(await findCeilings({ cacheDir: dir(), device: { ...H100, pciBusId: '00000000:2A:00.0' }, warn })).toBeUndefined()
    expect(warn).not.toHaveBeenCalled()
  })

  it('measures nothing without the option, and again with force', async () => {
    const measure = measured(ceilingsOf(H100))
    expect(await findCeilings({ cacheDir: dir(), device: H100, warn: vi.fn() })).toBeUndefined()
    expect(fs.existsSync(path.join(dir(), 'ceilings'))).toBe(false)
    await findCeilings({ cacheDir: dir(), device: H100, measure, warn: vi.fn() })
    const again = await findCeilings({ cacheDir: dir(), device: H100, measure, force: true, warn: vi.fn() })
    expect(again?.source).toBe('measured')
    expect(measure).toHaveBeenCalledTimes(2)
  })

  it('ignores a corrupt file with a warning, and replaces it when asked to measure', async () => {
    const file = recordFile(dir(), CEILINGS, H100)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, '{"version": 1, "gemm": [')
    const warn = vi.fn()
    expect(readCachedRecord(CEILINGS, file, H100, warn)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^ignoring the cached ceilings in ${file}: .*JSON`)))

    const found = await findCeilings({ cacheDir: dir(), device: H100, measure: measured(ceilingsOf(H100)), warn })
    expect(found?.source).toBe('measured')
    expect(readCachedRecord(CEILINGS, file, H100, warn)).toEqual(ceilingsOf(H100))
  })

  it.each([
    ['not an object', '[1, 2]', 'not a JSON object'],
    ['another version', JSON.stringify({ ...ceilingsOf(H100), version: 2 }), 'version 2, expected 1'],
    ['another GPU', JSON.stringify(ceilingsOf({ ...H100, name: 'NVIDIA H200' })), 'measured on another GPU or driver (NVIDIA H200'],
    ['a GEMM without TFLOPS', JSON.stringify({ ...ceilingsOf(H100), gemm: [{ dtype: 'float32', size: 8192 }] }), "'gemm' is not a list"],
    ['a copy without bandwidth', JSON.stringify({ ...ceilingsOf(H100), copy: { bytes: 1 } }), "'copy' has no bandwidth"],
  ])('ignores a file with %s, saying why', (_, text, why) => {
    const file = path.join(dir(), 'bad.json')
    fs.writeFileSync(file, text)
    const warn = vi.fn()
    expect(readCachedRecord(CEILINGS, file, H100, warn)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(why))
  })

  it('warns and caches nothing when the measurement fails', async () => {
    const warn = vi.fn()
    const measure = async (): Promise<CeilingsOutcome> => ({ status: 'error', errorName: 'Timeout', message: 'the ceiling measurement did not finish' })
    expect(await findCeilings({ cacheDir: dir(), device: H100, measure, warn })).toBeUndefined()
    expect(warn).toHaveBeenCalledWith('could not measure the ceilings of NVIDIA H100 80GB HBM3: Timeout: the ceiling measurement did not finish')
    expect(fs.existsSync(recordFile(dir(), CEILINGS, H100))).toBe(false)
  })

  it('still returns measured ceilings when the cache cannot be written', async () => {
    const blocked = path.join(dir(), 'a-file')
    fs.writeFileSync(blocked, '')
    const warn = vi.fn()
    const found = await findCeilings({ cacheDir: blocked, device: H100, measure: measured(ceilingsOf(H100)), warn })
    expect(found?.record).toEqual(ceilingsOf(H100))
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^could not cache the ceilings in /))
  })
})

describe('% of practical peak', () => {
  const peaks = ceilingPeaks(ceilingsOf(H100))!

  it('turns the GEMM ceilings into compute peaks and the copy into the memory bandwidth', () => {
    expect(peaks.tflops).toEqual({ float32: 50, float16: 800 })
    expect(peaks.memoryBandwidthGBs).toBe(2000)
    expect(ceilingPeaks(ceilingsOf(H100, { copy: undefined }))).toBeUndefined()
  })

  it('sgemm 4096³ in 4 ms against cuBLAS at 50 TFLOPS: floor 2.7488 ms, 68.72%', () => {
    // 137,438,953,472 FLOP / 50e12 = 2.74877907 ms; 201,326,592 B / 2000e9 = 0.10066 ms
    const r = roofline(2 * 4096 ** 3, 12 * 4096 ** 2, 4, 'float32', peaks)
    expect(r.bound).toBe('compute')
    expect(r.floorMs).toBeCloseTo(2.74877907, 8)
    expect(r.solPercent).toBeCloseTo(68.7194767, 6)
    expect(r.bandwidthPercent).toBeCloseTo(2.5165824, 7)
  })

  it('vector add of 2^26 floats in 0.5 ms against a 2000 GB/s copy: 80.53%', () => {
    const r = roofline(2 ** 26, 12 * 2 ** 26, 0.5, 'float32', peaks)
    expect(r.bound).toBe('memory')
    expect(r.solPercent).toBeCloseTo(80.5306368, 6)
  })

  it('judges a dtype without a GEMM ceiling by its bytes alone', () => {
    const r = roofline(2 * 4096 ** 3, 6 * 4096 ** 2, 4, 'bfloat16', peaks)
    expect(r.computePercent).toBeUndefined()
    expect(r.bound).toBe('memory')
  })

  it('adds the practical roofline next to the datasheet one for a GPU in the table', () => {
    const c = hgemm.cases[0]!
    const f = caseFigures(hgemm, c)!
    const fp16 = hgemm.ceilings!.gemm.find((g) => g.dtype === 'float16')!.tflops
    expect(f.roofline!.solPercent).toBeCloseTo((c.flops / 989.5e12 / (c.summary!.median * 1e-3)) * 100, 9) // H100 SXM datasheet
    expect(f.practical!.solPercent).toBeCloseTo((c.flops / (fp16 * 1e12) / (c.summary!.median * 1e-3)) * 100, 9)
    const cells = caseCells(hgemm, c)
    if ('status' in cells) throw new Error('not timed')
    expect([cells.figures.sol.text, cells.figures.practical.text]).toEqual(['14%', '18%'])
  })
})

describe('a GPU missing from the datasheet table', () => {
  const timed: CaseResult = unknownGpu.cases[1]!

  it('falls back to the measured ceilings in the % columns', () => {
    const f = caseFigures(unknownGpu, timed)!
    expect(f.roofline).toBeUndefined()
    expect(f.practical!.bandwidthPercent).toBeCloseTo((f.gbPerSecond / unknownGpu.ceilings!.copy!.gbPerSecond) * 100, 9)
    const cells = caseCells(unknownGpu, timed)
    if ('status' in cells) throw new Error('not timed')
    expect([cells.figures.peak.text, cells.figures.bw.text, cells.figures.sol.text, cells.figures.practical.text]).toEqual(['0.2%', '96%', '96%', '96%'])
  })

  it('does not call beating a measured ceiling a wrong measurement', () => {
    const fast: KernelBenchResult = { ...unknownGpu, cases: [{ ...timed, summary: { ...timed.summary!, median: timed.summary!.median / 2 } }] }
    const cells = caseCells(fast, fast.cases[0]!)
    if ('status' in cells) throw new Error('not timed')
    expect(cells.figures.sol).toEqual({ text: '193%', tone: 'plain' })
    expect(hasSolAbove100(fast)).toBe(false)
  })

  it('shows — without ceilings, and the header says how to measure them', () => {
    const bare: KernelBenchResult = { ...unknownGpu, ceilings: undefined }
    const cells = caseCells(bare, timed)
    if ('status' in cells) throw new Error('not timed')
    expect([cells.figures.peak.text, cells.figures.bw.text, cells.figures.sol.text]).toEqual(['—', '—', '—'])
    expect(plain(renderKernelResult(bare))).not.toContain('practical')
    expect(plain(renderDeviceHeader(bare.device!, bare.arch!)).split('\n')[1]).toBe(
      'peaks: no datasheet entry for NVIDIA RTX A6000, so the % columns are blank; `npx vitest-kernel-bench ceilings` measures ceilings to judge against',
    )
  })

  it('says where the peaks come from only when the table lacks the GPU', () => {
    expect(peaksNote('NVIDIA RTX A6000', unknownGpu.ceilings)).toBe(
      'peaks: measured ceilings (cuBLAS 8192³, D2D copy 1.0 GiB), no datasheet entry for NVIDIA RTX A6000',
    )
    expect(peaksNote(H100.name, hgemm.ceilings)).toBeUndefined()
    expect(peaksNote(H100.name, undefined)).toBeUndefined()
  })
})

describe('ceilings in words', () => {
  it('sums them up in one line, with the clocks they ran at', () => {
    expect(ceilingsLine(ceilingsOf(H100))).toBe(
      'measured ceilings (2026-11-21, SM 1980 MHz): cuBLAS 8192³ float32 50.0 TFLOPS, float16 800.0 TFLOPS  ·  D2D copy 2000 GB/s',
    )
    const noNvml = ceilingsOf(H100, { copy: undefined, gemm: ceilingsOf(H100).gemm.map((g) => ({ ...g, smClockMHz: Number.NaN })) })
    expect(ceilingsLine(noNvml)).toBe('measured ceilings (2026-11-21, SM clock unknown): cuBLAS 8192³ float32 50.0 TFLOPS, float16 800.0 TFLOPS')
  })

  it('describes each ceiling and how it was timed, and what could not be measured', () => {
    expect(describeCeilings(ceilingsOf(H100))).toEqual([
      'NVIDIA H100 80GB HBM3  ·  00000000:1B:00.0  ·  driver 580.95.05 (CUDA 13.0)  ·  runtime 13.0  ·  SM clock 1980 MHz max  ·  measured 2026-11-21T10:00:00.000Z',
      '  GEMM 8192³ float32     50.0 TFLOPS  cublasSgemm, pedantic math (no TF32); best 21.99 ms of 10 (median 22.21 ms, after 3 warmup) at 1980 MHz',
      '  GEMM 8192³ float16    800.0 TFLOPS  cublasGemmEx, CUBLAS_COMPUTE_32F, default math (tensor cores); best 1.374 ms of 10 (median 1.388 ms, after 3 warmup) at 1980 MHz',
      '  D2D copy 1.0 GiB         2000 GB/s  read + write counted; best 1.074 ms of 10 (median 1.085 ms, after 3 warmup) at 1980 MHz',
      '  not measured: bfloat16 GEMM: cublasGemmEx(bfloat16, 8192×8192×8192) failed: CUBLAS_STATUS_NOT_SUPPORTED',
    ])
  })
})

describe('terminal golden', () => {
  it('renders the device header and the table with a practical column, on a known and an unknown GPU', async () => {
    const text = [hgemm, unknownGpu].map((r) => `${renderDeviceHeader(r.device!, r.arch!, r)}\n\n${renderKernelResult(r)}\n`).join('\n')
    await expect(plain(text)).toMatchFileSnapshot('./__golden__/ceilings-terminal.txt')
  })
})

describeMeasuringCommand('ceilings', {
  refusals: [
    [['ceilings', '--dtype', 'float16'], 'ceilings does not take --dtype'],
    [['init', 'matmul', '--force'], 'init does not take --force'],
    [['ceilings', '--device', 'first'], "--device must be a CUDA device index (got 'first')"],
    [['ceilings', 'now'], 'unexpected arguments: now'],
  ],
  withoutGpu: 'says why there is nothing to measure without a GPU',
  args: (cacheDir) => ['ceilings', '--cache-dir', cacheDir],
})
