// TypeScript solutions without a GPU: the kernelParams block cuLaunchKernel reads (built in real native memory and
// read back through its pointers), launch-shape checks, NVRTC options, and loading solution modules.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import koffi from 'koffi'
import { afterEach, describe, expect, it } from 'vitest'
import type { DeviceInfo } from '../../src/shared/messages.js'
import { checkParamSizes, dim3, KernelArgs, paramLayout, type KernelParamType } from '../../src/native/driver.js'
import { imageKind, nvrtcOptions } from '../../src/native/nvrtc.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { defineSolution, isTsSolution, loadTsSolution, solutionFromModule, TsSolutionError } from '../../src/engine/host/ts-solution.js'
import { scratchFolder } from '../helpers/scratch.js'

describe('paramLayout', () => {
  it('places each value at its natural alignment, in order', () => {
    expect(paramLayout(['int', 'pointer', 'float', 'double', 'size_t', 'uint', 'int64'])).toEqual({
      offsets: [0, 8, 16, 24, 32, 40, 48],
      bytes: 56,
    })
    expect(paramLayout(['float', 'int', 'uint', 'pointer'])).toEqual({ offsets: [0, 4, 8, 16], bytes: 24 })
    expect(paramLayout([])).toEqual({ offsets: [], bytes: 0 })
  })
})

describe('KernelArgs: the void*[] of pointers to argument values', () => {
  const created: KernelArgs[] = []
  const make = (types: KernelParamType[]) => {
    const args = new KernelArgs(types)
    created.push(args)
    return args
  }
  afterEach(() => created.splice(0).forEach((a) => a.free()))

  /** What the driver sees: entry i of kernelParams, dereferenced as the parameter's C type. */
  const readThrough = (args: KernelArgs, index: number, ctype: string): unknown =>
    koffi.decode(koffi.decode(args.kernelParams + BigInt(8 * index), 'void *'), ctype)

  it('points entry i at argument i, holding its value in its C type', () => {
    const types: KernelParamType[] = ['pointer', 'int', 'float', 'size_t', 'double', 'uint', 'int64']
    const args = make(types)
    args.write([0x7f00_1234_5678n, -7, 1.5, 2 ** 40 + 3, Math.PI, 4_000_000_000, -(2n ** 40n)])
    expect(readThrough(args, 0, 'void *')).toBe(0x7f00_1234_5678n)
    expect(readThrough(args, 1, 'int32_t')).toBe(-7)
    expect(readThrough(args, 2, 'float')).toBe(1.5)
    expect(readThrough(args, 3, 'uint64_t')).toBe(2 ** 40 + 3)
    expect(readThrough(args, 4, 'double')).toBe(Math.PI)
    expect(readThrough(args, 5, 'uint32_t')).toBe(4_000_000_000)
    expect(readThrough(args, 6, 'int64_t')).toBe(-(2 ** 40))
    // The pointers follow the layout: every value has its own aligned slot.
    const base = koffi.decode(args.kernelParams, 'void *') as bigint
    const offsets = types.map((_, i) => Number((koffi.decode(args.kernelParams + BigInt(8 * i), 'void *') as bigint) - base))
    expect(offsets).toEqual(paramLayout(types).offsets)
  })

  it('rewrites the values in place on the next launch', () => {
    const args = make(['pointer', 'size_t'])
    args.write([16n, 1])
    const before = koffi.decode(args.kernelParams, 'void *')
    args.write([32n, 2])
    expect(koffi.decode(args.kernelParams, 'void *')).toBe(before)
    expect(readThrough(args, 0, 'void *')).toBe(32n)
    expect(readThrough(args, 1, 'uint64_t')).toBe(2)
  })

  it('accepts bigints for 64-bit integers', () => {
    const args = make(['size_t', 'int64'])
    args.write([2n ** 60n, -5n])
    expect(readThrough(args, 0, 'uint64_t')).toBe(2n ** 60n)
    expect(readThrough(args, 1, 'int64_t')).toBe(-5)
  })

  it('refuses a wrong argument count or a value its type cannot hold', () => {
    const args = make(['pointer', 'int', 'size_t', 'float', 'uint'])
    const ok: (bigint | number)[] = [8n, 1, 2, 0.5, 3]
    const withArg = (i: number, value: bigint | number) => ok.map((v, j) => (j === i ? value : v))
    expect(() => args.write(ok.slice(0, 4), 'relu')).toThrow('relu takes 5 arguments (pointer, int, size_t, float, uint), got 4')
    expect(() => args.write(withArg(0, 8))).toThrow('argument 0 (pointer): a device pointer must be a bigint, got number')
    expect(() => args.write(withArg(1, 2 ** 31))).toThrow('argument 1 (int): 2147483648 is out of range')
    expect(() => args.write(withArg(1, 1.5))).toThrow('argument 1 (int): expected an integer, got 1.5')
    expect(() => args.write(withArg(2, -1))).toThrow('argument 2 (size_t): -1 is out of range')
    expect(() => args.write(withArg(3, 1n))).toThrow('argument 3 (float): expected a number, got bigint')
    expect(() => args.write(withArg(4, -1))).toThrow('argument 4 (uint): -1 is out of range')
    expect(() => args.write(ok)).not.toThrow()
  })

  it('refuses to be used after it is freed', () => {
    const args = new KernelArgs(['int'])
    args.free()
    args.free() // twice is harmless
    expect(() => args.write([1], 'k')).toThrow('k: launched after its module was unloaded')
  })
})

