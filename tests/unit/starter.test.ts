// `vitest-kernel-bench init`: the problem catalog, the generated starter (compiled with the real nvcc against the
// problem's prototype: no GPU needed), the bench file, and the command itself.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { compileBatch, groupBatches, type BatchUnit } from '../helpers/nvcc-batch.js'
import { scratchFolder } from '../helpers/scratch.js'
import * as problems from '../../problems/index.js'
import { matrixMultiplication, mxfp8Dequantize, softmax, vectorAddition } from '../../problems/index.js'
import type { Dtype } from '../../src/spec/dtype.js'
import { defineProblem, type Problem } from '../../src/spec/problem.js'
import { cPrototype } from '../../src/spec/signature.js'
import { findProblem, isProblem, problemCatalog, problemSuggestion } from '../../src/spec/problem-catalog.js'
import { benchSource, elementCountExpression, listProblems, starterFiles, starterSource } from '../../src/cli/starter.js'

const ARCH = 'sm_90a'
const STARTERS_PER_COMPILE = 32

const scratch = scratchFolder('kb-starter-')

const catalog = problemCatalog(problems)

/** A problem for shapes the catalog may not have yet: every dtype, int sizes, an output of unknown size. */
function syntheticProblem(overrides: Partial<Parameters<typeof defineProblem>[0]> = {}): Problem {
  return defineProblem({
    name: '2d-filter',
    signature: [
      { name: 'image', kind: 'input' },
      { name: 'weights', kind: 'input', dtype: 'float32' },
      { name: 'filtered', kind: 'output' },
      { name: 'valid', kind: 'output', dtype: 'int32' },
      { name: 'rows', kind: 'scalar', ctype: 'int' },
      { name: 'cols', kind: 'scalar', ctype: 'int' },
      { name: 'k', kind: 'scalar', ctype: 'size_t' },
      { name: 'alpha', kind: 'scalar', ctype: 'float' },
    ],
    dtypes: ['float32', 'float64', 'float16', 'bfloat16', 'int32'],
    cases: () => [{ name: 'small', params: { rows: 64, cols: 32, k: 3, alpha: 0.5 } }],
    elements: ({ params: { rows, cols, k } }) => ({
      image: rows! * cols!,
      weights: k! * k!,
      filtered: rows! * cols!,
      valid: (rows! - k! + 1) * (cols! - k! + 1),
    }),
    flops: ({ params: { rows, cols, k } }) => 2 * rows! * cols! * k! * k!,
    tolerance: { float32: { rtol: 1e-5, atol: 1e-5 }, float64: { rtol: 1e-9, atol: 1e-9 }, float16: { rtol: 1e-2, atol: 1e-2 }, bfloat16: { rtol: 1e-2, atol: 1e-2 }, int32: { rtol: 0, atol: 0 } },
    reference: { kind: 'gemm' },
    ...overrides,
  })
}

