// The pooling family's examples: one thread per output, warps along the innermost dimension, each window clipped to
// the input once per dimension (problems/pool-common/pool.cuh). Each problem's example is
// problems/<name>/solutions/<name with underscores>.cu, e.g. avg_pool_2d.cu.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { avgPool1d } from '../problems/avg-pool-1d/index.js'
import { avgPool2d } from '../problems/avg-pool-2d/index.js'
import { avgPool3d } from '../problems/avg-pool-3d/index.js'
import { maxPool1d } from '../problems/max-pool-1d/index.js'
import { maxPool2d } from '../problems/max-pool-2d/index.js'
import { maxPool3d } from '../problems/max-pool-3d/index.js'

const families = { 'average pooling': [avgPool1d, avgPool2d, avgPool3d], 'max pooling': [maxPool1d, maxPool2d, maxPool3d] }

for (const [family, problems] of Object.entries(families)) {
  describe(family, () => {
    for (const problem of problems) {
      kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
    }
  })
}