describe('launch checks', () => {
  it('dim3 fills y and z with 1 and refuses empty or fractional sizes', () => {
    expect(dim3(7, 'grid')).toEqual([7, 1, 1])
    expect(dim3([4, 2], 'grid')).toEqual([4, 2, 1])
    expect(dim3([4, 2, 3], 'block')).toEqual([4, 2, 3])
    expect(() => dim3(0, 'grid')).toThrow('grid dimensions must be positive integers, got 0')
    expect(() => dim3([2, 1.5], 'block')).toThrow('block dimensions must be positive integers, got [2,1.5]')
    expect(() => dim3(2 ** 32, 'grid')).toThrow(RangeError)
  })

  it("checkParamSizes compares the declared types with the kernel's real parameter sizes", () => {
    expect(() => checkParamSizes('relu', [8, 8, 8], ['pointer', 'pointer', 'size_t'])).not.toThrow()
    expect(() => checkParamSizes('relu', undefined, ['int'])).not.toThrow() // a driver that cannot tell
    expect(() => checkParamSizes('relu', [8, 8, 8], ['pointer', 'pointer', 'int'])).toThrow(
      "kernel 'relu' has 3 parameters of 8, 8, 8 bytes, but was declared with [pointer, pointer, int] (8, 8, 4 bytes)",
    )
    expect(() => checkParamSizes('relu', [8, 8], ['pointer', 'pointer', 'size_t'])).toThrow(TypeError)
  })
})

describe('NVRTC options', () => {
  it('compiles real architectures to cubin and virtual ones to PTX', () => {
    expect(imageKind('sm_90a')).toBe('cubin')
    expect(imageKind('sm_80')).toBe('cubin')
    expect(imageKind('compute_90a')).toBe('ptx')
    expect(() => imageKind('hopper')).toThrow("bad GPU architecture 'hopper'")
  })

  it('names the target, the include folders and the extra options', () => {
    expect(nvrtcOptions('sm_90a', ['--use_fast_math'], ['/usr/local/cuda/include'])).toEqual([
      '--gpu-architecture=sm_90a',
      '-lineinfo',
      '--include-path=/usr/local/cuda/include',
      '--use_fast_math',
    ])
  })
})

describe('defineSolution', () => {
  it('wraps a setup function into a solution', () => {
    const setup = () => (a: bigint, n: number) => void [a, n]
    const solution = defineSolution(setup)
    expect(isTsSolution(solution)).toBe(true)
    expect(solution.setup).toBe(setup)
    expect(Object.isFrozen(solution)).toBe(true)
  })

  it('refuses anything but a function', () => {
    expect(() => defineSolution({} as never)).toThrow('defineSolution() takes the setup function, (ctx) => (...args) => void; got an object')
  })
})

