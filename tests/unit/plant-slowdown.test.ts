// scripts/plant-slowdown.ts, which plants real slowdowns for the paired A/B check: the arguments it forwards, and a
// planted solution that still compiles against its problem's prototype (real nvcc, nothing run).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { matrixMultiplication } from '../../problems/index.js'
import { parameterList, plantedSource } from '../../scripts/plant-slowdown.js'
import { compile } from '../../src/compile/nvcc.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { cPrototype } from '../../src/spec/signature.js'
import { definedSymbols } from '../helpers/symbols.js'
import { scratchFolder } from '../helpers/scratch.js'

const scratch = scratchFolder('kb-plant-')

describe('plant-slowdown', () => {
  it('reads every parameter\'s name, whatever qualifies it, and whether it is a pointer', () => {
    const names = (list: string) => parameterList(list).map((p) => `${p.name}${p.pointer ? '*' : ''}`)
    expect(names('const float* __restrict__ a, float *b,\n  size_t n')).toEqual(['a*', 'b*', 'n'])
    expect(names('const half* input, half* output, size_t n, size_t m, float alpha')).toEqual(['input*', 'output*', 'n', 'm', 'alpha'])
    expect(names('const float x[], int n')).toEqual(['x*', 'n'])
    expect(names('void')).toEqual([])
    expect(() => parameterList('const float*')).toThrow("no argument name in 'const float*'")
  })

  it('leaves a file without a solution alone, and wraps one: its GPU time per shape measured once, then a spin of the permille of it', () => {
    expect(plantedSource('__global__ void k() {}', 20)).toBeUndefined()
    const planted = plantedSource('extern "C" void solution(const float* a, int n) { k<<<1, 1>>>(a, n); }', 20)!
    expect(planted.startsWith('#define solution kb_planted_solution\n')).toBe(true)
    const body = planted.slice(planted.indexOf('extern "C" void solution(const float* a, int n) {'))
    expect(body).not.toBe('')
    // Keyed by every argument, pointers too; the measured runs come first, then the call itself and its spin.
    const order = ['kb_planted_args{(double)(uintptr_t)a, (double)n};', 'cudaEventRecord(kb_start);', 'kb_planted_solution(a, n);', 'cudaEventRecord(kb_end);', 'kb_planted_solution(a, n);\n  kb_planted_spin<<<1, 1>>>(kb_known->second * 20 / 1000);']
    const at = order.map((line) => body.indexOf(line))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((x, y) => x - y)).toEqual(at)
  })

  it('slow at times: the spin is multiplied by whether the wall clock is in the first share of its second', () => {
    const planted = plantedSource('extern "C" void solution(const float* a, int n) { k<<<1, 1>>>(a, n); }', 500, 300)!
    expect(planted).toContain('return ms % 1000 < 300 ? 1 : 0;')
    expect(planted).toContain('kb_planted_spin<<<1, 1>>>(kb_known->second * kb_planted_slow_now() * 500 / 1000);')
    expect(plantedSource('extern "C" void solution(int n) {}', 500)).not.toContain('kb_planted_slow_now')
  })

  it('a planted naive sgemm, slow at times, compiles against the problem\'s prototype and exports solution', async () => {
    const original = path.join(PACKAGE_ROOT, 'problems/matrix-multiplication/solutions/sgemm_naive.cu')
    fs.mkdirSync(scratch, { recursive: true })
    const prototype = cPrototype(matrixMultiplication.signature, 'float32')
    const source = path.join(scratch, 'sgemm_naive_planted.cu')
    fs.writeFileSync(source, plantedSource(fs.readFileSync(original, 'utf8'), 50, 300)!)
    const library = await compile({ source, prototype, arch: 'sm_90a', cacheDir: path.join(scratch, 'cache') })
    expect(definedSymbols(library.path)).toContain('solution')
  })
})
