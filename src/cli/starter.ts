// Starter files for `vitest-kernel-bench init`: a .cu solution with the problem's exact entry point and a
// placeholder kernel that compiles, and the .bench.ts file that runs it. Pure: the CLI writes the files.
import path from 'node:path'
import { DTYPE_CTYPE, type Dtype } from '../spec/dtype.js'
import type { CatalogEntry, FoundProblem } from '../spec/problem-catalog.js'
import { findProblem } from '../spec/problem-catalog.js'
import { problemDtype, type Problem } from '../spec/problem.js'
import { cPrototype, isBuffer, isCaseScalar, paramDtype, type ParamSpec } from '../spec/signature.js'

// ---- The problem list ----------------------------------------------------------------------------------------

/** The `init --list` table: name, dtypes, exports and description of every problem. */
export function listProblems(catalog: readonly CatalogEntry[]): string {
  const rows = [
    ['problem', 'dtypes', 'import', 'description'],
    ...catalog.map((e) => [e.problem.name, e.problem.dtypes.join(', '), e.exportNames.join(', '), e.problem.description]),
  ]
  // Every column but the last (the description) is padded to its widest cell.
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)))
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return rows.map(line).join('\n') + '\n'
}

// ---- Element counts -----------------------------------------------------------------------------------------

const INTEGER_SCALARS = new Set(['size_t', 'int'])
// Distinct primes for the sizes: the first set finds each size's exponent in the count; the others, in other
// orders, confirm the formula (a count such as (rows - k + 1) can match a product at one point, not at all three).
const PROBES = [
  [11, 13, 17, 19, 23, 29, 31, 37],
  [71, 43, 61, 47, 67, 41, 59, 53],
  [97, 89, 83, 79, 73, 103, 107, 109],
] as const

/**
 * A pointer parameter's element count as a C expression over the signature's integer scalars, e.g. `m * n`, found by
 * evaluating problem.elements() with the sizes set to distinct primes, and checked on every default case. Undefined
 * when the count is not a constant times a product of sizes (`n - k + 1`, or a reduction that drops the extent
 * of `dim`): the starter then leaves that output to the user rather than write past its end.
 */
export function elementCountExpression(problem: Problem, dtype: Dtype, name: string): string | undefined {
  const sizes = problem.signature.filter((p) => isCaseScalar(p) && INTEGER_SCALARS.has(p.ctype))
  const [first, ...checks] = PROBES
  if (sizes.length > first.length) return undefined
  const cases = problem.cases(dtype)
  const countOf = (params: Readonly<Record<string, number>>): number | undefined => {
    try {
      return problem.elements({ name: 'probe', params })[name]
    } catch {
      return undefined
    }
  }
  const countAt = (values: readonly number[]) => countOf({ ...cases[0]?.params, ...Object.fromEntries(sizes.map((p, i) => [p.name, values[i]!])) })
  const count = countAt(first)
  if (count === undefined || !Number.isSafeInteger(count) || count <= 0) return undefined
  let coefficient = count
  const exponents = sizes.map((_, i) => {
    let exponent = 0
    for (; coefficient % first[i]! === 0; exponent++) coefficient /= first[i]!
    return exponent
  })
  const predicted = (values: readonly number[]) => exponents.reduce((product, exponent, i) => product * values[i]! ** exponent, coefficient)
  if (checks.some((values) => countAt(values) !== predicted(values))) return undefined
  if (cases.some((c) => countOf(c.params) !== predicted(sizes.map((p) => c.params[p.name]!)))) return undefined

  const factors = sizes.flatMap((p, i) => Array<string>(exponents[i]!).fill(p.name))
  if (coefficient !== 1 || factors.length === 0) factors.unshift(String(coefficient))
  // size_t arithmetic, so that a product of int sizes cannot overflow.
  const anyInt = sizes.some((p, i) => exponents[i]! > 0 && p.kind === 'scalar' && p.ctype === 'int')
  return (anyInt ? '(size_t)' : '') + factors.join(' * ')
}

// ---- The .cu starter ----------------------------------------------------------------------------------------

const ZERO: Record<Dtype, string> = {
  float32: '0.0f',
  float64: '0.0',
  float16: '__float2half(0.0f)',
  bfloat16: '__float2bfloat16(0.0f)',
  int32: '0',
  uint32: '0',
  uint64: '0',
  uint8: '0',
}

const HEADERS: Partial<Record<Dtype, string>> = { float16: 'cuda_fp16.h', bfloat16: 'cuda_bf16.h', uint32: 'stdint.h', uint64: 'stdint.h', uint8: 'stdint.h' }

/** `base`, or `base_`, `base__`… : a local name that no parameter already uses. */
function freshName(base: string, taken: Set<string>): string {
  let name = base
  while (taken.has(name)) name += '_'
  taken.add(name)
  return name
}

function cIdentifier(name: string): string {
  return name.replace(/\W/g, '_').replace(/^(\d)/, '_$1')
}

/**
 * The starter solution: the exact entry point and a placeholder kernel that writes zeros over each output with a
 * grid-stride loop, or leaves an output it cannot size (a softmax's, whose size comes from a shape array) alone. Its
 * comments say which, so that none mentions a loop the kernel does not have.
 */
