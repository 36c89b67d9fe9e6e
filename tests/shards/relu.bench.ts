// A file of the sharded-run fixture (tests/shards/vitest.config.ts): one case, timed for at most a second, then the
// same case under a floor no GPU meets, so that on a GPU the CI guard fails the run that times this file.
import { kernelBench } from 'vitest-kernel-bench'
import { relu } from 'vitest-kernel-bench/problems'

const spec = {
  problem: relu,
  solution: '../../problems/relu/solutions/relu_f32.cu',
  cases: relu.cases('float32').slice(0, 1),
  maxTimeMs: 1000,
}

kernelBench('relu', spec)
kernelBench('relu under an impossible floor', { ...spec, minTflops: 1000 })
