// One bench that compiles and three that must fail without a GPU: a syntax error, a signature mismatch, a missing
// file (see tests/unit/cpu-only.test.ts).
import { kernelBench } from 'vitest-kernel-bench'
import { vectorAddition } from 'vitest-kernel-bench/problems'

const small = (c: { params: Readonly<Record<string, number>> }) => c.params.n === 2 ** 20

kernelBench('compiles', { problem: vectorAddition, solution: '../../problems/vector-addition/solutions/vector_add.cu', cases: small })
kernelBench('syntax error', { problem: vectorAddition, solution: '../fixtures/solutions/syntax_error.cu', cases: small })
kernelBench('signature mismatch', { problem: vectorAddition, solution: '../fixtures/solutions/wrong_signature.cu', cases: small })
kernelBench('missing file', { problem: vectorAddition, solution: './no_such_kernel.cu', cases: small })
