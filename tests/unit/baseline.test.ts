import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  BASELINE_SCHEMA_VERSION,
  BaselineFileError,
  baselinePath,
  keyString,
  lookup,
  mergeEntries,
  parseKeyString,
  readBaseline,
  serializeBaseline,
  writeBaseline,
  type BaselineFile,
  type BaselineKey,
} from '../../src/baseline/store.js'
import {
  DEFAULT_VERDICT_OPTIONS,
  checkFloors,
  compareToBaseline,
  type BaselineEntry,
  type Measurement,
} from '../../src/baseline/verdict.js'
import { useScratch } from '../helpers/scratch.js'

const H100 = 'NVIDIA H100 80GB HBM3'
const A100 = 'NVIDIA A100-SXM4-80GB'

function base(tflops: number, cv = 0.001, gpu = H100): BaselineEntry {
  return { tflops, runtimeMs: 1, cv, gpu, measuredAt: '2025-01-01T00:00:00.000Z' }
}
function meas(tflops: number, cv = 0.001): Measurement {
  return { tflops, runtimeMs: 1, cv }
}

describe('compareToBaseline', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_VERDICT_OPTIONS).toEqual({ tolerance: 0.05, noiseFactor: 3, failOnImprovement: false })
  })

  it('regression beyond the tolerance fails, with a message naming values, change, noise and rule', () => {
    const v = compareToBaseline(meas(12.3, 0.01), H100, base(15, 0.0025))
    expect(v.kind).toBe('regression')
    expect(v.fails).toBe(true)
    if (v.kind !== 'regression') throw new Error('unreachable')
    expect(v.change).toBeCloseTo(12.3 / 15 - 1, 12)
    expect(v.bound).toBe(0.05)
    // noise = sqrt(0.01² + 0.0025²) = 1.03%
    expect(v.message).toContain('12.3 TFLOPS vs baseline 15.0 (-18.0%)')
    expect(v.message).toContain('beyond the bound 5.0% = max(tolerance 5.0%, 3 × noise 1.0%)')
    expect(v.message).toMatch(/^regression: /)
  })

  it('reproduces the brief example message exactly', () => {
    // noise 1.2% via cv_measured = 0.012, cv_baseline = 0
    const v = compareToBaseline(meas(12.3, 0.012), H100, base(15, 0))
    expect(v.message).toBe(
      'regression: 12.3 TFLOPS vs baseline 15.0 (-18.0%), beyond the bound 5.0% = max(tolerance 5.0%, 3 × noise 1.2%)',
    )
  })

  it('improvement beyond the bound does not fail by default', () => {
    const v = compareToBaseline(meas(11), H100, base(10))
    expect(v.kind).toBe('improvement')
    expect(v.fails).toBe(false)
    if (v.kind !== 'improvement') throw new Error('unreachable')
    expect(v.change).toBeCloseTo(0.1, 12)
    expect(v.message).toContain('11.0 TFLOPS vs baseline 10.0 (+10.0%), beyond the bound 5.0%')
    expect(v.message).not.toContain('failOnImprovement')
  })

  it('improvement fails with failOnImprovement and says why', () => {
    const v = compareToBaseline(meas(11), H100, base(10), { failOnImprovement: true })
    expect(v.kind).toBe('improvement')
    expect(v.fails).toBe(true)
    expect(v.message).toContain('failOnImprovement')
  })

  it('a change within the tolerance is the same', () => {
    for (const t of [9.6, 10, 10.4, 9.5, 10.5]) {
      const v = compareToBaseline(meas(t), H100, base(10))
      expect(v.kind, `tflops ${t}`).toBe('same')
      expect(v.fails).toBe(false)
    }
    const v = compareToBaseline(meas(9.6), H100, base(10))
    expect(v.message).toContain('9.60 TFLOPS vs baseline 10.0 (-4.0%), within the bound 5.0%')
  })

  it('a change beyond the tolerance but within the noise is the same, and the bound is the noise', () => {
    // noise = sqrt(0.03² + 0.04²) = 0.05, bound = 3 × 0.05 = 15%
    const v = compareToBaseline(meas(8.8, 0.03), H100, base(10, 0.04))
    expect(v.kind).toBe('same')
    expect(v.fails).toBe(false)
    if (v.kind !== 'same') throw new Error('unreachable')
    expect(v.bound).toBeCloseTo(0.15, 12)
    expect(v.change).toBeCloseTo(-0.12, 12)
    expect(v.message).toContain('within the bound 15.0% = max(tolerance 5.0%, 3 × noise 5.0%)')
    // the same drop with quiet samples is a regression
    expect(compareToBaseline(meas(8.8, 0.001), H100, base(10, 0.001)).kind).toBe('regression')
    // and beyond the noise bound it is a regression too
    expect(compareToBaseline(meas(8.4, 0.03), H100, base(10, 0.04)).kind).toBe('regression')
  })

  it('respects custom tolerance and noise factor', () => {
    expect(compareToBaseline(meas(9.6), H100, base(10), { tolerance: 0.02 }).kind).toBe('regression')
    const v = compareToBaseline(meas(8.8, 0.03), H100, base(10, 0.04), { noiseFactor: 2 })
    expect(v.kind).toBe('regression')
    expect(v.message).toContain('max(tolerance 5.0%, 2 × noise 5.0%)')
  })

  it('no baseline never fails', () => {
    const v = compareToBaseline(meas(12.3), H100, undefined)
    expect(v).toEqual({ kind: 'no-baseline', fails: false, message: expect.stringContaining('12.3 TFLOPS') })
    expect(v.message).toContain('no baseline')
    expect(v.message).toContain(H100)
  })

  it('a baseline from another GPU model is not compared', () => {
    const v = compareToBaseline(meas(1), H100, base(100, 0.01, A100))
    expect(v.kind).toBe('other-gpu')
    expect(v.fails).toBe(false)
    if (v.kind !== 'other-gpu') throw new Error('unreachable')
    expect(v.baselineGpu).toBe(A100)
    expect(v.message).toContain(A100)
    expect(v.message).toContain(H100)
    expect(v.message).toContain('not compared')
  })

  it('rejects nonsense inputs', () => {
    expect(() => compareToBaseline(meas(Number.NaN), H100, base(10))).toThrow(RangeError)
    expect(() => compareToBaseline(meas(10), H100, base(0))).toThrow(RangeError)
    expect(() => compareToBaseline(meas(10), H100, base(10), { tolerance: -1 })).toThrow(RangeError)
  })
})

