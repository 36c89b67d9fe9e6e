import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { startVitest, type TestSpecification } from 'vitest/node'
import { kernelBenchPlugin } from '../../src/plugin.js'
import { cudaPathLiterals, cudaSourcesNamedBy } from '../../src/vitest/watch-cu.js'

const temporary: string[] = []
afterEach(() => {
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A temporary folder holding the given files (path relative to the folder → content). */
function project(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kb-watch-')))
  temporary.push(root)
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    fs.writeFileSync(path.join(root, name), content)
  }
  return root
}

describe('cudaPathLiterals', () => {
  it('finds single-, double- and back-quoted literals ending in .cu or .cuh, once each, in order', () => {
    const source = [
      `kernelBench('tiled', { problem: matmul, solution: './sgemm_tiled.cu' })`,
      `kernelProperty("naive", { problem: matmul, solution: "../kernels/sgemm naive.cu" })`,
      'const header = `include/tile.cuh`',
      `kernelBench('again', { problem: matmul, solution: './sgemm_tiled.cu' })`,
    ].join('\n')
    expect(cudaPathLiterals(source)).toEqual(['./sgemm_tiled.cu', '../kernels/sgemm naive.cu', 'include/tile.cuh'])
  })

  it('ignores other extensions, template literals with substitutions and literals spanning lines', () => {
    const source = [
      `const a = './notes.cu.md', b = './kernel.cub', c = 'kernel.c', d = './cuda/'`,
      'const e = `${dir}/kernel.cu`',
      `const f = 'a\n.cu'`,
    ].join('\n')
    expect(cudaPathLiterals(source)).toEqual([])
  })
})

describe('cudaSourcesNamedBy', () => {
  it('resolves literals relative to the module and keeps each file that exists once', () => {
    const root = project({ 'kernels/sgemm.cu': '', 'kernels/tile.cuh': '', 'bench/gemm.bench.ts': '' })
    const source = `'../kernels/sgemm.cu' '../kernels/tile.cuh' './missing.cu' 'sgemm.cu' '${path.join(root, 'kernels/sgemm.cu')}'`
    expect(cudaSourcesNamedBy(path.join(root, 'bench/gemm.bench.ts'), source)).toEqual([
      path.join(root, 'kernels/sgemm.cu'),
      path.join(root, 'kernels/tile.cuh'),
    ])
    expect(cudaSourcesNamedBy(path.join(root, 'kernels/helper.js?v=3'), `'./sgemm.cu'`)).toEqual([path.join(root, 'kernels/sgemm.cu')])
  })

  it('names nothing for modules that are not scripts, and for dependencies', () => {
    const root = project({ 'kernels/sgemm.cu': '', 'node_modules/lib/index.js': '' })
    expect(cudaSourcesNamedBy(path.join(root, 'kernels/readme.md'), `'./sgemm.cu'`)).toEqual([])
    expect(cudaSourcesNamedBy(path.join(root, 'node_modules/lib/index.js'), `'../../kernels/sgemm.cu'`)).toEqual([])
  })
})

/** Resolves when `check` holds, polling: how long that takes depends on the machine's load, so only the test's backstop limits it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('watch mode', () => {
  it('re-runs the test file that names a .cu file when it changes, and only that one', async () => {
    const root = project({
      'kernels/add.cu': '// v1\n',
      'kernels/other.cu': '// v1\n',
      'uses-kernel.test.ts': `import { expect, test } from 'vitest'\ntest('names its kernel', () => expect('./kernels/add.cu').toMatch(/cu$/))\n`,
      'no-kernel.test.ts': `import { expect, test } from 'vitest'\ntest('names none', () => expect(1).toBe(1))\n`,
    })
    const runs: string[][] = []
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
    const vitest = await startVitest(
      'test',
      [],
      {
        root,
        config: false,
        watch: true,
        reporters: [{ onTestRunStart: (specs: ReadonlyArray<TestSpecification>) => void runs.push(specs.map((s) => path.basename(s.moduleId)).sort()) }],
      },
      { plugins: [kernelBenchPlugin()] },
      { stdout: quiet, stderr: quiet },
    )
    try {
      await until(() => runs.length === 1)
      expect(runs[0]).toEqual(['no-kernel.test.ts', 'uses-kernel.test.ts'])

      // A .cu file no test names changes nothing; the one a test names re-runs that test alone.
      fs.writeFileSync(path.join(root, 'kernels/other.cu'), '// v2\n')
      fs.writeFileSync(path.join(root, 'kernels/add.cu'), '// v2\n')
      await until(() => runs.length === 2)
      expect(runs[1]).toEqual(['uses-kernel.test.ts'])
    } finally {
      await vitest.close()
    }
  })
})
