// The nvcc driver, against the real nvcc on this machine (no GPU needed: nothing is loaded or run).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { nvfp4Dequantize, sumDim, vectorAddition } from '../../problems/index.js'
import {
  archForComputeCapability,
  compile,
  CompileError,
  findNvcc,
  gencodeFlag,
  includedTexts,
  NvccNotFoundError,
  parseDiagnostics,
  SignatureMismatchError,
  wrapperSource,
} from '../../src/compile/nvcc.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import type { Problem } from '../../src/spec/problem.js'
import { cPrototype, cPrototypeAlternatives } from '../../src/spec/signature.js'
import { captureError } from '../helpers/capture-error.js'
import { definedSymbols } from '../helpers/symbols.js'
import { makeScratch, removeScratch, scratchFolder } from '../helpers/scratch.js'

const ARCH = 'sm_90a'
const fixture = (name: string) => path.join(PACKAGE_ROOT, 'tests/fixtures/solutions', name)
const VECTOR_PROTOTYPE = cPrototype(vectorAddition.signature, 'float32')

const scratch = scratchFolder('kb-compile-')
const cacheDir = path.join(scratch, 'cache')

/** The targets of the device code embedded in a library: the fatbin keeps each cubin's `-arch sm_XX` options. */
function embeddedArchs(library: string): string[] {
  const bytes = fs.readFileSync(library).toString('latin1')
  return [...new Set([...bytes.matchAll(/-arch (sm_\w+) -m 64/g)].map((m) => m[1]!))]
}

// One example through the whole path (problem-sources.test.ts compiles every example, batched).
const EXAMPLES: ReadonlyArray<readonly [string, Problem]> = [['problems/vector-addition/solutions/vector_add.cu', vectorAddition]]

describe('compile: the example solutions', () => {
  it.each(EXAMPLES)(
    '%s compiles against its problem\'s prototype, then comes from the cache',
    async (relative, problem) => {
      const request = { source: path.join(PACKAGE_ROOT, relative), prototype: cPrototype(problem.signature, 'float32'), arch: ARCH, cacheDir }
      const first = await compile(request)
      expect(first.cached).toBe(false)
      expect(path.dirname(first.path)).toBe(cacheDir)
      expect(path.basename(first.path)).toMatch(new RegExp(`^${path.basename(relative).replace('.', '_')}-sm_90a-[0-9a-f]{24}\\.so$`))
      expect(fs.statSync(first.path).size).toBeGreaterThan(0)
      expect(definedSymbols(first.path)).toContain('solution')
      expect(embeddedArchs(first.path)).toEqual(['sm_90a'])
      // No temporary file is left next to the library.
      expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.tmp'))).toEqual([])

      const second = await compile(request)
      expect(second).toEqual({ path: first.path, cached: true })
    },
  )

  it(
    'recompiles when the source changes (the cache key covers the file content)',
    async () => {
      const source = path.join(scratch, 'edited.cu')
      fs.copyFileSync(path.join(PACKAGE_ROOT, 'problems/vector-addition/solutions/vector_add.cu'), source)
      const request = { source, prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir }
      const before = await compile(request)
      expect(await compile(request)).toEqual({ path: before.path, cached: true })

      fs.appendFileSync(source, '\n// edited\n')
      const after = await compile(request)
      expect(after.cached).toBe(false)
      expect(after.path).not.toBe(before.path)
    },
  )
})

describe('compile: element aliases', () => {
  it(
    "takes NVFP4 scales declared as Tensara's float8 (__nv_fp8_e4m3), with or without the solution's own cuda_fp8.h",
    async () => {
      const request = (source: string) => ({
        source,
        prototype: cPrototype(nvfp4Dequantize.signature, 'float32'),
        alternatives: cPrototypeAlternatives(nvfp4Dequantize.signature, 'float32'),
        arch: ARCH,
        cacheDir,
      })
      for (const [file, include] of [['e4m3_included.cu', '#include <cuda_fp8.h>\n'], ['e4m3_bare.cu', '']] as const) {
        const source = path.join(scratch, file)
        fs.writeFileSync(
          source,
          `${include}extern "C" void solution(const uint8_t* q, const __nv_fp8_e4m3* scale, float sf_g, float* out, size_t m, size_t k) {}\n`,
        )
        expect(definedSymbols((await compile(request(source))).path)).toContain('solution')
      }
    },
  )
})

