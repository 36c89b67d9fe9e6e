import * as basic from './basic.js'
import * as convAttention from './conv-attention.js'
import * as elementwise from './elementwise.js'
import * as gemm from './gemm.js'
import * as loss from './loss.js'
import * as pooling from './pooling.js'
import * as reduction from './reduction.js'
import type { Example, Planted } from './types.js'

const families = [basic, elementwise, gemm, reduction, convAttention, loss, pooling]

export const examples: Example[] = families.flatMap((f) => f.examples)
export const planted: Planted[] = families.flatMap((f) => f.planted)
export { dropIns } from './reduction.js'
export type { Example, Planted } from './types.js'