describe('the problem catalog', () => {
  it('holds every problem that problems/index.ts exports, once, under all its export names', () => {
    const exported = new Set(Object.values(problems).filter(isProblem))
    expect(exported.size).toBeGreaterThanOrEqual(2)
    expect(catalog.map((e) => e.problem)).toEqual([...exported].sort((a, b) => a.name.localeCompare(b.name)))
    expect(catalog.find((e) => e.problem === matrixMultiplication)?.exportNames).toEqual(['matmul', 'matrixMultiplication'])
  })

  it('ignores exports that are not problems', () => {
    expect(problemCatalog({ vectorAddition, VERSION: '1', helper: () => {}, nothing: null })).toEqual([
      { problem: vectorAddition, exportNames: ['vectorAddition'] },
    ])
  })

  it("finds a problem by Tensara's name or an export name, in any case and with - or _", () => {
    for (const name of ['matrix-multiplication', 'matrix_multiplication', 'matrixMultiplication', 'MATRIX-MULTIPLICATION']) {
      expect(findProblem(catalog, name)).toEqual({ problem: matrixMultiplication, importName: 'matrixMultiplication' })
    }
    // An alias asked for by its export name is imported under that name.
    expect(findProblem(catalog, 'matmul')).toEqual({ problem: matrixMultiplication, importName: 'matmul' })
  })

  it('suggests the closest names for a typo, and names every problem on one line when nothing is close', () => {
    const count = catalog.length
    expect(() => findProblem(catalog, 'softmaxx')).toThrow(`unknown problem 'softmaxx'. Did you mean 'softmax'? (\`vitest-kernel-bench init --list\` describes all ${count})`)
    expect(() => findProblem(catalog, 'matmull')).toThrow(/Did you mean 'matrix-multiplication', 'matmul-3d' or 'matmul-4d'\?/)
    expect(() => findProblem(catalog, 'vector_addtion')).toThrow(/Did you mean 'vector-addition'\?/)
    expect(() => findProblem(catalog, 'fft')).toThrow(
      `unknown problem 'fft'. The problems are: ${catalog.map((e) => e.problem.name).join(', ')}. (\`vitest-kernel-bench init --list\` describes all ${count})`,
    )
  })

  it('tells a bench that names a problem by a string which export to import', () => {
    expect(problemSuggestion(catalog, 'matmull')).toBe(
      "did you mean 'matrix-multiplication' (import { matmul }), 'matmul-3d' (import { matmul3d }) or 'matmul-4d' (import { matmul4d })?",
    )
    expect(problemSuggestion(catalog, 'matrix-multiplication')).toBe("did you mean 'matrix-multiplication' (import { matrixMultiplication })?")
    expect(problemSuggestion(catalog, 'relu')).toBe("did you mean 'relu' (import { relu })?")
    expect(problemSuggestion(catalog, 'fft')).toBe(`the problems are: ${catalog.map((e) => e.problem.name).join(', ')}`)
  })

  it('refuses a name that two problems answer to', () => {
    const other = syntheticProblem({ name: 'vector_addition' })
    const twins = problemCatalog({ vectorAddition, other })
    expect(() => findProblem(twins, 'vector-addition')).toThrow(/^'vector-addition' names several problems: (vector-addition, vector_addition|vector_addition, vector-addition)$/)
  })

  it('--list shows name, dtypes, export names and description in aligned columns', () => {
    const filter = syntheticProblem({ description: 'A 2-D filter.' })
    const blur = syntheticProblem({ name: 'box-blur', dtypes: ['float32'], description: '' })
    const lines = listProblems(problemCatalog({ filter, conv: filter, boxBlur: blur })).split('\n')
    expect(lines).toEqual([
      'problem    dtypes                                      import        description',
      '2d-filter  float32, float64, float16, bfloat16, int32  conv, filter  A 2-D filter.',
      'box-blur   float32                                     boxBlur',
      '',
    ])
  })
})

describe('elementCountExpression', () => {
  it('writes the count as a product of the sizes', () => {
    expect(elementCountExpression(matrixMultiplication, 'float32', 'output_c')).toBe('m * n')
    expect(elementCountExpression(matrixMultiplication, 'float32', 'input_a')).toBe('m * k')
    expect(elementCountExpression(vectorAddition, 'float32', 'd_output')).toBe('n')
  })

  it('keeps repeated sizes, constant factors and int sizes in size_t arithmetic', () => {
    const problem = syntheticProblem()
    expect(elementCountExpression(problem, 'float32', 'weights')).toBe('k * k')
    expect(elementCountExpression(problem, 'float32', 'filtered')).toBe('(size_t)rows * cols')
    const scaled = syntheticProblem({ elements: ({ params }) => ({ filtered: 3 * params.k!, valid: 1 }) })
    expect(elementCountExpression(scaled, 'float32', 'filtered')).toBe('3 * k')
    expect(elementCountExpression(scaled, 'float32', 'valid')).toBe('1')
  })

  it('gives up on counts that are not a product of sizes, or that it cannot evaluate', () => {
    expect(elementCountExpression(syntheticProblem(), 'float32', 'valid')).toBeUndefined()
    const throwing = syntheticProblem({
      elements: () => {
        throw new Error('no')
      },
    })
    expect(elementCountExpression(throwing, 'float32', 'filtered')).toBeUndefined()
  })

  it("gives up when the formula found at the probes does not hold on the problem's own cases", () => {
    // A reduction over `dim`: the probes put dim out of range, where this count happens to be rows * cols.
    const reduction = syntheticProblem({
      cases: () => [{ name: 'dim 0', params: { rows: 64, cols: 32, k: 3, alpha: 1 } }],
      elements: ({ params: { rows, cols, k } }) => ({ filtered: k === 3 ? cols! : rows! * cols!, valid: 1 }),
    })
    expect(elementCountExpression(reduction, 'float32', 'filtered')).toBeUndefined()
  })
})

