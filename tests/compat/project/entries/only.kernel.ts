// Run by ../glue.test.ts: .only leaves every other entry of the file skipped.
import { kernelBench, kernelProperty } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

const spec = { problem: matmul, solution: '../kernels/sgemm.cu', cases: [{ name: '256x256x256', params: { m: 256, n: 256, k: 256 } }] }

kernelBench('bench', spec)
kernelBench.only('bench only', spec)
kernelProperty('property', { ...spec, numRuns: 2 })
kernelProperty.only('property only', { ...spec, numRuns: 2 })
