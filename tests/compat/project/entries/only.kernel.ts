// Run by ../glue.test.ts: .only leaves every other entry of the file skipped.
import { kernelBench, kernelProperty } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

const kernel = { problem: matmul, solution: '../kernels/sgemm.cu' }
const spec = { ...kernel, cases: [{ name: '256x256x256', params: { m: 256, n: 256, k: 256 } }] }
// A property draws its own shapes: it takes no cases.
const property = { ...kernel, numRuns: 2 }

kernelBench('bench', spec)
kernelBench.only('bench only', spec)
kernelProperty('property', property)
kernelProperty.only('property only', property)
