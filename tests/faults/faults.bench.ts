// Issue 7's demonstration: honest benches with every planted fault between them (FAULTS=1), or the honest ones
// alone (a clean run to compare with). Run by scripts/faults-demo.sh on the GPU machine.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { matmul, vectorAddition } from 'vitest-kernel-bench/problems'

const planted = process.env.FAULTS === '1'
const fixture = (name: string) => `../fixtures/solutions/${name}`
const vectorAdd = '../../problems/vector-addition/solutions/vector_add.cu'
const large = (c: { params: Readonly<Record<string, number>> }) => c.params.n === 2 ** 26
const small = (c: { params: Readonly<Record<string, number>> }) => c.params.n === 2 ** 20

const faults: Array<[string, Parameters<typeof kernelBench>[1]]> = [
  ['illegal address', { problem: vectorAddition, solution: fixture('illegal_address.cu'), cases: small }],
  ['infinite loop', { problem: vectorAddition, solution: fixture('infinite_loop.cu'), cases: small, caseTimeoutMs: 5000 }],
  ['NaN output', { problem: vectorAddition, solution: fixture('nan_output.cu'), cases: small }],
  ['partial write', { problem: vectorAddition, solution: fixture('partial_write.cu'), cases: small }],
  ['replay', { problem: vectorAddition, solution: fixture('hostile/memo_output_pointer.cu'), cases: large }],
  ['private stream', { problem: vectorAddition, solution: fixture('hostile/one_private_stream.cu'), cases: large }],
  ['host segfault', { problem: vectorAddition, solution: fixture('host_segfault.cu'), cases: small }],
  ['out of memory', { problem: vectorAddition, solution: vectorAdd, cases: [{ name: 'n = 2^40', params: { n: 2 ** 40 } }] }],
  ['compile error', { problem: vectorAddition, solution: fixture('syntax_error.cu'), cases: small }],
  ['signature mismatch', { problem: vectorAddition, solution: fixture('wrong_signature.cu'), cases: small }],
  ['sleeps past the timeout', { problem: vectorAddition, solution: fixture('sleepy_kernel.cu'), cases: small, caseTimeoutMs: 3000 }],
]

const honest: Array<[string, Parameters<typeof kernelBench>[1]]> = [
  ['vector add 2^26', { problem: vectorAddition, solution: vectorAdd, cases: large }],
  ['tiled sgemm 4096', { problem: matmul, solution: '../../problems/matrix-multiplication/solutions/sgemm_tiled.cu', cases: (c) => c.name === '4096x4096x4096' }],
  ['vector add 2^20', { problem: vectorAddition, solution: vectorAdd, cases: small }],
]

describe('honest and planted', () => {
  // Interleaved: each honest bench runs right after faults, on whatever context the faults left.
  honest.forEach(([name, spec], i) => {
    if (planted) for (const [faultName, faultSpec] of faults.slice(i * 4, i * 4 + 4)) kernelBench(faultName, faultSpec)
    kernelBench(name, spec)
  })
})
