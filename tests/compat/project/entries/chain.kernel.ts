// Run by ../glue.test.ts: kernelBench and kernelProperty with each modifier and in a describe, on one small case.
import { describe } from 'vitest'
import { kernelBench, kernelProperty } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

const kernel = { problem: matmul, solution: '../kernels/sgemm.cu' }
const spec = { ...kernel, cases: [{ name: '256x256x256', params: { m: 256, n: 256, k: 256 } }] }
// A property draws its own shapes: it takes no cases.
const property = { ...kernel, numRuns: 2 }

kernelBench('bench', spec)
kernelBench.skip('bench skip', spec)
kernelBench.todo('bench todo', spec)
describe('group', () => {
  kernelBench('bench in group', spec)
})
kernelProperty('property', property)
