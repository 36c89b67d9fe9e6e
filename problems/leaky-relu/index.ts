import { ROWS_COLS, elementwiseProblem, rowsColsCase } from '../elementwise.js'

const SHAPES: ReadonlyArray<readonly [rows: number, cols: number]> = [
  [4096, 4096],
  [6144, 4096],
]
const ALPHAS = [0.01, 0.05, 0.1, 0.2]

/** Tensara's leaky-relu: output = input > 0 ? input : alpha · input, for four slopes on two shapes. */
export const leakyRelu = elementwiseProblem({
  name: 'leaky-relu',
  description:
    'Leaky ReLU of every element of a row-major M×N matrix: C[i][j] = A[i][j] if A[i][j] > 0, else alpha·A[i][j]. ' +
    'n = M rows, m = N columns; alpha is a float for every dtype.',
  signature: [{ name: 'input', kind: 'input' }, { name: 'alpha', kind: 'scalar', ctype: 'float' }, { name: 'output', kind: 'output' }, ...ROWS_COLS],
  dims: ['n', 'm'],
  cases: SHAPES.flatMap(([rows, cols]) => ALPHAS.map((alpha) => rowsColsCase(rows, cols, { alpha }))),
  // Tensara counts the comparison and the multiplication as one FLOP.
  flopsPerElement: 1,
  float32: { rtol: 1e-4, atol: 1e-6 },
})