describe('compile: the language', () => {
  it(
    'is C++20, as Tensara compiles solutions (nvcc alone would take C++17 and refuse this file)',
    async () => {
      const source = path.join(scratch, 'cpp20.cu')
      fs.writeFileSync(
        source,
        '#include <bit>\n#include <concepts>\n' +
          'template <std::floating_point T> consteval T twice(T x) { return x + x; }\n' +
          '__global__ void add(const float* a, const float* b, float* c, size_t n) { size_t i = threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n' +
          'extern "C" void solution(const float* d_input1, const float* d_input2, float* d_output, size_t n) {\n' +
          '  static_assert(std::bit_cast<unsigned>(twice(1.0f)) == 0x40000000u);\n' +
          '  add<<<1, 32>>>(d_input1, d_input2, d_output, n);\n}\n',
      )
      const library = await compile({ source, prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir })
      expect(definedSymbols(library.path)).toContain('solution')
    },
  )
})

describe('includedTexts: headers in the cache key', () => {
  it('collects quoted includes transitively, once each, and ignores system and missing headers', () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'includes-'))
    fs.mkdirSync(path.join(dir, 'common'))
    fs.writeFileSync(path.join(dir, 'common/a.cuh'), '#include "b.cuh"\n// a\n')
    fs.writeFileSync(path.join(dir, 'common/b.cuh'), '#include "a.cuh"\n// b\n')
    const main = '#include <cuda_runtime.h>\n#include "common/a.cuh"\n  #  include "common/b.cuh"\n#include "missing.cuh"\n'
    expect(includedTexts(path.join(dir, 'main.cu'), main)).toEqual(['#include "b.cuh"\n// a\n', '#include "a.cuh"\n// b\n'])
  })

  it(
    'recompiles when an included header changes',
    async () => {
      const dir = fs.mkdtempSync(path.join(scratch, 'header-'))
      const source = path.join(dir, 'uses_header.cu')
      fs.writeFileSync(path.join(dir, 'scale.cuh'), '#define SCALE 1.0f\n')
      fs.writeFileSync(
        source,
        '#include "scale.cuh"\n__global__ void add(const float* a, const float* b, float* c, size_t n) { size_t i = threadIdx.x; if (i < n) c[i] = SCALE * (a[i] + b[i]); }\n' +
          'extern "C" void solution(const float* d_input1, const float* d_input2, float* d_output, size_t n) { add<<<1, 32>>>(d_input1, d_input2, d_output, n); }\n',
      )
      const request = { source, prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir }
      const before = await compile(request)
      fs.writeFileSync(path.join(dir, 'scale.cuh'), '#define SCALE 2.0f\n')
      const after = await compile(request)
      expect(after.cached).toBe(false)
      expect(after.path).not.toBe(before.path)
    },
  )
})

describe('compile: errors', () => {
  it(
    'a syntax error is a CompileError naming the user\'s file and line, with nvcc\'s message',
    async () => {
      const error = await rejection(compile({ source: fixture('syntax_error.cu'), prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir }))
      expect(error).toBeInstanceOf(CompileError)
      const compileError = error as CompileError
      expect(compileError.message).toContain('syntax_error.cu:5')
      expect(compileError.message).toContain('identifier "undeclared_function_call" is undefined')
      expect(compileError.diagnostics[0]).toEqual({
        file: fixture('syntax_error.cu'),
        line: 5,
        message: 'identifier "undeclared_function_call" is undefined',
      })
      expect(compileError.log).toContain('error')
      // Nothing half-written is left under the library's name.
      expect(fs.readdirSync(cacheDir).filter((f) => f.startsWith('syntax_error') && !f.endsWith('.cu'))).toEqual([])
    },
  )

  it(
    'a solution with other parameter types is a SignatureMismatchError showing the expected prototype and the user\'s line',
    async () => {
      const error = await rejection(compile({ source: fixture('wrong_signature.cu'), prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir }))
      expect(error).toBeInstanceOf(SignatureMismatchError)
      const message = (error as Error).message
      expect(message).toContain(
        'expected: extern "C" void solution(const float* d_input1, const float* d_input2, float* d_output, size_t n);',
      )
      expect(message).toContain(`found at ${fixture('wrong_signature.cu')}:7:`)
      expect(message).toContain('float* d_output, int n)')
    },
  )

  it(
    'a file without the entry point is a SignatureMismatchError saying there is no such function',
    async () => {
      const error = await rejection(compile({ source: fixture('no_entry.cu'), prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir }))
      expect(error).toBeInstanceOf(SignatureMismatchError)
      expect((error as Error).message).toContain(`no such function in ${fixture('no_entry.cu')}`)
      expect((error as Error).message).toContain('expected: extern "C" void solution(')
    },
  )

  it('a missing solution file is named', async () => {
    const missing = path.join(scratch, 'missing.cu')
    await expect(compile({ source: missing, prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir })).rejects.toThrow(`solution file not found: ${missing}`)
  })
})