describe('checkFloors', () => {
  const m = { tflops: 12.3, runtimeMs: 2.5, solPercent: 62 }

  it('is empty when every floor holds (equality passes)', () => {
    expect(checkFloors(m, {})).toEqual([])
    expect(checkFloors(m, { minTflops: 12.3, minGflops: 12000, maxRuntimeMs: 2.5, minSolPercent: 62 })).toEqual([])
  })

  it('reports one message per violated floor', () => {
    const out = checkFloors(m, { minTflops: 15, minGflops: 13000, maxRuntimeMs: 2, minSolPercent: 70 })
    expect(out).toHaveLength(4)
    expect(out[0]).toContain('minTflops 15')
    expect(out[0]).toContain('12.3 TFLOPS')
    expect(out[1]).toContain('minGflops 13000')
    expect(out[1]).toContain('12300')
    expect(out[2]).toContain('maxRuntimeMs 2')
    expect(out[2]).toContain('2.500 ms')
    expect(out[3]).toContain('minSolPercent 70')
    expect(out[3]).toContain('62.0%')
    expect(checkFloors(m, { minTflops: 1, maxRuntimeMs: 1 })).toEqual([
      'runtime 2.500 ms is above the ceiling maxRuntimeMs 1',
    ])
  })

  it('skips minSolPercent when solPercent is unknown', () => {
    expect(checkFloors({ tflops: 1, runtimeMs: 1 }, { minSolPercent: 50 })).toEqual([])
  })

  it('treats NaN measurements as violations', () => {
    expect(checkFloors({ tflops: Number.NaN, runtimeMs: Number.NaN }, { minTflops: 1, maxRuntimeMs: 1 })).toHaveLength(2)
  })
})

describe('keys and paths', () => {
  const k: BaselineKey = { bench: 'tiled sgemm', caseName: '4096x4096x4096', dtype: 'float32', gpu: H100 }

  it('keyString is human readable and round-trips', () => {
    expect(keyString(k)).toBe('tiled sgemm › 4096x4096x4096 › float32 › NVIDIA H100 80GB HBM3')
    expect(parseKeyString(keyString(k))).toEqual(k)
  })

  it('escapes separators inside names so keys never collide', () => {
    const a = { ...k, bench: 'a › b', caseName: 'c' }
    const b = { ...k, bench: 'a', caseName: 'b › c' }
    expect(keyString(a)).not.toBe(keyString(b))
    expect(parseKeyString(keyString(a))).toEqual(a)
    expect(parseKeyString(keyString(b))).toEqual(b)
    const weird = { bench: 'x\\', caseName: ' ›', dtype: '\\›', gpu: 'g ' }
    expect(parseKeyString(keyString(weird))).toEqual(weird)
    expect(parseKeyString('only › three › parts')).toBeUndefined()
  })

  it('baselinePath flattens the bench path under __kernelbench__', () => {
    const root = path.join(os.tmpdir(), 'proj')
    expect(baselinePath(root, 'bench/gemm/sgemm.bench.ts')).toBe(
      path.join(root, '__kernelbench__', 'bench__gemm__sgemm.bench.ts.json'),
    )
    expect(baselinePath(root, path.join(root, 'bench', 'x.bench.ts'))).toBe(
      path.join(root, '__kernelbench__', 'bench__x.bench.ts.json'),
    )
    expect(() => baselinePath(root, '../elsewhere.bench.ts')).toThrow(/not inside/)
  })
})

