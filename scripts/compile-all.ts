// A cold compile of every example solution and the CUDA reference of each of their problems and dtypes (what the
// example benches need), into a fresh temporary cache, with at most `jobs` nvcc at once.
//   tsx scripts/compile-all.ts [jobs]      (default: the number of cores; 1 compiles one at a time, as before)
// Prints how many libraries were compiled, with how many jobs, and the wall time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { resolveCompileJobs } from '../src/cache/build-locks.js'
import { compileReference } from '../src/compile/harness.js'
import { compile } from '../src/compile/nvcc.js'
import { cPrototype, cPrototypeAlternatives } from '../src/spec/signature.js'
import { examples } from '../tests/catalog/index.js'

const ARCH = 'sm_90a'
const jobs = resolveCompileJobs(process.argv[2] === undefined ? undefined : Number(process.argv[2]))
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-compile-all-'))
const build = { arch: ARCH, cacheDir, jobs }
const start = performance.now()

const solutions = examples.map((e) =>
  compile({
    source: e.solution,
    prototype: cPrototype(e.problem.signature, e.dtype),
    alternatives: cPrototypeAlternatives(e.problem.signature, e.dtype),
    ...build,
  }),
)
const references = [...new Map(examples.map((e) => [`${e.problem.name}/${e.dtype}`, e])).values()].flatMap(({ problem, dtype }) => {
  const reference = problem.reference
  if (reference.kind !== 'cuda') return []
  return [compileReference(reference.file, cPrototype(problem.signature, dtype, reference.entry ?? 'reference'), dtype, build)]
})

try {
  const libraries = await Promise.all([...solutions, ...references])
  const seconds = (performance.now() - start) / 1000
  console.log(`${libraries.length} libraries (${solutions.length} solutions, ${references.length} references) with ${jobs} jobs on ${os.availableParallelism()} cores: ${seconds.toFixed(1)} s`)
} finally {
  fs.rmSync(cacheDir, { recursive: true, force: true })
}
