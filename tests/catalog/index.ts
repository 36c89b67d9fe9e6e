import * as basic from './basic.js'
import * as convAttention from './conv-attention.js'
import * as discrete from './discrete.js'
import * as elementwise from './elementwise.js'
import * as finiteField from './finite-field.js'
import * as gemm from './gemm.js'
import * as image from './image.js'
import * as loss from './loss.js'
import * as matmul from './matmul.js'
import * as mx from './mx.js'
import * as norm from './norm.js'
import * as pooling from './pooling.js'
import * as reduction from './reduction.js'
import type { Example, Planted } from './types.js'

const families = [basic, elementwise, gemm, reduction, convAttention, loss, matmul, norm, pooling, image, finiteField, mx, discrete]

export const examples: Example[] = families.flatMap((f) => f.examples)
export const planted: Planted[] = families.flatMap((f) => f.planted)
/** Correct solutions written as Tensara users write them (see each file), which must drop in unchanged. */
export const dropIns: Example[] = [...reduction.dropIns, ...matmul.dropIns]
export type { Example, Planted } from './types.js'
