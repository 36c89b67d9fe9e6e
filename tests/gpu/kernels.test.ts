// The product on a real GPU: example solutions verify, wrong ones are caught with a useful message, faults and
// hangs fail only their own case. Skipped, with the reason in the suite's name, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { matrixMultiplication, vectorAddition } from '../../problems/index.js'
import { failureMessage } from '../../src/shared/results.js'
import { guardResult } from '../../src/baseline/guard.js'
import { computeCeiling, TF32_PRODUCTS_PER_FP32, tflops } from '../../src/report/metrics.js'
import { peaksFor } from '../../src/report/peaks.js'
import { useScratch } from '../helpers/scratch.js'
import { gpu, onGpuTitle, withoutGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const fixture = (name: string) => `../fixtures/solutions/${name}`
const solution = (problem: string, name: string) => `../../problems/${problem}/solutions/${name}`
const small = (c: { params: Readonly<Record<string, number>> }) => (c.params.n ?? 0) <= 2 ** 22

function run(spec: KernelBenchSpec, mode: 'verify' | 'bench' = 'verify') {
  return runKernelBench('test', spec, { file, mode, settings })
}

// Three cold nvcc builds (the add and its reference, the sgemm) took 3.4 s and over 5 s (Vitest's default limit) in two
// CI runs on a loaded two-core machine.
describe.skipIf(gpu.available)(withoutGpuTitle('without a GPU'), () => {
  it('skips a bench with the reason instead of crashing, after compiling it (CPU-only CI)', async () => {
    const result = await run({ problem: vectorAddition, solution: solution('vector-addition', 'vector_add.cu') })
    expect(result.skipped).toMatch(/^no usable CUDA GPU: .* — solution and reference compiled and signature-checked for sm_90a;/)
    // cuBLAS is the GEMM reference: only the solution is compiled.
    const gemm = await run({ problem: matrixMultiplication, solution: solution('matrix-multiplication', 'sgemm_naive.cu') })
    expect(gemm.skipped).toMatch(/ — solution compiled and signature-checked for sm_90a; verification and timing need a GPU — 4 cases selected: /)
    expect(result.cases).toEqual([])
  })
})

describe.skipIf(!gpu.available)(onGpuTitle('on the GPU'), { timeout: 300_000 }, () => {
  const scratch = useScratch('kb-kernels-')
  it.each([
    ['vector-addition', 'vector_add.cu', vectorAddition],
    ['matrix-multiplication', 'sgemm_naive.cu', matrixMultiplication],
    ['matrix-multiplication', 'sgemm_tiled.cu', matrixMultiplication],
  ] as const)('%s: %s verifies on every default case', async (dir, name, problem) => {
    const result = await run({ problem, solution: solution(dir, name) })
    expect(failureMessage(result)).toBeUndefined()
    expect(result.cases.map((c) => c.name)).toEqual(problem.cases('float32').map((c) => c.name))
    for (const c of result.cases) {
      expect(c.outcome.status).toBe('ok')
      if (c.outcome.status === 'ok') expect(c.outcome.outputs[0]?.comparison.badCount).toBe(0)
    }
  })

  it('a .cu solution calling cuBLAS verifies on every default case, linked with build: { libraries: [cublas] }', async () => {
    const result = await run({ problem: matrixMultiplication, solution: fixture('cublas_sgemm.cu'), build: { libraries: ['cublas'] } })
    expect(failureMessage(result)).toBeUndefined()
    expect(result.cases.map((c) => c.outcome.status)).toEqual(matrixMultiplication.cases('float32').map(() => 'ok'))
  })

  it('an fp32 sgemm on tensor cores (3×TF32) verifies at fp32 tolerance and is judged against the 3×TF32 roofline, not refused', async () => {
    const result = await run({ problem: matrixMultiplication, solution: fixture('sgemm_3xtf32.cu'), cases: (c) => c.params.m === 4096 && c.params.n === 4096 }, 'bench')
    expect(failureMessage(result)).toBeUndefined()
    const [c] = result.cases
    if (c?.outcome.status !== 'ok' || !c.summary) throw new Error(`not timed: ${JSON.stringify(c?.outcome)}`)
    expect(c.outcome.outputs[0]?.comparison.badCount).toBe(0)
    const peaks = peaksFor(result.device!.name)!
    // The guard's own roofline check, with no baseline to compare with in a folder of its own.
    const root = scratch()
    const judged = guardResult(result, { benchFile: path.join(root, 'gemm.bench.ts'), root, rules: { floors: {}, allowAboveRoofline: false }, update: false })
    expect(judged.cases[0]?.verdict?.kind).not.toBe('above-roofline')
    const measured = tflops(c.flops, c.summary.median)
    const ceiling = computeCeiling('float32', peaks)!
    expect(ceiling).toBeGreaterThanOrEqual(peaks.tflops.float32!)
    console.log(
      `3×TF32 sgemm 4096³ on ${result.device!.name}: ${measured.toFixed(1)} TFLOPS, against the fp32 ceiling ${ceiling.toFixed(1)} ` +
        `(CUDA cores ${peaks.tflops.float32}, TF32 ${peaks.tflops.tf32} / ${TF32_PRODUCTS_PER_FP32})`,
    )
  })

  it('names the case, first bad index, expected and got values and max error of a wrong answer', async () => {
    const result = await run({ problem: vectorAddition, solution: fixture('wrong_vector_add.cu'), cases: small })
    const message = failureMessage(result)
    expect(message).toContain("case 'n = 2^20'")
    expect(message).toMatch(/d_output: \d+ of 1048576 elements out of tolerance \(rtol 0.0002, atol 0.0001\)/)
    expect(message).toMatch(/first bad index 12345: expected -?\d+\.\d+, got -?\d+\.\d+; max abs error 0\.0\d+/)
  })

  it('verifies a BLAS-style sgemm that reads C with beta = 0: the matrix problems start C at zero', async () => {
    const result = await run({ problem: matrixMultiplication, solution: fixture('sgemm_beta_c.cu'), cases: (c) => c.params.m === 4096 && c.params.k === 4096 })
    expect(result.cases.length).toBeGreaterThan(0)
    expect(failureMessage(result)).toBeUndefined()
  })

  it('catches an element that is never written (NaN poison)', async () => {
    const result = await run({ problem: vectorAddition, solution: fixture('partial_write.cu'), cases: small })
    expect(failureMessage(result)).toMatch(/d_output: 1 of 1048576 elements out of tolerance .*1 NaN \(never written, or read before written[^)]*\); first bad index 1048575/)
  })

  it('fails only the faulting case, with the CUDA error name, and the next bench runs on a fresh context', async () => {
    const faulty = await run({ problem: vectorAddition, solution: fixture('illegal_address.cu'), cases: small })
    expect(faulty.cases.map((c) => c.outcome.status)).toEqual(['error', 'error'])
    expect(failureMessage(faulty)).toMatch(/cudaErrorIllegalAddress/)
    const after = await run({ problem: vectorAddition, solution: solution('vector-addition', 'vector_add.cu'), cases: small })
    expect(failureMessage(after)).toBeUndefined()
  })

  it('ends a kernel that never finishes after the case timeout and goes on', async () => {
    const started = performance.now()
    const hung = await run({ problem: vectorAddition, solution: fixture('infinite_loop.cu'), cases: [{ name: 'tiny', params: { n: 1024 } }], caseTimeoutMs: 5000 })
    expect(failureMessage(hung)).toMatch(/Timeout: case 'tiny' did not finish within 5 s/)
    expect(performance.now() - started).toBeLessThan(60_000)
    const after = await run({ problem: vectorAddition, solution: solution('vector-addition', 'vector_add.cu'), cases: small })
    expect(failureMessage(after)).toBeUndefined()
  })

  it('times a verified case under the protocol and never reports more than the hardware allows', async () => {
    const result = await run({ problem: vectorAddition, solution: solution('vector-addition', 'vector_add.cu'), cases: (c) => c.params.n === 2 ** 26 }, 'bench')
    const [c] = result.cases
    expect(c?.outcome.status).toBe('ok')
    if (c?.outcome.status !== 'ok' || !c.summary || !c.outcome.timing) throw new Error('no timing')
    expect(c.summary.n).toBeGreaterThanOrEqual(5)
    expect(['target-cv', 'noise-stable']).toContain(c.outcome.timing.stopReason)
    // 12 bytes per element in 2^26 elements: at most the GPU's bandwidth (H100/H200 are under 5 TB/s).
    const gbps = c.bytes / (c.summary.median * 1e-3) / 1e9
    expect(gbps).toBeGreaterThan(500)
    expect(gbps).toBeLessThan(5000)
  })
})
