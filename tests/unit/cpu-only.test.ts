// CPU-only CI: on a machine with nvcc and no GPU, `vitest run` and `vitest bench` still compile every solution and
// reference, so a syntax error, a signature mismatch and a missing file fail with the user's file and line, and the
// rest is skipped with its reason in the default output; with compileWithoutGpu off nothing compiles and every bench
// skips but the missing file. Runs both commands on tests/cpu-only/broken.bench.ts.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { findNvcc } from '../../src/compile/nvcc.js'
import type { ResultsFile } from '../../src/report/json.js'
import { probeGpu } from '../../src/native/cuda.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs')
const config = 'tests/cpu-only/vitest.config.ts'
const gpu = probeGpu()
const nvcc = (() => {
  try {
    return findNvcc()
  } catch {
    return undefined
  }
})()
const skipReason = gpu.available ? 'a GPU is present' : nvcc === undefined ? 'no nvcc' : undefined

/** The JSON results of `vitest bench`, whose reporter writes them. */
const jsonFile = path.join(os.tmpdir(), `kb-cpu-only-${process.pid}.json`)

/** Runs a Vitest command on the broken benches; resolves with its exit code and all of its output, without colours. */
async function vitest(args: string[], more: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, CI: '1', KERNELBENCH_JSON: args[0] === 'bench' ? jsonFile : undefined, ...more }
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [vitestBin, ...args, '--config', config], { cwd: root, env })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, output: e.stdout + e.stderr }
  }
}

describe.skipIf(skipReason !== undefined)(`CPU-only CI${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let run: { code: number; output: string }
  let bench: { code: number; output: string }
  let passing: { code: number; output: string }
  let uncompiled: { code: number; output: string }
  beforeAll(async () => {
    // A threshold of 0 makes every test slow, which Vitest marks ✓ whatever its state.
    ;[run, bench, passing, uncompiled] = await Promise.all([
      vitest(['run']),
      vitest(['bench', '--run', '--slowTestThreshold=0']),
      vitest(['run', '-t', 'compiles']),
      vitest(['run'], { KERNELBENCH_COMPILE_WITHOUT_GPU: '0' }),
    ])
  })

  const solutions = path.join(root, 'tests/fixtures/solutions')
  const expectedErrors = [
    `CompileError: nvcc failed to compile ${solutions}/syntax_error.cu:5`,
    `  ${solutions}/syntax_error.cu:5: identifier "undeclared_function_call" is undefined`,
    "SignatureMismatchError: wrong_signature.cu: the solution's signature does not match the problem.",
    `  found at ${solutions}/wrong_signature.cu:7: extern "C" void solution(const float* d_input1, const float* d_input2, float* d_output, int n) {`,
    `SolutionNotFoundError: solution file not found: ${path.join(root, 'tests/cpu-only/no_such_kernel.cu')}`,
    "  kernelBench 'missing file' in broken.bench.ts names solution './no_such_kernel.cu', which is resolved against the bench file's folder",
  ]
  const skipped = /no usable CUDA GPU: .* — solution and reference compiled and signature-checked for sm_90a; verification and timing need a GPU — case selected: 'n = 2\^20'/

  it('vitest run fails the three broken benches with file and line, and skips the one that compiles with the reason', () => {
    expect(run.code).toBe(1)
    const lines = run.output.split('\n')
    for (const line of expectedErrors) expect(lines).toContain(line)
    expect(run.output).toContain('Tests  3 failed | 1 skipped (4)')
    expect(lines.find((l) => l.includes('↓ compiles'))).toMatch(skipped)
  })

  it("a file that passes shows the reason under its line, where Vitest's default reporter shows only a count", () => {
    expect(passing.code).toBe(0)
    const lines = passing.output.split('\n')
    const file = lines.findIndex((l) => l.includes('tests/cpu-only/broken.bench.ts (4 tests | 4 skipped)'))
    expect(file).toBeGreaterThanOrEqual(0)
    expect(lines[file + 1]).toMatch(/^ {3}↓ 1 skipped: no usable CUDA GPU: /)
    expect(lines[file + 1]).toMatch(skipped)
  })

  it('the JSON results name the cases the skipped bench selected', () => {
    const { benches } = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as ResultsFile
    fs.rmSync(jsonFile)
    expect(benches.find((b) => b.name === 'compiles')?.result?.selected).toEqual(['n = 2^20'])
  })

  it('vitest bench says the same, the reason in the kernel table', () => {
    expect(bench.code).toBe(1)
    const lines = bench.output.split('\n')
    for (const line of expectedErrors) expect(lines).toContain(line)
    expect(lines).toContain('compiles vector-addition · float32 · ../../problems/vector-addition/solutions/vector_add.cu')
    expect(lines.find((l) => l.startsWith('  skipped: '))).toMatch(skipped)
    expect(lines.find((l) => l.includes(' compiles '))).toMatch(/^ +↓ compiles \d+ms$/)
    expect(lines.find((l) => l.startsWith('time: '))).toMatch(/waiting for compiles \d+\.\d s/)
    expect(lines).toContain('benches: 0 passed · 3 failed · 1 skipped (4)')
  })

  it('with compileWithoutGpu off, compiles nothing: the benches skip saying so, and only the missing file fails', () => {
    expect(uncompiled.code).toBe(1)
    const lines = uncompiled.output.split('\n')
    expect(uncompiled.output).toContain('Tests  1 failed | 3 skipped (4)')
    expect(lines).toContain(expectedErrors[4])
    expect(uncompiled.output).not.toContain('CompileError')
    expect(uncompiled.output).not.toContain('SignatureMismatchError')
    const reason = /no usable CUDA GPU: .* — nothing compiled \(compileWithoutGpu is off\); verification and timing need a GPU — case selected: 'n = 2\^20'/
    for (const bench of ['compiles', 'syntax error', 'signature mismatch']) expect(lines.find((l) => l.includes(`↓ ${bench}`))).toMatch(reason)
  })

  it('points at the user\'s file, not at this package: no code frame of ours', () => {
    for (const { output } of [run, bench]) expect(output).not.toMatch(/src\/(bench|compile)/)
  })
})