describe('compile: other spellings of the prototype', () => {
  // sum-dim's shape is `const size_t* shape`; Tensara's generated starter code writes `size_t* shape`.
  const request = (source: string) => ({
    source,
    prototype: cPrototype(sumDim.signature, 'float32'),
    alternatives: cPrototypeAlternatives(sumDim.signature, 'float32'),
    arch: ARCH,
    cacheDir,
  })
  const solutionWith = (file: string, shape: string) => {
    const source = path.join(scratch, file)
    fs.writeFileSync(source, `extern "C" void solution(const float* input, int dim, float* output, ${shape}, size_t ndim) {}\n`)
    return source
  }

  it.each([
    ['shape_const.cu', 'const size_t* shape'],
    ['shape_mutable.cu', 'size_t* shape'],
  ])(
    '%s (%s) compiles, then comes from the cache without another try',
    async (file, shape) => {
      const source = solutionWith(file, shape)
      expect((await compile(request(source))).cached).toBe(false)
      const again = await compile(request(source))
      expect(again.cached).toBe(true)
      expect(definedSymbols(again.path)).toContain('solution')
    },
  )

  it(
    'a spelling that matches none is a SignatureMismatchError showing the main prototype',
    async () => {
      const error = await rejection(compile(request(solutionWith('shape_int.cu', 'const int* shape'))))
      expect(error).toBeInstanceOf(SignatureMismatchError)
      expect((error as Error).message).toContain(
        'expected: extern "C" void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim);',
      )
      expect((error as Error).message).toContain('const int* shape')
    },
  )
})

describe('findNvcc', () => {
  it('fails on an nvcc option that names no executable instead of falling back to another toolkit', () => {
    const error = captureError(() => findNvcc('/nonexistent/explicit/nvcc', { PATH: process.env.PATH }))
    expect(error).toBeInstanceOf(NvccNotFoundError)
    expect((error as Error).message).toContain('/nonexistent/explicit/nvcc (the nvcc option): not an executable file')
  })

  it('throws NvccNotFoundError listing every place it looked when there is no nvcc anywhere', () => {
    const env = { PATH: path.join(os.tmpdir(), 'kb-no-such-dir'), CUDA_HOME: '/nonexistent/cuda-home', CUDA_PATH: '/nonexistent/cuda-path' }
    const error = captureError(() => findNvcc(undefined, env, ['/nonexistent/default-root']))
    expect(error).toBeInstanceOf(NvccNotFoundError)
    const message = (error as Error).message
    const looked = message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4))
    // The toolkit roots CUDA_HOME and CUDA_PATH were already tried: each place appears once.
    expect(looked).toEqual([
      '/nonexistent/cuda-home/bin/nvcc',
      '/nonexistent/cuda-path/bin/nvcc',
      'nvcc on PATH',
      '/nonexistent/default-root/bin/nvcc',
    ])
    expect(message).toMatch(/set CUDA_HOME/)
  })

  it.skipIf(!fs.existsSync('/usr/local/cuda/bin/nvcc'))('falls back to /usr/local/cuda by default', () => {
    expect(findNvcc(undefined, { PATH: '' })).toBe('/usr/local/cuda/bin/nvcc')
  })

  it('prefers the explicit path, then CUDA_HOME, then PATH', () => {
    const bin = makeScratch('kb-fake-nvcc-')
    try {
      const makeNvcc = (dir: string) => {
        fs.mkdirSync(dir, { recursive: true })
        const file = path.join(dir, 'nvcc')
        fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 })
        return file
      }
      const explicit = makeNvcc(path.join(bin, 'explicit'))
      const home = makeNvcc(path.join(bin, 'home', 'bin'))
      const onPath = makeNvcc(path.join(bin, 'path'))
      const none = ['/nonexistent/root']
      expect(findNvcc(explicit, { CUDA_HOME: path.join(bin, 'home'), PATH: path.dirname(onPath) }, none)).toBe(explicit)
      expect(findNvcc(undefined, { CUDA_HOME: path.join(bin, 'home'), PATH: path.dirname(onPath) }, none)).toBe(home)
      expect(findNvcc(undefined, { PATH: `/nonexistent${path.delimiter}${path.dirname(onPath)}` }, none)).toBe(onPath)
      // A file that is not executable is not an nvcc.
      fs.chmodSync(home, 0o644)
      expect(findNvcc(undefined, { CUDA_HOME: path.join(bin, 'home'), PATH: path.dirname(onPath) }, none)).toBe(onPath)
    } finally {
      removeScratch(bin)
    }
  })
})

