// What Tensara's pooling problems (avg-pool-1d, -2d, -3d, max-pool-1d, -2d, -3d) share: one row-major float32
// tensor of 1 to 3 dimensions (H; H×W; H×W×D) pooled by a cubic window of kernel_size per dimension, one stride,
// one padding and, for max pooling, one dilation for every dimension; PyTorch's floor-mode output extents; the
// signature `(input, int kernel_size, int stride, int padding[, int dilation], output, size_t H[, W[, D]])`; cases
// built from Tensara's tuples; Tensara's FLOP counts; and a CUDA reference named after the slug.
import { defineProblem, type Problem, type ShapeSpace, type TestCase, type Tolerance } from '../../src/spec/problem.js'
import type { ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

/** The extents' parameter names, in the input's row-major order. */
export const EXTENTS = ['H', 'W', 'D'] as const

export type PoolOp = 'avg' | 'max'

/** One of Tensara's test configurations: the extents (1 to 3 of them) and the window's parameters. */
export interface PoolConfig {
  readonly extents: readonly number[]
  readonly kernel: number
  readonly stride: number
  readonly padding: number
  /** Max pooling only; 1 (no gaps) for average pooling. */
  readonly dilation?: number
}

/** The output extent along one dimension: PyTorch's floor((n + 2P − dilation·(K − 1) − 1) / S) + 1. */
export function pooledExtent(n: number, kernel: number, stride: number, padding: number, dilation = 1): number {
  return Math.floor((n + 2 * padding - dilation * (kernel - 1) - 1) / stride) + 1
}

/** What sets the six pooling problems apart; the rest of their definition is the same. */
export interface PoolSpec {
  readonly name: string
  readonly description: string
  readonly op: PoolOp
  /** 1, 2 or 3: how many of H, W, D the input has. */
  readonly dims: 1 | 2 | 3
  /** Tensara's configurations, in Tensara's order. */
  readonly configs: readonly PoolConfig[]
  /** How Tensara's case names write the dilation of max pooling ('d', 'D' or 'dilation': it differs per problem). */
  readonly dilationLabel?: string
  readonly tolerance: Tolerance
  /**
   * Tensara's max-pool-2d and max-pool-3d count their FLOPs over output extents computed without the dilation
   * (floor((n + 2P − K) / S) + 1), not over the real output; max-pool-1d and average pooling use the real one.
   */
  readonly flopsIgnoreDilation?: boolean
  /** The largest extent kernelProperty() draws for each dimension. */
  readonly maxRandomExtent: number
}

/** The case's window parameters; dilation is 1 where the problem has none. */
function windowOf(params: Readonly<Record<string, number>>): { kernel: number; stride: number; padding: number; dilation: number } {
  return { kernel: params.kernel_size!, stride: params.stride!, padding: params.padding!, dilation: params.dilation ?? 1 }
}

/** The output's extents for the case, with the case's dilation or, where `dilation` is given, with that one. */
function outputExtents(dims: number, params: Readonly<Record<string, number>>, dilation?: number): number[] {
  const w = windowOf(params)
  return EXTENTS.slice(0, dims).map((e) => pooledExtent(params[e]!, w.kernel, w.stride, w.padding, dilation ?? w.dilation))
}

const product = (values: readonly number[]) => values.reduce((a, b) => a * b, 1)

/**
 * How many of a dimension's `n` input positions some window reads: with a dilation, stride and padding that skip
 * positions (stride 3 and dilation 3 read every third), fewer than n.
 */
export function readPositions(n: number, kernel: number, stride: number, padding: number, dilation = 1): number {
  const outputs = pooledExtent(n, kernel, stride, padding, dilation)
  if (outputs <= 0) return 0
  // Window tap k reads o·stride − padding + k·dilation for o = 0 … outputs − 1: a progression of step `stride`. Taps
  // whose offsets agree modulo the stride lie on one lattice; there, each reads a run of lattice points, and the runs
  // are merged. Counting runs rather than positions keeps this cheap for inputs of 2^26 elements.
  const runsByLattice = new Map<number, Array<[number, number]>>()
  for (let k = 0; k < kernel; k++) {
    const first = k * dilation - padding
    const last = first + (outputs - 1) * stride
    // The lattice points inside [0, n): first + j·stride for j from `from` to `to`.
    const from = Math.max(0, Math.ceil(-first / stride))
    const to = Math.min(outputs - 1, Math.floor((n - 1 - first) / stride))
    if (from > to || last < 0) continue
    const lattice = ((first % stride) + stride) % stride
    const base = (first - lattice) / stride
    const runs = runsByLattice.get(lattice) ?? []
    runs.push([base + from, base + to])
    runsByLattice.set(lattice, runs)
  }
  let read = 0
  for (const runs of runsByLattice.values()) {
    runs.sort((a, b) => a[0] - b[0])
    let [start, end] = runs[0]!
    for (const [s, e] of runs.slice(1)) {
      if (s > end + 1) {
        read += end - start + 1
        ;[start, end] = [s, e]
      } else end = Math.max(end, e)
    }
    read += end - start + 1
  }
  return read
}

/** Tensara's signature: the input, the window's ints, the output, then the extents as size_t. */
function poolSignature(op: PoolOp, dims: number): ParamSpec[] {
  const ints = op === 'max' ? ['kernel_size', 'stride', 'padding', 'dilation'] : ['kernel_size', 'stride', 'padding']
  return [
    { name: 'input', kind: 'input' },
    ...ints.map((name): ParamSpec => ({ name, kind: 'scalar', ctype: 'int' })),
    { name: 'output', kind: 'output' },
    ...EXTENTS.slice(0, dims).map((name): ParamSpec => ({ name, kind: 'scalar', ctype: 'size_t' })),
  ]
}

/** One case per config, named as Tensara names it, e.g. 'H=8192, W=4096, K=2, S=2, P=0'. */
function poolCases(spec: PoolSpec): TestCase[] {
  return spec.configs.map((c) => {
    if (c.extents.length !== spec.dims) throw new Error(`${spec.name}: a config has ${c.extents.length} extents, not ${spec.dims}`)
    const params: Record<string, number> = { kernel_size: c.kernel, stride: c.stride, padding: c.padding }
    EXTENTS.slice(0, spec.dims).forEach((e, i) => (params[e] = c.extents[i]!))
    const parts = [...EXTENTS.slice(0, spec.dims).map((e) => `${e}=${params[e]}`), `K=${c.kernel}`, `S=${c.stride}`, `P=${c.padding}`]
    if (spec.op === 'max') {
      params.dilation = c.dilation ?? 1
      parts.push(`${spec.dilationLabel ?? 'dilation'}=${params.dilation}`)
    }
    return { name: parts.join(', '), params }
  })
}

/**
 * Tensara's count: average pooling K^dims per output (K^dims − 1 additions and the division), max pooling
 * K^dims − 1 comparisons per output.
 */
function poolFlops(spec: PoolSpec): (c: TestCase) => number {
  return ({ params }) => {
    const window = params.kernel_size! ** spec.dims
    const outputs = product(outputExtents(spec.dims, params, spec.flopsIgnoreDilation ? 1 : undefined))
    return outputs * (spec.op === 'avg' ? window : window - 1)
  }
}

/**
 * Random shapes for kernelProperty(): every extent up to spec.maxRandomExtent, kernel_size 1 … 7, stride 1 … 4,
 * padding 0 … 3 and dilation 1 … 3. A shape is valid as PyTorch takes it (padding at most half the kernel) and
 * when the dilated window fits in every extent, so that each window holds at least one element of the input
 * (max pooling has no value for a window of padding alone).
 */
function poolShapes(spec: PoolSpec): ShapeSpace {
  const ranges: Record<string, readonly [number, number]> = { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3] }
  if (spec.op === 'max') ranges.dilation = [1, 3]
  for (const e of EXTENTS.slice(0, spec.dims)) ranges[e] = [1, spec.maxRandomExtent]
  return {
    ranges,
    valid: (params) => {
      const w = windowOf(params)
      const span = w.dilation * (w.kernel - 1) + 1
      return 2 * w.padding <= w.kernel && EXTENTS.slice(0, spec.dims).every((e) => params[e]! >= span)
    },
  }
}

