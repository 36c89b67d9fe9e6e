// Matrix multiplication through cuBLAS, as a TypeScript solution: the baseline a hand-written sgemm should
// approach. cuBLAS is column-major; ctx.cublas.sgemm takes the problem's row-major matrices and swaps A and B.
import { defineSolution } from '../../../src/solution.js'

export default defineSolution((ctx) => (inputA: bigint, inputB: bigint, outputC: bigint, m: number, n: number, k: number) => {
  ctx.cublas.sgemm(inputA, inputB, outputC, m, n, k)
})
