import type { Example, Planted } from './types.js'

export const examples: Example[] = []
export const planted: Planted[] = []