/**
 * A Tensara pooling problem: float32 inputs uniform in [-1, 1] (as Tensara draws them), spec.configs as cases,
 * PyTorch's floor-mode output (avg_pool with count_include_pad, so the divisor is always K^dims; max_pool with
 * −∞ padding), Tensara's FLOPs and its reference in cuda/references/<name>.cu.
 */
export function definePoolProblem(spec: PoolSpec): Problem<'float32'> {
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: poolSignature(spec.op, spec.dims),
    dtypes: ['float32'],
    cases: () => poolCases(spec),
    elements: ({ params }) => ({
      input: product(EXTENTS.slice(0, spec.dims).map((e) => params[e]!)),
      // A shape with no output (a window wider than the padded input) gets 0, which the harness refuses by name.
      output: product(outputExtents(spec.dims, params).map((n) => Math.max(n, 0))),
    }),
    flops: poolFlops(spec),
    // The input elements some window reads, once each, and the output written once: a case whose windows skip input
    // (stride and dilation 3) must not be judged against reading all of it (an H100 read such a case at 109% of that).
    bytes: ({ params }) => {
      const w = windowOf(params)
      const read = product(EXTENTS.slice(0, spec.dims).map((e) => readPositions(params[e]!, w.kernel, w.stride, w.padding, w.dilation)))
      const written = product(outputExtents(spec.dims, params).map((n) => Math.max(n, 0)))
      return 4 * (read + written)
    },
    tolerance: { float32: spec.tolerance },
    reference: cudaReference(spec.name),
    shapes: poolShapes(spec),
  })
}
