// The plugin's `compare` option (src/spec/compare.ts) and the base solution at a git ref (src/compile/base-source.ts).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { solutionAtRef } from '../../src/compile/base-source.js'
import { DEFAULT_COMPARE, resolveCompareSettings } from '../../src/spec/compare.js'

describe('resolveCompareSettings', () => {
  it('fills in the defaults, and KERNELBENCH_COMPARE_REF overrides the ref', () => {
    expect(resolveCompareSettings()).toEqual(DEFAULT_COMPARE)
    expect(DEFAULT_COMPARE).toMatchObject({ tolerance: 0.01, processSpread: 0.013, processPairs: 1 })
    expect(resolveCompareSettings({ ref: 'main', tolerance: 0.02 })).toEqual({ ...DEFAULT_COMPARE, ref: 'main', tolerance: 0.02 })
    expect(resolveCompareSettings({ ref: 'main' }, { KERNELBENCH_COMPARE_REF: 'origin/main' }).ref).toBe('origin/main')
    expect(resolveCompareSettings({}, { KERNELBENCH_COMPARE_REF: ' ' }).ref).toBeUndefined()
    expect(resolveCompareSettings({ tolerance: 0.05 }, { KERNELBENCH_COMPARE_TOLERANCE: '0.01' }).tolerance).toBe(0.01)
    expect(() => resolveCompareSettings({}, { KERNELBENCH_COMPARE_TOLERANCE: 'two' })).toThrow('compare option tolerance must be a fraction in [0, 1) (got null)')
    expect(resolveCompareSettings({ roundMs: 5 }, { KERNELBENCH_COMPARE_ROUND_MS: ' 20 ' }).roundMs).toBe(20)
    expect(() => resolveCompareSettings({}, { KERNELBENCH_COMPARE_ROUND_MS: '-2' })).toThrow('compare option roundMs must be a positive number of ms (got -2)')
    expect(resolveCompareSettings({ processPairs: 2 }, { KERNELBENCH_COMPARE_PAIRS: '1' }).processPairs).toBe(1)
    expect(() => resolveCompareSettings({}, { KERNELBENCH_COMPARE_PAIRS: '1.5' })).toThrow('compare option processPairs must be a whole number from 1 to 4 (got 1.5)')
  })

  it('names a bad or unknown option', () => {
    expect(() => resolveCompareSettings({ tolerance: 2 })).toThrow('compare option tolerance must be a fraction in [0, 1) (got 2)')
    expect(() => resolveCompareSettings({ roundMs: 0 })).toThrow('compare option roundMs must be a positive number of ms')
    expect(() => resolveCompareSettings({ processSpread: -0.01 })).toThrow('compare option processSpread must be a fraction in [0, 1) (got -0.01)')
    expect(resolveCompareSettings({ processSpread: 0 }).processSpread).toBe(0)
    expect(() => resolveCompareSettings({ processPairs: 1.5 })).toThrow('compare option processPairs must be a whole number from 1 to 4 (got 1.5)')
    expect(() => resolveCompareSettings({ processPairs: 5 })).toThrow('compare option processPairs must be a whole number from 1 to 4 (got 5)')
    expect(resolveCompareSettings({ processPairs: 2 }).processPairs).toBe(2)
    expect(() => resolveCompareSettings({ ref: '--upload-pack=x' })).toThrow("compare option ref must be a git ref such as 'origin/main'")
    expect(() => resolveCompareSettings({ rounds: 3 } as never)).toThrow("unknown compare option 'rounds'")
  })
})

describe('solutionAtRef', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** A repository with one commit of kernels/add.cu and kernels/common.cuh, then both changed in the working tree. */
  function repository(): { repo: string; cache: string } {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-ref-'))
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-ref-cache-'))
    dirs.push(repo, cache)
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'pipe' })
    git('init', '-q')
    fs.mkdirSync(path.join(repo, 'kernels'))
    fs.writeFileSync(path.join(repo, 'kernels/add.cu'), '// old add\n')
    fs.writeFileSync(path.join(repo, 'kernels/common.cuh'), '// old header\n')
    git('add', '.')
    git('commit', '-q', '-m', 'base')
    git('tag', 'base')
    fs.writeFileSync(path.join(repo, 'kernels/add.cu'), '// new add\n')
    fs.writeFileSync(path.join(repo, 'kernels/new.cu'), '// added since\n')
    return { repo, cache }
  }

  it('copies the solution and its folder as they were at the ref, leaving the working tree alone', () => {
    const { repo, cache } = repository()
    const base = solutionAtRef(path.join(repo, 'kernels/add.cu'), 'base', cache)
    if ('missing' in base) throw new Error(base.missing)
    expect(fs.readFileSync(base.file, 'utf8')).toBe('// old add\n')
    expect(fs.readFileSync(base.at(path.join(repo, 'kernels/common.cuh')), 'utf8')).toBe('// old header\n')
    expect(base.file.startsWith(cache)).toBe(true)
    expect(fs.readFileSync(path.join(repo, 'kernels/add.cu'), 'utf8')).toBe('// new add\n')
    // A second look reuses the copy.
    const again = solutionAtRef(path.join(repo, 'kernels/add.cu'), 'base', cache)
    expect('file' in again && again.file).toBe(base.file)
  })

  it('says a solution added since the ref has no base, and names an unknown ref', () => {
    const { repo, cache } = repository()
    expect(solutionAtRef(path.join(repo, 'kernels/new.cu'), 'base', cache)).toEqual({ missing: expect.stringMatching(/^kernels\/new\.cu does not exist at base \([0-9a-f]{10}\)$/) })
    expect(() => solutionAtRef(path.join(repo, 'kernels/add.cu'), 'nope', cache)).toThrow("compare ref 'nope' is not a commit of")
  })
})
