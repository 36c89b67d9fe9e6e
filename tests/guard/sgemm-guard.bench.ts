// The CI guard on a real GPU: one bench name whose solution is chosen by SGEMM_SOLUTION (tiled or naive), so a
// baseline recorded from the tiled sgemm can be checked against the naive one. Run by scripts/guard-demo.sh.
import { kernelBench } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

const solution = process.env.SGEMM_SOLUTION === 'naive' ? 'sgemm_naive.cu' : 'sgemm_tiled.cu'

kernelBench('sgemm 4096', {
  problem: matmul,
  solution: `../../problems/matrix-multiplication/solutions/${solution}`,
  cases: (c) => c.name === '4096x4096x4096',
})
