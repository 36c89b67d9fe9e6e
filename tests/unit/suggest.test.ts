import { describe, expect, it } from 'vitest'
import { closest, didYouMean, editDistance, nameKey, orList, shown } from '../../src/spec/suggest.js'

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0)
    expect(editDistance('abc', '')).toBe(3)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('matmul', 'matmull')).toBe(1)
    expect(editDistance('float32', 'float64')).toBe(2)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })

  it('counts a swap of two adjacent characters as one edit', () => {
    expect(editDistance('flaot32', 'float32')).toBe(1)
    expect(editDistance('ab', 'ba')).toBe(1)
    expect(editDistance('relu', 'rleu')).toBe(1)
  })

  it('is symmetric', () => {
    for (const [a, b] of [['softmaxx', 'softmax'], ['cupti', 'events'], ['bfloat16', 'float16']] as const) {
      expect(editDistance(a, b)).toBe(editDistance(b, a))
    }
  })
})

describe('closest', () => {
  it('ignores case, dashes, underscores and spaces', () => {
    expect(nameKey('Matrix_Multiplication')).toBe(nameKey('matrix-multiplication'))
    expect(closest('matrix_multiplicaton', ['matrixMultiplication', 'matrixVector'])).toEqual(['matrixMultiplication'])
  })

  it('keeps the names within a third of the length (at least 2 edits), closest first', () => {
    expect(closest('float33', ['int32', 'float64', 'float32'])).toEqual(['float32', 'float64'])
    expect(closest('fft', ['relu', 'gelu', 'softmax'])).toEqual([])
  })

  it('compares every spelling of an item and returns the item', () => {
    const items = [{ id: 1, names: ['matrix-multiplication', 'matmul'] }, { id: 2, names: ['relu'] }]
    expect(closest('matmull', items, (i) => i.names).map((i) => i.id)).toEqual([1])
  })
})

describe('didYouMean', () => {
  it('names the closest known names (all of them equally close, up to three), or nothing', () => {
    expect(didYouMean('targetCV', ['targetCv', 'minTimeMs'])).toBe(" (did you mean 'targetCv'?)")
    expect(didYouMean('float33', ['float32', 'float64', 'int32'])).toBe(" (did you mean 'float32'?)")
    expect(didYouMean('minTFlops', ['minGflops', 'minTflops'])).toBe(" (did you mean 'minTflops'?)")
    expect(didYouMean('float', ['float32', 'float64', 'float16', 'bfloat16'])).toBe(" (did you mean 'float32', 'float64' or 'float16'?)")
    expect(didYouMean('zzzzzz', ['float32'])).toBe('')
  })

  it('joins alternatives with commas and a final or', () => {
    expect(orList([])).toBe('')
    expect(orList(['a'])).toBe('a')
    expect(orList(['a', 'b'])).toBe('a or b')
    expect(orList(['a', 'b', 'c'])).toBe('a, b or c')
  })
})

describe('shown', () => {
  it('quotes text, writes objects as JSON cut at 80 characters, and names functions', () => {
    expect([shown('x'), shown(undefined), shown(null), shown(3), shown(() => 1)]).toEqual(["'x'", 'undefined', 'null', '3', 'a function'])
    expect(shown({ a: [1, 2] })).toBe('{"a":[1,2]}')
    expect(shown({ long: 'x'.repeat(100) })).toBe(`${JSON.stringify({ long: 'x'.repeat(100) }).slice(0, 77)}...`)
  })
})
