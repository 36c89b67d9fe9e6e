// A file of the sharded-run fixture (tests/shards/vitest.config.ts): two small cases, timed for at most a second each.
import { kernelBench } from 'vitest-kernel-bench'
import { vectorAddition } from 'vitest-kernel-bench/problems'

kernelBench('vector add (float4)', {
  problem: vectorAddition,
  solution: '../../problems/vector-addition/solutions/vector_add.cu',
  cases: (c) => c.params.n! <= 2 ** 22,
  maxTimeMs: 1000,
})
