import { defineProblem, type TestCase } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** The extents of a case, shape0 … shape4 (1 past ndim), so that kernelProperty() can draw them. */
const SHAPE_PARAMS = ['shape0', 'shape1', 'shape2', 'shape3', 'shape4'] as const

/** Tensara's five shapes, two to five dimensions. */
const SHAPES: readonly (readonly number[])[] = [
  [4096, 4096],
  [8192, 8192],
  [512, 512, 512],
  [64, 64, 64, 64],
  [32, 32, 32, 32, 32],
]

const extentsOf = (params: Readonly<Record<string, number>>) => SHAPE_PARAMS.slice(0, params.ndim).map((param) => params[param]!)
const countOf = ({ params }: TestCase) => extentsOf(params).reduce((a, b) => a * b, 1)

/**
 * Tensara's mse-loss (tensara/problems, problems/mse-loss/def.py as of 32e682c): mean((predictions − targets)²)
 * over a tensor of any shape, one float out. The shape (size_t) is in host memory, as Tensara passes it; only
 * the element count matters to the loss. Tensara counts 3N FLOPs: N subtractions, N squares, N − 1 additions and
 * the division.
 */
export const mseLoss = defineProblem({
  name: 'mse-loss',
  description: 'Mean squared error of two row-major tensors of the same shape: output[0] = mean((predictions − targets)²).',
  signature: [
    { name: 'predictions', kind: 'input' },
    { name: 'targets', kind: 'input' },
    { name: 'output', kind: 'output' },
    { name: 'shape', kind: 'array', ctype: 'size_t', memory: 'host', values: extentsOf },
    { name: 'ndim', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () =>
    SHAPES.map((shape) => {
      const params: Record<string, number> = { ndim: shape.length }
      SHAPE_PARAMS.forEach((param, d) => (params[param] = shape[d] ?? 1))
      return { name: `shape=(${shape.join(', ')})`, params }
    }),
  elements: (c) => ({ predictions: countOf(c), targets: countOf(c), output: 1 }),
  flops: (c) => 3 * countOf(c),
  tolerance: { float32: { rtol: 5e-5, atol: 1e-4 } },
  reference: cudaReference('mse-loss'),
  // 2-D shapes (ndim and the other extents keep the first case's values) up to 2000 × 2000.
  shapes: { ranges: { shape0: [1, 2000], shape1: [1, 2000] } },
})
