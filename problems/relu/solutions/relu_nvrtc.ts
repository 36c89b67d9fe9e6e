// ReLU as a TypeScript solution with an NVRTC-compiled kernel: compiled once at setup, launched on every call.
// Tensara's signature is (input, output, n, m) with n·m elements; an element-wise kernel only needs the count.
import { defineSolution } from '../../../src/solution.js'

const SOURCE = `
extern "C" __global__ void relu(const float* __restrict__ input, float* __restrict__ output, size_t count) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    output[i] = fmaxf(input[i], 0.0f);
  }
}
`

const THREADS = 256
// Enough resident blocks to saturate memory bandwidth; the grid-stride loop covers the rest.
const BLOCKS_PER_SM = 32

export default defineSolution((ctx) => {
  const relu = ctx.compileKernel(SOURCE, 'relu', ['pointer', 'pointer', 'size_t'])
  const maxBlocks = ctx.device.multiProcessors * BLOCKS_PER_SM
  return (input: bigint, output: bigint, n: number, m: number) => {
    const count = n * m
    relu.launch({ grid: Math.min(Math.ceil(count / THREADS), maxBlocks), block: THREADS }, input, output, count)
  }
})
