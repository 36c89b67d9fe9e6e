import { kernelBench } from 'vitest-kernel-bench'
import { vectorAddition } from 'vitest-kernel-bench/problems'

kernelBench('vector add (float4)', {
  problem: vectorAddition,
  solution: '../problems/vector-addition/solutions/vector_add.cu',
})