export function starterSource(problem: Problem, dtype: Dtype): string {
  const signature = problem.signature
  const pointerDtypes = signature.flatMap((p) => (isBuffer(p) ? [paramDtype(p, dtype)] : []))
  const headers = ['cuda_runtime.h', ...new Set(pointerDtypes.flatMap((d) => HEADERS[d] ?? []))]
  const taken = new Set(signature.map((p) => p.name))
  const kernel = freshName(`${cIdentifier(problem.name)}_kernel`, taken)
  const index = freshName('i', taken)
  const threads = freshName('threads', taken)
  const blocks = freshName('blocks', taken)
  const params = signature.map((p) => p.name).join(', ')

  const unsized: string[] = []
  const body = signature.flatMap((p: ParamSpec) => {
    if (p.kind !== 'output') return []
    const count = elementCountExpression(problem, dtype, p.name)
    if (!count) {
      unsized.push(p.name)
      return [`  // TODO: write ${p.name}: its element count is not a product of the sizes, so the starter leaves it alone.`]
    }
    const size = freshName(`${p.name}_size`, taken)
    return [
      `  // Placeholder: zeros in every element of ${p.name}. Replace with the real computation.`,
      `  const size_t ${size} = ${count};`,
      `  for (size_t ${index} = blockIdx.x * (size_t)blockDim.x + threadIdx.x; ${index} < ${size}; ${index} += (size_t)gridDim.x * blockDim.x) {`,
      `    ${p.name}[${index}] = ${ZERO[paramDtype(p, dtype)]};`,
      '  }',
    ]
  })

  const description = problem.description ? `// ${problem.description}\n` : ''
  const arrays = signature.flatMap((p) =>
    p.kind === 'array' ? [`// ${p.name} points to ${p.memory === 'device' ? 'device' : 'page-locked host'} memory (read-only).\n`] : [],
  )
  const placeholder =
    unsized.length === 0
      ? 'This placeholder compiles and runs, but\n// it writes zeros: verification fails until the kernel computes the real thing.'
      : `This placeholder compiles and runs, but\n// its kernel does not write ${unsized.join(' or ')} yet: verification fails (never written) until it does.`
  const grid =
    unsized.length === 0 ? 'any grid covers the output with a grid-stride loop; tune it for your kernel' : 'a placeholder: size the grid for the kernel you write'
  return `// Starter solution for ${problem.name} (${dtype}), generated by \`vitest-kernel-bench init\`.
${description}${arrays.join('')}//
// The harness calls solution() with device pointers (inputs filled, outputs to write) and the sizes. Launch
// on the default stream (no stream argument): the default timing, CUDA events on that stream, sees only the
// work the default stream waits for. The harness times and synchronizes. ${placeholder}
${headers.map((h) => `#include <${h}>`).join('\n')}

__global__ ${cPrototype(signature, dtype, kernel)} {
${body.join('\n')}
}

extern "C" ${cPrototype(signature, dtype)} {
  const int ${threads} = 256;
  const int ${blocks} = 1024;  // ${grid}
  ${kernel}<<<${blocks}, ${threads}>>>(${params});
}
`
}

// ---- The .bench.ts file -------------------------------------------------------------------------------------

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

export function benchSource(found: FoundProblem, dtype: Dtype, solutionFile: string): string {
  const solution = path.basename(solutionFile)
  const { problem, importName } = found
  return `// Verifies and times ${solution} on the ${problem.name} problem: \`npx vitest bench --run\`.
import { kernelBench } from 'vitest-kernel-bench'
import { ${importName} } from 'vitest-kernel-bench/problems'

kernelBench(${quote(`${problem.name}: ${solution}`)}, { problem: ${importName}, solution: ${quote(`./${solution}`)}, dtype: ${quote(dtype)} })
`
}

// ---- Both files ---------------------------------------------------------------------------------------------

export interface StarterRequest {
  /** The problem's name or export name, e.g. 'matrix-multiplication' or 'matmul'. */
  problem: string
  /** The .cu file to create (default `<problem>.cu`), relative to `cwd`. */
  file?: string
  /** Default float32, or the problem's first dtype when it has no float32. */
  dtype?: string
  cwd: string
}

export interface StarterFile {
  path: string
  content: string
}

/** The .cu starter and its .bench.ts, with absolute paths. */
export function starterFiles(catalog: readonly CatalogEntry[], request: StarterRequest): StarterFile[] {
  const found = findProblem(catalog, request.problem)
  const { problem } = found
  const dtype = request.dtype ? problemDtype(problem, request.dtype, '--dtype') : problem.dtypes.includes('float32') ? 'float32' : problem.dtypes[0]!
  const solution = path.resolve(request.cwd, request.file ?? `${problem.name}.cu`)
  if (path.extname(solution) !== '.cu') throw new Error(`the solution file must end in .cu (got ${request.file})`)
  const bench = solution.slice(0, -'.cu'.length) + '.bench.ts'
  return [
    { path: solution, content: starterSource(problem, dtype) },
    { path: bench, content: benchSource(found, dtype, solution) },
  ]
}