describe('merge, lookup, stable output', () => {
  const k = (bench: string, caseName: string, gpu = H100, dtype = 'float32'): BaselineKey => ({
    bench,
    caseName,
    dtype,
    gpu,
  })
  const updates: Array<[BaselineKey, BaselineEntry]> = [
    [k('sgemm', '1024'), base(10)],
    [k('sgemm', '4096'), base(40)],
    [k('copy', 'big'), base(0.5)],
    [k('sgemm', '1024', A100), base(7, 0.001, A100)],
    [k('sgemm', '1024', H100, 'float16'), base(90)],
  ]

  it('the file does not depend on the order of updates', () => {
    const a = serializeBaseline(mergeEntries(undefined, updates))
    const b = serializeBaseline(mergeEntries(undefined, [...updates].reverse()))
    const c = serializeBaseline(mergeEntries(undefined, [updates[2]!, updates[0]!, updates[4]!, updates[3]!, updates[1]!]))
    expect(b).toBe(a)
    expect(c).toBe(a)
    const keys = Object.keys(JSON.parse(a).entries as object)
    expect(keys).toEqual([...keys].sort())
    expect(keys).toHaveLength(5)
    expect(a.endsWith('}\n')).toBe(true)
    expect(a).toContain('\n  "version": 1,\n')
  })

  it('merge keeps entries that are not updated and replaces those that are', () => {
    const prev = mergeEntries(undefined, updates)
    const next = mergeEntries(prev, [[k('sgemm', '1024'), base(11)]])
    expect(Object.keys(next.entries)).toHaveLength(5)
    expect(next.entries[keyString(k('sgemm', '1024'))]!.tflops).toBe(11)
    expect(next.entries[keyString(k('sgemm', '1024', A100))]!.tflops).toBe(7)
    expect(next.entries[keyString(k('copy', 'big'))]!.tflops).toBe(0.5)
    expect(prev.entries[keyString(k('sgemm', '1024'))]!.tflops).toBe(10) // previous not mutated
    expect(next.version).toBe(BASELINE_SCHEMA_VERSION)
  })

  it('merge rejects an entry whose gpu disagrees with its key', () => {
    expect(() => mergeEntries(undefined, [[k('a', 'b'), base(1, 0, A100)]])).toThrow(/gpu/)
  })

  it('lookup prefers the same GPU, falls back to another GPU for the same case, else undefined', () => {
    const f = mergeEntries(undefined, updates)
    expect(lookup(f, k('sgemm', '1024'))!.tflops).toBe(10)
    expect(lookup(f, k('sgemm', '1024', A100))!.tflops).toBe(7)
    const other = lookup(f, k('sgemm', '4096', A100))
    expect(other!.gpu).toBe(H100)
    expect(compareToBaseline(meas(1), A100, other).kind).toBe('other-gpu')
    expect(lookup(f, k('sgemm', '4096', A100, 'float16'))).toBeUndefined() // dtype differs
    expect(lookup(f, k('sgemm', '2048'))).toBeUndefined()
    expect(lookup(undefined, k('sgemm', '1024'))).toBeUndefined()
    expect(compareToBaseline(meas(1), H100, lookup(f, k('sgemm', '2048'))).kind).toBe('no-baseline')
  })
})

