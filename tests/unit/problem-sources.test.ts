// Every example solution, drop-in and planted wrong solution and CUDA reference in the repository compiles with the real
// nvcc against its problem's prototype (no GPU needed: nothing is loaded or run).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileReference } from '../../src/compile/harness.js'
import { compile } from '../../src/compile/nvcc.js'
import { DTYPE_CTYPE, type Dtype } from '../../src/spec/dtype.js'
import type { Problem } from '../../src/spec/problem.js'
import { cDecodePrototype, cPrototype, cPrototypeAlternatives } from '../../src/spec/signature.js'
import { softmax, vectorAddition } from '../../problems/index.js'
import { dropIns, examples, planted } from '../catalog/index.js'
import { exampleFile } from '../catalog/types.js'
import { batchedChecks, type BatchSettings, type FallbackUnit } from '../helpers/nvcc-batch.js'
import { scratchFolder } from '../helpers/scratch.js'

const ARCH = 'sm_90a'
const UNITS_PER_COMPILE = 32
// The plugin's default cache: a batch's library, like any, is keyed by its exact source and flags, so an unchanged batch
// is not compiled again, and a file compiled alone is the library `npm test`'s example benches build too.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const cacheDir = path.join(root, 'node_modules/.cache/vitest-kernel-bench')

const relative = (file: string) => path.relative(process.cwd(), file)

// A unit per example, drop-in and planted solution and per dtype of each CUDA reference, each with its own build by the
// plugin: what a failed batch falls back to, so that a file that does not compile is reported by the plugin's error.
function solutionUnit(problem: Problem, dtype: Dtype, file: string, settings: BatchSettings): FallbackUnit {
  const prototype = cPrototype(problem.signature, dtype)
  const alternatives = cPrototypeAlternatives(problem.signature, dtype)
  return {
    label: `${problem.name} (${dtype}): ${relative(file)}`,
    file,
    prototypes: [prototype, ...alternatives],
    alone: () => compile({ source: file, prototype, alternatives, ...settings }),
  }
}

const settings: BatchSettings = { arch: ARCH, cacheDir }
const solutions = [...examples, ...dropIns, ...planted].map((e) => solutionUnit(e.problem, e.dtype, e.solution, settings))

const problems = [...new Set(examples.map((e) => e.problem))]

/** The reference's file compiled for `dtype` against `prototype`: the reference itself, or its decode function. */
function referenceUnit(label: string, file: string, dtype: Dtype, prototype: string, settings: BatchSettings): FallbackUnit {
  return {
    label,
    file,
    prototypes: [prototype],
    defines: { KB_T: DTYPE_CTYPE[dtype] },
    alone: () => compileReference(file, prototype, dtype, settings),
  }
}

const references = problems.flatMap((problem: Problem) => {
  const reference = problem.reference
  if (reference.kind !== 'cuda') return []
  return problem.dtypes.map((dtype) =>
    referenceUnit(`${problem.name} (${dtype}): ${relative(reference.file)}`, reference.file, dtype, cPrototype(problem.signature, dtype, reference.entry ?? 'reference'), settings),
  )
})

// A problem judged by decoding its outputs (DecodeSpec) has its decode function in the reference's file.
const decoders = problems.flatMap((problem: Problem) => {
  const { reference, decode } = problem
  if (reference.kind !== 'cuda' || decode === undefined) return []
  return problem.dtypes.map((dtype) =>
    referenceUnit(
      `${problem.name} (${dtype}): ${relative(reference.file)}: ${decode.entry}`,
      reference.file,
      dtype,
      cDecodePrototype(problem.signature, dtype, decode.entry, decode),
      settings,
    ),
  )
})

// nvcc takes about 5 s for any file on a slow core, most of it in the CUDA headers: the files are compiled
// UNITS_PER_COMPILE to an nvcc run (tests/helpers/nvcc-batch.ts).
const checks = batchedChecks([...solutions, ...references, ...decoders], UNITS_PER_COMPILE, path.join(cacheDir, 'problem-sources'), settings)

describe.concurrent('compile with nvcc', () => {
  it.each(solutions.map((unit) => [unit.label, unit] as const))('solution %s', async (_label, unit) => {
    expect(fs.statSync((await checks.get(unit)!()).path).size).toBeGreaterThan(0)
  })

  it.each(references.map((unit) => [unit.label, unit] as const))('reference %s', async (_label, unit) => {
    expect(fs.statSync((await checks.get(unit)!()).path).size).toBeGreaterThan(0)
  })

  it.each(decoders.map((unit) => [unit.label, unit] as const))('decode function %s', async (_label, unit) => {
    expect(fs.statSync((await checks.get(unit)!()).path).size).toBeGreaterThan(0)
  })
})

describe('a batch', () => {
  const scratch = scratchFolder('kb-problem-sources-')

  it("compiles alone a file whose entry point does not match its problem's prototype, which then fails at its line", async () => {
    const file = exampleFile('vector-addition', 'vector_add.cu')
    const scratchSettings = { arch: ARCH, cacheDir: path.join(scratch, 'cache') }
    const matching = solutionUnit(vectorAddition, 'float32', file, scratchSettings)
    const mismatched = solutionUnit(softmax, 'float32', file, scratchSettings)
    const batch = batchedChecks([matching, mismatched], UNITS_PER_COMPILE, scratch, scratchSettings)
    expect(fs.statSync((await batch.get(matching)!()).path).size).toBeGreaterThan(0)
    const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((text) => text.startsWith('extern "C" void solution(')) + 1
    await expect(batch.get(mismatched)!()).rejects.toThrow(`found at ${file}:${line}`)
  })
})

describe('the catalog', () => {
  it('has an example solution for every dtype of every problem in it', () => {
    for (const problem of problems) {
      const covered = new Set(examples.filter((e) => e.problem === problem).map((e) => e.dtype))
      expect([...covered].sort(), problem.name).toEqual([...problem.dtypes].sort())
    }
  })
})
