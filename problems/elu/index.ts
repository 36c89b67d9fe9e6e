import { ACTIVATION_SHAPES, ROWS_COLS, activationProblem, rowsColsCase } from '../elementwise.js'

/** The alpha of every case: Tensara's elu passes its fixed default, 1.0, and leaves it out of the case names. */
const ELU_ALPHA = 1

/** Tensara's elu: output = input > 0 ? input : alpha · (e^input − 1), alpha the last argument. */
export const elu = activationProblem({
  name: 'elu',
  description:
    'ELU of every element of a row-major M×N matrix: C[i][j] = x if x > 0, else alpha·(e^x − 1), with x = A[i][j]. ' +
    'n = M rows, m = N columns; alpha, after the sizes, is a float for every dtype (1.0 in every case).',
  signature: [
    { name: 'input', kind: 'input' },
    { name: 'output', kind: 'output' },
    ...ROWS_COLS,
    { name: 'alpha', kind: 'scalar', ctype: 'float' },
  ],
  cases: ACTIVATION_SHAPES.map(([rows, cols]) => {
    const { name, params } = rowsColsCase(rows, cols)
    return { name, params: { ...params, alpha: ELU_ALPHA } }
  }),
  // The comparison, e^x, − 1 and alpha ·. Tensara counts 3 per element.
  flopsPerElement: 4,
  float32: { rtol: 1e-4, atol: 5e-5 },
})
