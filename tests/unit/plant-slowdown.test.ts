// scripts/plant-slowdown.ts, which plants real slowdowns for the paired A/B check: the arguments it forwards, and a
// planted solution that still compiles against its problem's prototype (real nvcc, nothing run).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { matrixMultiplication } from '../../problems/index.js'
import { argumentNames, plantedSource } from '../../scripts/plant-slowdown.js'
import { compile } from '../../src/compile/nvcc.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { cPrototype } from '../../src/spec/signature.js'
import { definedSymbols } from '../helpers/symbols.js'
import { scratchFolder } from '../helpers/scratch.js'

const scratch = scratchFolder('kb-plant-')

describe('plant-slowdown', () => {
  it('forwards every argument by name, whatever qualifies it', () => {
    expect(argumentNames('const float* __restrict__ a, float *b,\n  size_t n')).toEqual(['a', 'b', 'n'])
    expect(argumentNames('const half* input, half* output, size_t n, size_t m, float alpha')).toEqual(['input', 'output', 'n', 'm', 'alpha'])
    expect(argumentNames('void')).toEqual([])
    expect(() => argumentNames('const float*')).toThrow("no argument name in 'const float*'")
  })

  it('leaves a file without a solution alone, and wraps one with a spin of the given permille', () => {
    expect(plantedSource('__global__ void k() {}', 20)).toBeUndefined()
    const planted = plantedSource('extern "C" void solution(const float* a, int n) { k<<<1, 1>>>(a, n); }', 20)!
    expect(planted.startsWith('#define solution kb_planted_solution\n')).toBe(true)
    expect(planted).toContain('extern "C" void solution(const float* a, int n) {')
    expect(planted).toContain('kb_planted_solution(a, n);')
    expect(planted).toContain('kb_planted_spin<<<1, 1>>>(20);')
  })

  it('gated, holds the call on its stream until the marker, the solution and the spin are launched, then releases it', () => {
    const planted = plantedSource('extern "C" void solution(const float* a, int n) { k<<<1, 1>>>(a, n); }', 20, true)!
    const body = planted.slice(planted.indexOf('extern "C" void solution('))
    const order = ['kb_planted_wait(CU_STREAM_LEGACY', 'kb_planted_mark<<<1, 1>>>();', 'kb_planted_solution(a, n);', 'kb_planted_spin<<<1, 1>>>(20);', '*kb_planted_gate = call;']
    const at = order.map((line) => body.indexOf(line))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((x, y) => x - y)).toEqual(at)
    expect(plantedSource('extern "C" void solution(int n) {}', 20)).not.toContain('kb_planted_wait')
  })

  it('a planted naive sgemm, gated or not, compiles against the problem\'s prototype and exports solution', async () => {
    const original = path.join(PACKAGE_ROOT, 'problems/matrix-multiplication/solutions/sgemm_naive.cu')
    fs.mkdirSync(scratch, { recursive: true })
    const prototype = cPrototype(matrixMultiplication.signature, 'float32')
    for (const gated of [false, true]) {
      const source = path.join(scratch, `sgemm_naive_planted${gated ? '_gated' : ''}.cu`)
      fs.writeFileSync(source, plantedSource(fs.readFileSync(original, 'utf8'), 50, gated)!)
      const library = await compile({ source, prototype, arch: 'sm_90a', cacheDir: path.join(scratch, 'cache') })
      expect(definedSymbols(library.path)).toContain('solution')
    }
  })
})