describe('reading and writing files', () => {
  const dir = useScratch('kb-baseline-', 'all')

  const good = (): BaselineFile =>
    mergeEntries(undefined, [[{ bench: 'b', caseName: 'c', dtype: 'float32', gpu: H100 }, base(12)]])

  it('absent file reads as undefined', () => {
    expect(readBaseline(path.join(dir(), 'nope.json'))).toBeUndefined()
  })

  it('writes (creating directories) and reads back, keys sorted, 2-space, trailing newline', () => {
    const p = path.join(dir(), 'deep', 'er', 'x.json')
    const f = mergeEntries(undefined, [
      [{ bench: 'z', caseName: 'c', dtype: 'float32', gpu: H100 }, base(1)],
      [{ bench: 'a', caseName: 'c', dtype: 'float32', gpu: H100 }, base(2)],
    ])
    writeBaseline(p, f)
    const text = fs.readFileSync(p, 'utf8')
    expect(text).toBe(`${JSON.stringify(f, null, 2)}\n`)
    expect(text.indexOf('"a › c')).toBeLessThan(text.indexOf('"z › c'))
    expect(readBaseline(p)).toEqual(f)
    expect(fs.readdirSync(path.dirname(p))).toEqual(['x.json']) // no temp files left
  })

  function expectMalformed(name: string, content: string, problem: RegExp): void {
    const p = path.join(dir(), name)
    fs.writeFileSync(p, content)
    let err: unknown
    try {
      readBaseline(p)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(BaselineFileError)
    const e = err as BaselineFileError
    expect(e.path).toBe(p)
    expect(e.message).toContain(p)
    expect(e.problem).toMatch(problem)
  }

  it('bad JSON names the path', () => {
    expectMalformed('bad.json', '{"version": 1, "entries": {', /not valid JSON/)
    expectMalformed('empty.json', '', /not valid JSON/)
  })

  it('wrong version names the path and the versions', () => {
    expectMalformed('v2.json', JSON.stringify({ ...good(), version: 2 }), /unsupported version 2, expected 1/)
    expectMalformed('nov.json', JSON.stringify({ entries: {} }), /unsupported version undefined/)
  })

  it('an entry missing tflops names the path, the entry and the field', () => {
    const f = good() as unknown as { entries: Record<string, Record<string, unknown>> }
    const key = Object.keys(f.entries)[0]!
    delete f.entries[key]!.tflops
    expectMalformed('notflops.json', JSON.stringify(f), /entry "b › c › float32 › NVIDIA H100 80GB HBM3" is missing "tflops"/)
  })

  it('other malformed contents', () => {
    expectMalformed('arr.json', '[]', /not a JSON object/)
    expectMalformed('noentries.json', '{"version":1}', /"entries"/)
    const f = good() as unknown as { entries: Record<string, Record<string, unknown>> }
    const key = Object.keys(f.entries)[0]!
    expectMalformed('strtflops.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], tflops: '12' } } }), /"tflops" = "12"/)
    expectMalformed('gpu.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], gpu: A100 } } }), /keyed for GPU/)
    expectMalformed('key.json', JSON.stringify({ version: 1, entries: { nokey: f.entries[key] } }), /key/)
    expectMalformed('date.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], measuredAt: 'soon' } } }), /not a date/)
  })
})

describe('atomic writes survive SIGKILL', () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
  const writer = path.join(repoRoot, 'tests', 'fixtures', 'baseline-writer.ts')
  const COUNT = 3000
  const dir = useScratch('kb-atomic-', 'all')

  /**
   * Run the writer (one node process with the tsx loader, so SIGKILL hits the process that writes; `npx tsx` would
   * put a wrapper process in between) and SIGKILL it after `delayMs`, counted from spawn or, if afterReady, from
   * its first complete write.
   */
  function runAndKill(target: string, delayMs: number, afterReady: boolean): Promise<NodeJS.Signals | null> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, target, String(COUNT)], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      const kill = (): void => {
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
      if (afterReady) {
        let out = ''
        child.stdout.on('data', (d: Buffer) => {
          const had = out.includes('ready')
          out += d.toString()
          if (!had && out.includes('ready')) kill()
        })
      } else {
        child.stdout.resume()
        kill()
      }
      child.on('error', reject)
      child.on('exit', (code, signal) => {
        if (signal === null) reject(new Error(`writer exited with ${code} before being killed: ${stderr}`))
        else resolve(signal)
      })
    })
  }

  function expectAbsentOrComplete(target: string): 'absent' | 'complete' {
    if (!fs.existsSync(target)) return 'absent'
    const text = fs.readFileSync(target, 'utf8')
    const f = readBaseline(target)! // throws on a torn file
    expect(text.endsWith('}\n')).toBe(true)
    const entries = Object.values(f.entries)
    expect(entries).toHaveLength(COUNT)
    const gens = new Set(entries.map((e) => e.runtimeMs))
    expect(gens.size).toBe(1) // one generation: not a mix of two writes
    return 'complete'
  }

  it('the target is always absent or a complete write', async () => {
    const seen = { absent: 0, complete: 0 }
    let tmpLeft = 0
    for (let i = 0; i < 24; i++) {
      const afterReady = i % 3 !== 0
      const sub = path.join(dir(), `run-${i}`)
      const target = path.join(sub, 'b.json')
      const delay = afterReady ? Math.floor(Math.random() * 120) : Math.floor(Math.random() * 600)
      const signal = await runAndKill(target, delay, afterReady)
      expect(signal).toBe('SIGKILL')
      seen[expectAbsentOrComplete(target)]++
      if (fs.existsSync(sub)) tmpLeft += fs.readdirSync(sub).filter((n) => n.includes('.tmp-')).length
    }
    // every after-ready run must have left a complete file
    expect(seen.complete).toBeGreaterThanOrEqual(16)
    // informational: how often the kill landed mid-write (a temp file left behind)
    console.info(`atomic write: ${seen.complete} complete, ${seen.absent} absent, ${tmpLeft} kills mid-write`)
  })
})
