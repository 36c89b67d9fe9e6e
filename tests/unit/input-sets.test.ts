import { describe, expect, it } from 'vitest'
import { inputSetsThatFit } from '../../src/engine/buffers.js'
import type { CasePlan } from '../../src/engine/protocol.js'
import { resolveMeasureOptions } from '../../src/options.js'

const MiB = 2 ** 20

/** A vector addition of n floats: 8n bytes of inputs, 4n of output (8n with its reference buffer). */
function plan(n: number, inputSets = 2): CasePlan {
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
    options: resolveMeasureOptions({ inputSets }),
  }
}

describe('inputSetsThatFit', () => {
  it('gives every set asked for when memory allows', () => {
    expect(inputSetsThatFit(plan(MiB, 3), 1024 * MiB, 'GPU')).toBe(3)
  })

  it('gives fewer sets when memory is short: outputs and reference outputs come first', () => {
    // 8 MiB of outputs + references, 8 MiB per input set: 20 MiB free holds one set, 24 MiB two.
    expect(inputSetsThatFit(plan(MiB, 4), 20 * MiB, 'GPU')).toBe(1)
    expect(inputSetsThatFit(plan(MiB, 4), 24 * MiB, 'GPU')).toBe(2)
  })

  it('fails a case that does not fit once, naming it, the need and what is free', () => {
    expect(() => inputSetsThatFit(plan(MiB), 15 * MiB, 'NVIDIA H200')).toThrow(
      "case 'n = 1048576' needs 0.02 GiB of device memory (inputs, outputs and reference outputs) but NVIDIA H200 has 0.01 GiB free. Use a smaller shape or filter this case out.",
    )
  })
})
