// The image family's examples: grayscale staged through shared memory in 16-byte loads, a separable box blur in
// shared-memory tiles, and edge detection in two passes over column strips (the image's maximum first). Each
// problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. box_blur.cu.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { boxBlur } from '../problems/box-blur/index.js'
import { edgeDetect } from '../problems/edge-detect/index.js'
import { grayscale } from '../problems/grayscale/index.js'

describe('image', () => {
  for (const problem of [grayscale, boxBlur, edgeDetect]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
})