describe('solutionFromModule', () => {
  const solution = defineSolution(() => () => {})

  it('returns the default export made by defineSolution', () => {
    expect(solutionFromModule({ default: solution }, 'a.ts')).toBe(solution)
  })

  it('unwraps the exports object of a module Node loaded as CommonJS', () => {
    expect(solutionFromModule({ default: { __esModule: true, default: solution } }, 'a.ts')).toBe(solution)
    expect(() => solutionFromModule({ default: { __esModule: true, default: () => {} } }, 'a.ts')).toThrow('plain function')
  })

  it('says what the module exports instead', () => {
    expect(() => solutionFromModule({ solution }, 'a.ts')).toThrow('a.ts: it has no default export. Expected:')
    expect(() => solutionFromModule({ default: () => {} }, 'a.ts')).toThrow('its default export is a plain function: wrap it in defineSolution()')
    expect(() => solutionFromModule({ default: { setup: () => {} } }, 'a.ts')).toThrow('its default export is an object, not defineSolution(...)')
    expect(() => solutionFromModule({ default: 3 }, 'a.ts')).toThrow(TsSolutionError)
  })
})

describe('loadTsSolution (modules that touch no GPU)', () => {
  const dir = scratchFolder('kb-ts-solution-')
  const api = pathToFileURL(path.join(PACKAGE_ROOT, 'src/engine/host/ts-solution.ts')).href
  const device = { name: 'Test GPU', computeCapability: '9.0', multiProcessors: 132 } as DeviceInfo
  const calls: unknown[][] = []
  ;(globalThis as { kbTestCalls?: unknown[][] }).kbTestCalls = calls
  afterEach(() => calls.splice(0))

  function solutionFile(name: string, body: string): string {
    const file = path.join(dir, name)
    fs.writeFileSync(file, `import { defineSolution } from '${api}'\n${body}\n`)
    return file
  }

  it('runs setup once with the context, then passes each call the arguments in order', async () => {
    const file = solutionFile(
      'record.ts',
      `let setups = 0
export default defineSolution(async (ctx) => {
  setups++
  const seen = { arch: ctx.arch, device: ctx.device.name }
  return (a: bigint, b: bigint, n: number) => { (globalThis as any).kbTestCalls.push([seen, setups, a, b, n]) }
})`,
    )
    const loaded = await loadTsSolution(file, device)
    loaded.call([16n, 32n, 1024])
    loaded.call([48n, 64n, 7])
    expect(calls).toEqual([
      [{ arch: 'sm_90a', device: 'Test GPU' }, 1, 16n, 32n, 1024],
      [{ arch: 'sm_90a', device: 'Test GPU' }, 1, 48n, 64n, 7],
    ])
    loaded.dispose()
  })

  it('compiles for the architecture it is told to use', async () => {
    const file = solutionFile('arch.ts', 'export default defineSolution((ctx) => () => { (globalThis as any).kbTestCalls.push([ctx.arch]) })')
    const loaded = await loadTsSolution(file, device, { arch: 'sm_90' })
    loaded.call([])
    expect(calls).toEqual([['sm_90']])
  })

  it('refuses a module without a defineSolution default export', async () => {
    const file = solutionFile('plain.ts', 'export default function solution(a: bigint) {}')
    await expect(loadTsSolution(file, device)).rejects.toThrow(`${file}: its default export is a plain function: wrap it in defineSolution()`)
  })

  it('refuses a setup that returns no function', async () => {
    const file = solutionFile('no-function.ts', 'export default defineSolution(async () => 42 as never)')
    await expect(loadTsSolution(file, device)).rejects.toThrow(`${file}: setup returned a number; it must return the function that launches the work`)
  })

  it("passes setup's own error through", async () => {
    const file = solutionFile('throws.ts', "export default defineSolution(() => { throw new RangeError('tile size too large') })")
    await expect(loadTsSolution(file, device)).rejects.toThrow(new RangeError('tile size too large'))
  })

  it('refuses a per-call function that returns a Promise', async () => {
    const file = solutionFile('async-call.ts', 'export default defineSolution(() => async (a: bigint) => {})')
    const loaded = await loadTsSolution(file, device)
    expect(() => loaded.call([1n])).toThrow('the solution function returned a Promise; it must enqueue its work and return synchronously')
  })

  it('names a missing file', async () => {
    await expect(loadTsSolution(path.join(dir, 'missing.ts'), device)).rejects.toThrow(`solution file not found: ${path.join(dir, 'missing.ts')}`)
  })
})
