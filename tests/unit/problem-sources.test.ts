// Every example solution, drop-in and planted wrong solution and CUDA reference in the repository compiles with the real
// nvcc against its problem's prototype (no GPU needed: nothing is loaded or run).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compileReference } from '../../src/compile/harness.js'
import { compile } from '../../src/compile/nvcc.js'
import type { Problem } from '../../src/spec/problem.js'
import { cDecodePrototype, cPrototype, cPrototypeAlternatives } from '../../src/spec/signature.js'
import { dropIns, examples, planted } from '../catalog/index.js'

const ARCH = 'sm_90a'
// The plugin's default cache, which `npm test`'s example benches compile into as well (without a GPU too): each
// library is compiled once per run, whichever asks first. A cached library is keyed by its exact source and flags.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const cacheDir = path.join(root, 'node_modules/.cache/vitest-kernel-bench')

const relative = (file: string) => path.relative(process.cwd(), file)
const solutions = [...examples, ...dropIns, ...planted].map((e) => [`${e.problem.name} (${e.dtype}): ${relative(e.solution)}`, e] as const)

const problems = [...new Set(examples.map((e) => e.problem))]
const references = problems.flatMap((problem: Problem) => {
  const reference = problem.reference
  if (reference.kind !== 'cuda') return []
  return problem.dtypes.map((dtype) => [`${problem.name} (${dtype}): ${relative(reference.file)}`, problem, dtype, reference] as const)
})

// A problem judged by decoding its outputs (DecodeSpec) has its decode function in the reference's file.
const decoders = references.flatMap(([label, problem, dtype, reference]) =>
  problem.decode ? [[`${label}: ${problem.decode.entry}`, problem, dtype, reference, problem.decode] as const] : [],
)

describe.concurrent('compile with nvcc', () => {
  it.each(solutions)('solution %s', async (_label, e) => {
    const library = await compile({
      source: e.solution,
      prototype: cPrototype(e.problem.signature, e.dtype),
      alternatives: cPrototypeAlternatives(e.problem.signature, e.dtype),
      arch: ARCH,
      cacheDir,
    })
    expect(fs.statSync(library.path).size).toBeGreaterThan(0)
  })

  it.each(references)('reference %s', async (_label, problem, dtype, reference) => {
    const entry = reference.entry ?? 'reference'
    const library = await compileReference(reference.file, cPrototype(problem.signature, dtype, entry), dtype, { arch: ARCH, cacheDir })
    expect(fs.statSync(library.path).size).toBeGreaterThan(0)
  })

  it.each(decoders)('decode function %s', async (_label, problem, dtype, reference, decode) => {
    const prototype = cDecodePrototype(problem.signature, dtype, decode.entry, decode)
    const library = await compileReference(reference.file, prototype, dtype, { arch: ARCH, cacheDir })
    expect(fs.statSync(library.path).size).toBeGreaterThan(0)
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