describe('the .cu starter', () => {
  it("declares the problem's exact entry point and launches a grid-stride kernel over the output", () => {
    const source = starterSource(vectorAddition, 'float32')
    expect(source).toContain(`extern "C" ${cPrototype(vectorAddition.signature, 'float32')} {`)
    expect(source).toContain('__global__ void vector_addition_kernel(const float* d_input1, const float* d_input2, float* d_output, size_t n) {')
    expect(source).toContain('const size_t d_output_size = n;')
    expect(source).toContain('i += (size_t)gridDim.x * blockDim.x')
    expect(source).toContain('d_output[i] = 0.0f;')
    expect(source).toContain('vector_addition_kernel<<<blocks, threads>>>(d_input1, d_input2, d_output, n);')
    expect(source).toContain('// it writes zeros: verification fails until the kernel computes the real thing.')
    expect(source).toContain('// any grid covers the output with a grid-stride loop; tune it for your kernel')
  })

  it('says so where the kernel writes nothing, and mentions no loop it does not have (softmax)', () => {
    const source = starterSource(softmax, 'float32')
    expect(source).toContain('__global__ void softmax_kernel(const float* input, int dim, float* output, const size_t* shape, size_t ndim) {\n  // TODO: write output')
    expect(source).toContain('// its kernel does not write output yet: verification fails (never written) until it does.')
    expect(source).toContain('// a placeholder: size the grid for the kernel you write')
    expect(source).not.toMatch(/loop/)
  })

  it('leaves an output of unknown size to the user and includes the half-precision headers it needs', () => {
    const source = starterSource(syntheticProblem(), 'bfloat16')
    expect(source).toContain('#include <cuda_bf16.h>')
    expect(source).not.toContain('#include <cuda_fp16.h>')
    expect(source).toContain('filtered[i] = __float2bfloat16(0.0f);')
    expect(source).toContain("// TODO: write valid: its element count is not a product of the sizes, so the starter leaves it alone.")
  })

  it('includes stdint.h for byte buffers (uint8_t)', () => {
    const source = starterSource(mxfp8Dequantize, 'float32')
    expect(source).toContain('#include <stdint.h>')
    expect(source).toContain('(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k)')
  })

  it('picks local names that no parameter uses', () => {
    const problem = syntheticProblem({
      signature: [
        { name: 'i', kind: 'input' },
        { name: 'threads', kind: 'output' },
        { name: 'blocks', kind: 'scalar', ctype: 'size_t' },
      ],
      elements: ({ params }) => ({ i: params.blocks!, threads: params.blocks! }),
      cases: () => [{ name: 'one', params: { blocks: 8 } }],
    })
    const source = starterSource(problem, 'float32')
    expect(source).toContain('threads[i_] = 0.0f;')
    expect(source).toContain('const int threads_ = 256;')
    expect(source).toContain('const int blocks_ = 1024;')
  })

  const targets = [
    ...catalog.flatMap((e) => e.problem.dtypes.map((dtype) => [e.problem.name, dtype, e.problem] as const)),
    ...syntheticProblem().dtypes.map((dtype) => [`synthetic ${syntheticProblem().name}`, dtype, syntheticProblem()] as const),
  ]
  /** The starter written to the scratch folder, as the unit of a batch compiled against its problem's prototype. */
  const starterUnit = (name: string, dtype: Dtype, problem: Problem): BatchUnit => {
    const file = path.join(scratch, 'starters', `${name}-${dtype}.cu`.replace(/\s/g, '_'))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, starterSource(problem, dtype))
    return { label: `${name} (${dtype})`, file, prototypes: [cPrototype(problem.signature, dtype)] }
  }
  // nvcc takes about 5 s for any file on a slow core, most of it in the CUDA headers: the starters are compiled
  // STARTERS_PER_COMPILE to a translation unit (tests/helpers/nvcc-batch.ts).
  const batches = groupBatches(targets.map(([name, dtype, problem]) => starterUnit(name, dtype, problem)), STARTERS_PER_COMPILE)
  it.concurrent.each(batches.map((batch, i) => [batch.map((unit) => unit.label).join(', '), batch, i] as const))(
    'compiles with nvcc against the prototype: %s',
    async (_label, batch, i) => {
      const library = await compileBatch(path.join(scratch, `starters-${i}.cu`), batch, { arch: ARCH, cacheDir: path.join(scratch, 'cache') })
      expect(fs.statSync(library.path).size).toBeGreaterThan(0)
    },
  )

  it("a batch still refuses a starter whose entry point does not match its problem's prototype", async () => {
    // The vector-addition starter, declared against the prototype of another problem's signature.
    const mismatched = { ...starterUnit(vectorAddition.name, 'float32', vectorAddition), prototypes: [cPrototype(softmax.signature, 'float32')] }
    await expect(compileBatch(path.join(scratch, 'starters-mismatch.cu'), [mismatched], { arch: ARCH, cacheDir: path.join(scratch, 'cache') })).rejects.toThrow(
      /kb_unit_0_solution does not match its prototype/,
    )
  })
})

