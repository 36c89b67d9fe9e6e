import { describe, expect, it } from 'vitest'
import { caseBytes, checkFits, inputSeed } from '../../src/engine/host/buffers.js'
import type { CasePlan } from '../../src/shared/messages.js'
import { resolveMeasureOptions } from '../../src/spec/options.js'

const MiB = 2 ** 20

/** A vector addition of n floats: 8n bytes of inputs, 4n of output (12n with its reference and checked copies). */
function plan(n: number): CasePlan {
  return {
    benchName: 'b',
    caseName: `n = ${n}`,
    seed: 1,
    args: [
      { kind: 'input', name: 'a', dtype: 'float32', count: n, range: [-1, 1] },
      { kind: 'input', name: 'b', dtype: 'float32', count: n, range: [-1, 1] },
      { kind: 'output', name: 'c', dtype: 'float32', count: n },
      { kind: 'scalar', ctype: 'size_t', value: n },
    ],
    tolerance: { rtol: 0, atol: 0 },
    solution: { library: 'x.so', entry: 'solution', params: [] },
    reference: { kind: 'gemm', dtype: 'float32' },
    mode: 'bench',
    options: resolveMeasureOptions(),
  }
}

describe('case memory', () => {
  it('counts the inputs once and each output three times: the solution\'s, the reference\'s and a checked copy', () => {
    expect(caseBytes(plan(MiB))).toBe(8 * MiB + 3 * 4 * MiB)
  })

  it('lets a case through when it fits exactly', () => {
    expect(() => checkFits(plan(MiB), 20 * MiB, 'GPU')).not.toThrow()
  })

  it('fails a case that does not fit, naming it, the need and what is free', () => {
    expect(() => checkFits(plan(MiB), 15 * MiB, 'NVIDIA H200')).toThrow(
      "case 'n = 1048576' needs 0.02 GiB of device memory (inputs, outputs, reference outputs and a checked copy of the outputs) but NVIDIA H200 has 0.01 GiB free. Use a smaller shape or filter this case out.",
    )
  })
})

describe('input draws', () => {
  it('gives every argument of every draw its own seed, and draw 0 the case\'s historical seed', () => {
    const p = plan(16)
    const seeds = [0, 1, 2, 3].flatMap((draw) => [0, 1].map((arg) => inputSeed(p, arg, draw)))
    expect(new Set(seeds).size).toBe(seeds.length)
    expect(inputSeed(p, 1, 0)).toBe(p.seed * 1009 + 1)
  })

  it('draws after the first come from a secret: the same secret gives the same seeds, another secret others', () => {
    const p = plan(16)
    const one = new Uint8Array(32).fill(1)
    const two = new Uint8Array(32).fill(2)
    const seeds = (secret: Uint8Array) => [1, 2, 3].map((draw) => inputSeed(p, 0, draw, secret))
    expect(seeds(one)).toEqual(seeds(new Uint8Array(32).fill(1)))
    for (const [a, b] of seeds(one).map((s, i) => [s, seeds(two)[i]!])) expect(a).not.toBe(b)
    // Not the counter formula of draw 0, and exact as a number.
    expect(seeds(one)).not.toContain(p.seed * 1009 + 104_729)
    for (const seed of [...seeds(one), ...seeds(two)]) expect(Number.isSafeInteger(seed) && seed >= 0).toBe(true)
    // Draw 0 ignores the secret.
    expect(inputSeed(p, 0, 0, one)).toBe(inputSeed(p, 0, 0, two))
  })
})