describe('parseDiagnostics', () => {
  it("reads nvcc's front-end format: file(12): error: …", () => {
    const log = [
      '/src/kernel.cu(12): error: identifier "foo" is undefined',
      '    foo(n);',
      '    ^',
      '/src/kernel.cu(3): warning #177-D: variable "x" was declared but never referenced',
      '1 error detected in the compilation of "/tmp/x.cu".',
    ].join('\n')
    expect(parseDiagnostics(log)).toEqual([{ file: '/src/kernel.cu', line: 12, message: 'identifier "foo" is undefined' }])
  })

  it("reads the host compiler's and linker's format: file:12:5: error: …", () => {
    const log = [
      'kernel.cu:12:5: error: expected ‘;’ before ‘}’ token',
      'kernel.cu:7: fatal error: missing.h: No such file or directory',
      'kernel.cu:9:1: warning: unused variable',
      'In file included from wrapper.cu:5:',
    ].join('\n')
    expect(parseDiagnostics(log)).toEqual([
      { file: 'kernel.cu', line: 12, message: 'expected ‘;’ before ‘}’ token' },
      { file: 'kernel.cu', line: 7, message: 'missing.h: No such file or directory' },
    ])
  })

  it('finds nothing in a log without errors', () => {
    expect(parseDiagnostics('')).toEqual([])
    expect(parseDiagnostics('nvcc warning : incompatible redefinition\nall good')).toEqual([])
  })
})

describe('archForComputeCapability and gencodeFlag', () => {
  it.each([
    ['9.0', 'sm_90a'],
    ['8.0', 'sm_80'],
    ['8.9', 'sm_89'],
    ['10.0', 'sm_100a'],
    ['12.0', 'sm_120a'],
  ])('compute capability %s → %s', (cc, arch) => {
    expect(archForComputeCapability(cc)).toBe(arch)
  })

  it('rejects a malformed compute capability', () => {
    expect(() => archForComputeCapability('9')).toThrow("bad compute capability '9'")
    expect(() => archForComputeCapability('x.y')).toThrow("bad compute capability 'x.y'")
  })

  it('spells out -gencode with matching compute and sm targets', () => {
    expect(gencodeFlag('sm_90a')).toBe('-gencode=arch=compute_90a,code=sm_90a')
    expect(gencodeFlag('sm_80')).toBe('-gencode=arch=compute_80,code=sm_80')
    expect(gencodeFlag('sm_100a')).toBe('-gencode=arch=compute_100a,code=sm_100a')
  })

  it('rejects anything that is not sm_<digits>[letter]', () => {
    for (const bad of ['compute_90', '90a', 'sm_', 'sm_90a;rm -rf', '-arch=sm_90']) {
      expect(() => gencodeFlag(bad)).toThrow(`bad GPU architecture '${bad}'`)
    }
  })
})

describe('wrapperSource', () => {
  it('includes the user file, then declares the expected prototype and takes its address', () => {
    const text = wrapperSource({ source: '/work/a "b".cu', prototype: VECTOR_PROTOTYPE, arch: ARCH, cacheDir: '/tmp' })
    const lines = text.split('\n')
    const include = lines.indexOf('#include "/work/a \\"b\\".cu"')
    const declaration = lines.indexOf(`extern "C" ${VECTOR_PROTOTYPE};`)
    expect(include).toBeGreaterThan(-1)
    expect(declaration).toBeGreaterThan(include)
    expect(lines[declaration + 1]).toBe('__attribute__((used)) static void* kb_entry = (void*)&solution;')
  })

  it('declares nothing without a prototype', () => {
    expect(wrapperSource({ source: '/x.cu', arch: ARCH, cacheDir: '/tmp' })).not.toContain('extern "C"')
  })
})

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected an error, but none was thrown')
}