describe('the bench file', () => {
  it('imports the problem from vitest-kernel-bench/problems and points at the solution next to it', () => {
    expect(benchSource({ problem: matrixMultiplication, importName: 'matmul' }, 'float32', '/work/kernels/sgemm.cu')).toBe(
      `// Verifies and times sgemm.cu on the matrix-multiplication problem: \`npx vitest bench --run\`.
import { kernelBench } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

kernelBench('matrix-multiplication: sgemm.cu', { problem: matmul, solution: './sgemm.cu', dtype: 'float32' })
`,
    )
  })

  it("escapes quotes in the file name", () => {
    expect(benchSource({ problem: vectorAddition, importName: 'vectorAddition' }, 'float32', "/k/bob's.cu")).toContain("solution: './bob\\'s.cu'")
  })
})

describe('starterFiles', () => {
  it('names both files after the problem by default, next to each other', () => {
    const [cu, bench] = starterFiles(catalog, { problem: 'vector-addition', cwd: '/work' })
    expect(cu).toEqual({ path: '/work/vector-addition.cu', content: starterSource(vectorAddition, 'float32') })
    expect(bench?.path).toBe('/work/vector-addition.bench.ts')
    expect(bench?.content).toBe(benchSource({ problem: vectorAddition, importName: 'vectorAddition' }, 'float32', cu!.path))
  })

  it('takes a dtype the problem supports, and refuses others', () => {
    const synthetic = problemCatalog({ filter: syntheticProblem() })
    expect(starterFiles(synthetic, { problem: 'filter', dtype: 'float16', cwd: '/w', file: 'f.cu' })[0]?.content).toContain('const __half* image')
    const floats = problemCatalog({ filter: syntheticProblem({ dtypes: ['float32', 'float64'] }) })
    expect(() => starterFiles(floats, { problem: 'filter', dtype: 'float16', cwd: '/w' })).toThrow(
      "--dtype: 2d-filter has no float16 variant (it has: float32, float64)",
    )
    expect(() => starterFiles(catalog, { problem: 'matmul', dtype: 'fp8', cwd: '/w' })).toThrow(
      "--dtype: unknown dtype 'fp8'; matrix-multiplication has float32, float16, bfloat16",
    )
    expect(() => starterFiles(catalog, { problem: 'matmul', dtype: 'flaot16', cwd: '/w' })).toThrow(
      "--dtype: unknown dtype 'flaot16' (did you mean 'float16'?); matrix-multiplication has float32, float16, bfloat16",
    )
  })

  it('defaults to the first dtype of a problem without float32', () => {
    const ints = problemCatalog({ filter: syntheticProblem({ dtypes: ['int32'] }) })
    expect(starterFiles(ints, { problem: 'filter', cwd: '/w' })[0]?.content).toContain('const int* image')
  })

  it('refuses a solution file that is not .cu', () => {
    expect(() => starterFiles(catalog, { problem: 'matmul', file: 'sgemm.cpp', cwd: '/w' })).toThrow('the solution file must end in .cu (got sgemm.cpp)')
  })
})

