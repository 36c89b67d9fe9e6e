import { ACTIVATION_SHAPES, ROWS_COLS, elementwiseProblem, rowsColsCase } from '../elementwise.js'

/** Tensara's relu: output = max(0, input) over a row-major rows × cols matrix. */
export const relu = elementwiseProblem({
  name: 'relu',
  description: 'ReLU of every element of a row-major M×N matrix: C[i][j] = max(0, A[i][j]). n = M rows, m = N columns.',
  signature: [{ name: 'input', kind: 'input' }, { name: 'output', kind: 'output' }, ...ROWS_COLS],
  dims: ['n', 'm'],
  cases: ACTIVATION_SHAPES.map(([rows, cols]) => rowsColsCase(rows, cols)),
  // Tensara counts the comparison as one FLOP.
  flopsPerElement: 1,
  float32: { rtol: 6e-5, atol: 3e-5 },
})
