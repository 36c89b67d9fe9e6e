// A bench's own build settings (the spec's `build`), against the real nvcc on this machine: no GPU needed, nothing is
// loaded or run. Paths are relative to a bench file in a scratch folder, as a user's would be.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { matrixMultiplication, relu, vectorAddition } from '../../problems/index.js'
import { CompileError, findNvcc, LinkError } from '../../src/compile/nvcc.js'
import type { BenchBuild } from '../../src/spec/build.js'
import type { Problem } from '../../src/spec/problem.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import type { CallTarget, ModuleTarget } from '../../src/shared/messages.js'
import { solutionFiles, solutionTarget } from '../../src/vitest/compile-bench.js'
import { buildSettings, type PluginSettings } from '../../src/vitest/plugin-settings.js'
import { resolveSpec, type KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { definedSymbols } from '../helpers/symbols.js'
import { scratchFolder } from '../helpers/scratch.js'

const ARCH = 'sm_90a'
const scratch = scratchFolder('kb-build-')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(scratch, 'cache'), measure: {} }
const benchFile = path.join(scratch, 'kernels.bench.ts')

const ADD = 'extern "C" void solution(const float* d_input1, const float* d_input2, float* d_output, size_t n)'

/** Writes `files` next to the bench file (folders made as needed). */
function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(scratch, name)), { recursive: true })
    fs.writeFileSync(path.join(scratch, name), text)
  }
}

/** The solution compiled as its bench would compile it: the spec resolved at collection, paths against the bench file. */
async function compileBench(solution: string, build: BenchBuild | undefined, problem: Problem = vectorAddition): Promise<string> {
  const spec = resolveSpec({ problem, solution, build } as KernelBenchSpec, settings, "kernelBench('b')")
  const target: CallTarget | ModuleTarget = await solutionTarget(spec, solutionFiles('b', spec, benchFile), settings, buildSettings(settings, ARCH))
  if (!('library' in target)) throw new Error('expected a library')
  return target.library
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected an error, but none was thrown')
}

describe('build: compiled into the solution', () => {
  it('a define reaches the solution (and only builds that give it compile); a changed value is another library', async () => {
    write({ 'define.cu': `#ifndef SCALE\n#error SCALE is not defined\n#endif\n#ifndef NDEBUG\n#error NDEBUG is not defined\n#endif\n${ADD} {}\n` })
    const error = await rejection(compileBench('define.cu', undefined))
    expect(error).toBeInstanceOf(CompileError)
    expect(error.message).toContain('SCALE is not defined')

    const one = await compileBench('define.cu', { defines: { SCALE: 1, NDEBUG: true } })
    const two = await compileBench('define.cu', { defines: { SCALE: '2.0f', NDEBUG: true } })
    expect(two).not.toBe(one)
    expect(await compileBench('define.cu', { defines: { SCALE: 1, NDEBUG: true } })).toBe(one)
  })

  it('an include folder is searched, and its headers key the cache', async () => {
    write({ 'include/scale.cuh': '#define SCALE 1.0f\n', 'include.cu': `#include <scale.cuh>\n${ADD} { (void)SCALE; }\n` })
    expect((await rejection(compileBench('include.cu', undefined))).message).toContain('scale.cuh')
    const before = await compileBench('include.cu', { includeDirs: ['include'] })
    write({ 'include/scale.cuh': '#define SCALE 2.0f\n' })
    expect(await compileBench('include.cu', { includeDirs: ['include'] })).not.toBe(before)
  })

  it('an extra source is compiled and linked in; without it the link names the missing function', async () => {
    write({
      'lib/add_kernel.cu': '__global__ void add(const float* a, const float* b, float* c, size_t n) { size_t i = threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n' +
        'extern "C" void launchAdd(const float* a, const float* b, float* c, size_t n) { add<<<1, 32>>>(a, b, c, n); }\n',
      'uses_launch.cu': `extern "C" void launchAdd(const float*, const float*, float*, size_t);\n${ADD} { launchAdd(d_input1, d_input2, d_output, n); }\n`,
    })
    const error = await rejection(compileBench('uses_launch.cu', undefined))
    expect(error).toBeInstanceOf(LinkError)
    expect(error.message).toContain('undefined symbols: launchAdd')
    expect(error.message).toContain('add the file that defines it to build.sources')
    const library = await compileBench('uses_launch.cu', { sources: ['lib/add_kernel.cu'] })
    expect(definedSymbols(library)).toEqual(expect.arrayContaining(['solution', 'launchAdd']))
  })

  it('a missing include folder or source fails with the bench and the option that names it', async () => {
    write({ 'plain.cu': `${ADD} {}\n` })
    expect((await rejection(compileBench('plain.cu', { sources: ['nowhere.cu'] }))).message).toMatch(
      /^build source not found: .*nowhere\.cu\n {2}kernelBench 'b' in kernels\.bench\.ts names build\.sources 'nowhere\.cu'/,
    )
    expect((await rejection(compileBench('plain.cu', { includeDirs: ['nowhere'] }))).message).toContain("names build.includeDirs 'nowhere'")
  })
})

