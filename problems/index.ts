// The ready-made problems. Each has Tensara's signature, argument order, shapes and tolerances.
export { vectorAddition } from './vector-addition/index.js'
export { matrixMultiplication, matrixMultiplication as matmul } from './matrix-multiplication/index.js'
export { softmax } from './softmax/index.js'
export { layerNorm } from './layer-norm/index.js'
export { rmsNorm } from './rms-norm/index.js'
export { sumDim } from './sum-dim/index.js'
export { maxDim } from './max-dim/index.js'
export { argmax } from './argmax/index.js'