describe('the CLI (npx tsx src/cli/cli.ts)', () => {
  const cli = runCli

  it(
    'init writes the starter and its bench file, then refuses to overwrite them',
    () => {
      const solution = path.join(scratch, 'x', 'va.cu')
      const bench = path.join(scratch, 'x', 'va.bench.ts')
      const first = cli('init', 'vector-addition', solution)
      expect(first.status, first.stderr).toBe(0)
      expect(fs.readFileSync(solution, 'utf8')).toBe(starterSource(vectorAddition, 'float32'))
      expect(fs.readFileSync(bench, 'utf8')).toBe(benchSource({ problem: vectorAddition, importName: 'vectorAddition' }, 'float32', solution))

      fs.writeFileSync(solution, '// my work\n')
      const second = cli('init', 'vector-addition', solution)
      expect(second.status).toBe(1)
      expect(second.stderr).toContain(`vitest-kernel-bench: refusing to overwrite ${solution} and ${bench}`)
      expect(fs.readFileSync(solution, 'utf8')).toBe('// my work\n')
    },
  )

  it(
    'init refuses when only the bench file exists, and writes neither file',
    () => {
      const solution = path.join(scratch, 'y', 'mm.cu')
      const bench = path.join(scratch, 'y', 'mm.bench.ts')
      fs.mkdirSync(path.dirname(bench), { recursive: true })
      fs.writeFileSync(bench, '// mine\n')
      const result = cli('init', 'matmul', solution)
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`refusing to overwrite ${bench}`)
      expect(fs.existsSync(solution)).toBe(false)
    },
  )

  it(
    'init --list prints the catalog',
    () => {
      const result = cli('init', '--list')
      expect(result.status, result.stderr).toBe(0)
      expect(result.stdout).toBe(listProblems(catalog))
    },
  )

  it(
    'answers a bad command with the usage and exit code 2',
    () => {
      const result = cli('start', 'matmul')
      expect(result.status).toBe(2)
      expect(result.stderr).toContain("vitest-kernel-bench: unknown command 'start'\n")
      expect(result.stderr).toContain('vitest-kernel-bench init <problem> [file.cu] [--dtype <dtype>]')
    },
  )

  it(
    'names the command or option meant by a misspelled one',
    () => {
      expect(cli('int', 'matmul').stderr).toContain("vitest-kernel-bench: unknown command 'int' (did you mean 'init'?)\n")
      const option = cli('init', 'matmul', '--dtyp', 'float16')
      expect(option.status).toBe(2)
      expect(option.stderr).toContain("vitest-kernel-bench: unknown option '--dtyp' (did you mean '--dtype'?)\n")
      expect(cli('init', 'matmul', '--force').stderr).toContain('vitest-kernel-bench: init does not take --force (it takes --dtype, --list)\n')
    },
  )
})
