import { ACTIVATION_SHAPES, ROWS_COLS, elementwiseProblem, rowsColsCase } from '../elementwise.js'

/**
 * FLOPs per element of the tanh form 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), counting tanh as one operation
 * (it is one instruction, tanh.approx, on sm_75 and later): x·x, ·x, ·0.044715, +x, ·√(2/π), tanh, 1+, 0.5·x and
 * the final product. Tensara counts 24, charging tanh about 15 FLOPs: for the same runtime its GFLOPS are 24/9 of
 * ours.
 */
const GELU_FLOPS_PER_ELEMENT = 9

/** Tensara's gelu, in its tanh approximation (the form its reference, torch gelu(approximate='tanh'), computes). */
export const gelu = elementwiseProblem({
  name: 'gelu',
  description:
    'GELU of every element of a row-major M×N matrix in the tanh approximation: ' +
    'C[i][j] = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) with x = A[i][j] (not the erf form). n = M rows, m = N columns.',
  signature: [{ name: 'input', kind: 'input' }, { name: 'output', kind: 'output' }, ...ROWS_COLS],
  dims: ['n', 'm'],
  cases: ACTIVATION_SHAPES.map(([rows, cols]) => rowsColsCase(rows, cols)),
  flopsPerElement: GELU_FLOPS_PER_ELEMENT,
  float32: { rtol: 1e-4, atol: 2e-5 },
})
