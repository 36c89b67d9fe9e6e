// kernelProperty() on a real GPU: a planted off-by-one is found and shrunk to the smallest size it breaks on, with
// the wrong-answer message and the seed; an honest solution holds. Skipped, with the reason, where no GPU is usable.
// The fast-check side (shrinking, message, replay) also runs on a simulated bench, GPU or not.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { kernelProperty } from 'vitest-kernel-bench'
import { vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { PreparedKernelBench } from '../../src/vitest/prepare-bench.js'
import type { CaseOutcome } from '../../src/shared/messages.js'
import { resolveMeasureOptions } from '../../src/spec/options.js'
import type { TestCase } from '../../src/spec/problem.js'
import { RESULT_SCHEMA_VERSION, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'
import { checkKernelProperty, checkOnShapes, type KernelPropertySpec } from '../../src/vitest/property.js'
import { resolveShapeSpace } from '../../src/vitest/shapes.js'
import { gpu, onGpuTitle, withoutGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const honest = '../../problems/vector-addition/solutions/vector_add.cu'
/** Wrong from n = 257 on: element 256 is never written. */
const offByOne = '../fixtures/solutions/off_by_one_vector_add.cu'

function check(solution: string, options: Partial<KernelPropertySpec> = {}) {
  return checkKernelProperty('property', { problem: vectorAddition, solution, ...options }, { file, settings })
}

// As a user writes it: verified on 25 sizes drawn from 1..1024 (or skipped, with the reason, without a GPU).
kernelProperty('vector_add.cu adds vectors of every size', { problem: vectorAddition, solution: honest })

it('rejects a shape space with nothing to draw, GPU or not', async () => {
  await expect(check(honest, { shapes: { ranges: {} } })).rejects.toThrow(/shapes of problem 'vector-addition': nothing to draw/)
})

/** A bench that behaves like the off-by-one on the GPU: element 256 is never written once n > 256. */
function simulatedOffByOne(): Pick<PreparedKernelBench, 'header' | 'runCase'> & { ran: string[] } {
  const ran: string[] = []
  const header: KernelBenchResult = {
    version: RESULT_SCHEMA_VERSION,
    bench: 'simulated',
    problem: 'vector-addition',
    solution: offByOne,
    dtype: 'float32',
    mode: 'verify',
    options: resolveMeasureOptions(),
    cases: [],
  }
  const runCase = async (c: TestCase): Promise<CaseResult> => {
    ran.push(c.name)
    const n = c.params.n!
    const message = `wrong answer before timing in case '${c.name}':\n  d_output: 1 of ${n} elements out of tolerance; first bad index 256`
    const outcome: CaseOutcome = n > 256 ? { status: 'wrong', message, outputs: [] } : { status: 'ok', outputs: [], verificationSkipped: false }
    return { name: c.name, params: { ...c.params }, flops: n, bytes: 12 * n, outcome }
  }
  return { header, runCase, ran }
}

describe('on a simulated bench', () => {
  const space = resolveShapeSpace(vectorAddition, 'float32')

  it("shrinks to the smallest failing shape and prints that case's wrong answer", async () => {
    const bench = simulatedOffByOne()
    const outcome = await checkOnShapes(bench, space, { numRuns: 25, seed: 1 })
    if (outcome.status !== 'failed') throw new Error(`expected a failure, got ${outcome.status}`)
    // With this seed the first failing size drawn is a larger one: the message must be the shrunk case's.
    expect(bench.ran.find((name) => Number(name.slice(2)) > 256)).not.toBe('n=257')
    expect(outcome.counterexample).toEqual({ name: 'n=257', params: { n: 257 } })
    expect(outcome.message).toMatch(/^smallest failing shape: n=257 \(found after \d+ shapes, shrunk [1-9]\d* times; replay with `seed: 1`\)\n/)
    expect(outcome.message).toContain("simulated (vector-addition, float32):\n✗ case 'n=257': wrong answer before timing in case 'n=257':\n  d_output: 1 of 257 elements")
  })

  it('prints a seed that replays the same shapes when none was given', async () => {
    const bench = simulatedOffByOne()
    const outcome = await checkOnShapes(bench, space, { numRuns: 25 })
    expect(outcome.status).toBe('failed')
    if (outcome.status !== 'failed') return
    expect(outcome.message).toContain(`replay with \`seed: ${outcome.seed}\``)
    const replay = simulatedOffByOne()
    expect(await checkOnShapes(replay, space, { numRuns: 25, seed: outcome.seed })).toEqual(outcome)
    expect(replay.ran).toEqual(bench.ran)
  })

  it('passes after numRuns shapes that all verify', async () => {
    const bench = simulatedOffByOne()
    const small = resolveShapeSpace(vectorAddition, 'float32', { ranges: { n: [1, 256] } })
    expect(await checkOnShapes(bench, small, { numRuns: 40, seed: 3 })).toEqual({ status: 'passed', numRuns: 40, seed: 3 })
    expect(bench.ran).toHaveLength(40)
  })
})

describe.skipIf(gpu.available)(withoutGpuTitle('without a GPU'), () => {
  it('skips with the reason', async () => {
    expect(await check(honest)).toEqual({ status: 'skipped', reason: expect.stringMatching(/^no usable CUDA GPU: /) })
  })
})

describe.skipIf(!gpu.available)(onGpuTitle('on the GPU'), { timeout: 300_000 }, () => {
  it.each([1, 2, 3])('shrinks the planted off-by-one to n=257 and prints its wrong answer and seed (seed %i)', async (seed) => {
    const outcome = await check(offByOne, { seed })
    expect(outcome.status).toBe('failed')
    if (outcome.status !== 'failed') return
    expect(outcome.counterexample).toEqual({ name: 'n=257', params: { n: 257 } })
    expect(outcome.seed).toBe(seed)
    expect(outcome.message).toMatch(new RegExp(`^smallest failing shape: n=257 \\(found after \\d+ shapes, shrunk \\d+ times; replay with \`seed: ${seed}\`\\)`))
    expect(outcome.message).toContain("✗ case 'n=257': wrong answer before timing in case 'n=257'")
    expect(outcome.message).toMatch(/d_output: 1 of 257 elements out of tolerance .*1 NaN \(never written, or read before written[^)]*\); first bad index 256: expected [^,]+, got NaN; max abs error 0 \(NaN excluded\)/)
  })

  it('holds for an honest solution on the default 25 shapes', async () => {
    expect(await check(honest, { seed: 1 })).toEqual({ status: 'passed', numRuns: 25, seed: 1 })
  })
})