describe('build: libraries', () => {
  it('a cuBLAS call without libraries fails to link, naming the symbol and the library to add', async () => {
    // Declared by hand, so this runs where the toolkit has no cuBLAS headers.
    write({ 'declares_cublas.cu': `extern "C" int cublasCreate_v2(void**);\n${ADD} { void* h; cublasCreate_v2(&h); }\n` })
    const error = await rejection(compileBench('declares_cublas.cu', undefined))
    expect(error).toBeInstanceOf(LinkError)
    expect(error.message).toContain('declares_cublas.cu compiled but does not link')
    expect(error.message).toContain('undefined symbols: cublasCreate_v2')
    expect(error.message).toContain("cublasCreate_v2 is cuBLAS's: link it with the bench's build: { libraries: ['cublas'] }")
  })

  const fixture = path.relative(scratch, path.join(PACKAGE_ROOT, 'tests/fixtures/solutions/cublas_sgemm.cu'))
  const hasCublas = spawnSync(findNvcc(), ['-E', '-x', 'cu', '-', '-o', '/dev/null'], { input: '#include <cublas_v2.h>\n' }).status === 0

  it.runIf(hasCublas)('the cuBLAS fixture links with libraries: [cublas], and not without', async () => {
    const error = await rejection(compileBench(fixture, undefined, matrixMultiplication))
    expect(error).toBeInstanceOf(LinkError)
    expect(error.message).toMatch(/undefined symbols: .*cublasSgemm_v2/)
    expect(definedSymbols(await compileBench(fixture, { libraries: ['cublas'] }, matrixMultiplication))).toContain('solution')
  })

  it.runIf(!hasCublas)('without cuBLAS headers in the toolkit, the fixture fails naming the header and how to provide it', async () => {
    const error = await rejection(compileBench(fixture, { libraries: ['cublas'] }, matrixMultiplication))
    expect(error).toBeInstanceOf(CompileError)
    expect(error.message).toContain('cublas_sgemm.cu:3: cublas_v2.h: No such file or directory')
    expect(error.message).toContain(
      "header cublas_v2.h not found: it is cuBLAS's, which this CUDA toolkit lacks (CPU-only CUDA images often do): install the " +
        "toolkit's cuBLAS development package (apt: libcublas-dev-X-Y for CUDA X.Y), or give the folder that holds it in the " +
        "bench's build: { includeDirs: [...] } (relative to the bench file)",
    )
  })
})

describe('build: checked at collection', () => {
  const resolve = (build: unknown, solution = 'x.cu') => () => resolveSpec({ problem: relu, solution, build } as KernelBenchSpec, settings, "kernelBench('x')")

  it.each([
    [{ define: { NDEBUG: true } }, "kernelBench('x'): option build: unknown option 'define' (did you mean 'defines'?)"],
    [{ warmup: 1 }, "option build: unknown option 'warmup' (the options are: defines, includeDirs, sources, libraries, flags)"],
    ['-DNDEBUG', "option build must be an object { defines, includeDirs, sources, libraries, flags } (got '-DNDEBUG')"],
    [{ defines: ['NDEBUG'] }, 'option build.defines must be an object { NAME: value } (got ["NDEBUG"])'],
    [{ defines: { 'N-DEBUG': true } }, "option build.defines: 'N-DEBUG' is not a C identifier"],
    [{ defines: { NDEBUG: false } }, 'option build.defines.NDEBUG must be a string, a number or true (got false)'],
    [{ includeDirs: 'include' }, "option build.includeDirs must be an array of non-empty strings (got 'include')"],
    [{ sources: [''] }, 'option build.sources must be an array of non-empty strings (got [""])'],
    [{ libraries: ['-lcublas'] }, "option build.libraries: write 'cublas', the name without -l, lib or .so (got '-lcublas')"],
    [{ libraries: ['libcublas.so.13'] }, "write 'cublas'"],
    [{ libraries: ['cublass'] }, "option build.libraries: unknown CUDA library 'cublass' (did you mean 'cublas'?)"],
    [{ libraries: ['cublaslt'] }, "(did you mean 'cublasLt'?)"],
    [{ flags: ['-DNDEBUG'] }, "option build.flags: give '-DNDEBUG' in build.defines instead"],
    [{ flags: ['-Iinclude'] }, "option build.flags: give '-Iinclude' in build.includeDirs instead (relative to the bench file)"],
  ])('%j fails: %s', (build, message) => {
    expect(resolve(build)).toThrow(message)
  })

  it('applies to a .cu solution only', () => {
    expect(resolve({ defines: { NDEBUG: true } }, 'relu.ts')).toThrow(
      "option build applies to a .cu solution, and 'relu.ts' is a TypeScript/JavaScript module (it compiles its kernels itself)",
    )
  })

  it('a good one is kept as given, and none is empty', () => {
    const build: BenchBuild = { defines: { NDEBUG: true, TILE: 64, T: 'float' }, includeDirs: ['include'], sources: ['a.cu'], libraries: ['cublas', 'cublasLt', 'mylib'], flags: ['-use_fast_math'] }
    expect(resolveSpec({ problem: relu, solution: 'x.cu', build }, settings, 'k').build).toEqual(build)
    expect(resolveSpec({ problem: relu, solution: 'x.cu' }, settings, 'k').build).toEqual({})
  })
})
