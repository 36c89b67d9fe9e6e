// The ready-made problems. Each has Tensara's signature, argument order, shapes and tolerances.
export { vectorAddition } from './vector-addition/index.js'
export { matrixMultiplication, matrixMultiplication as matmul } from './matrix-multiplication/index.js'
