// The GPU time a bench file is expected to need still: what its cases held in its last run, less what they held so far.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileWork } from '../../src/vitest/file-work.js'
import { useScratch } from '../helpers/scratch.js'

describe('the GPU work left to a bench file', () => {
  const dir = useScratch('kb-file-work-')

  it('has no estimate for a file never run, and keeps what its cases held for the next run', () => {
    const first = fileWork(path.join(dir(), 'a'), '/p/bench/gemm.bench.ts', 'bench')
    expect(first.leftMs()).toBeUndefined()
    first.add(1200)
    first.add(300)
    first.save()
    // A later run (another process: another cache entry here) reads it.
    fs.cpSync(path.join(dir(), 'a'), path.join(dir(), 'b'), { recursive: true })
    const next = fileWork(path.join(dir(), 'b'), '/p/bench/gemm.bench.ts', 'bench')
    expect(next.leftMs()).toBe(1500)
    next.add(400)
    expect(next.leftMs()).toBe(1100)
    next.add(5000)
    expect(next.leftMs()).toBe(0)
    // Another mode or another file has an estimate of its own.
    expect(fileWork(path.join(dir(), 'b'), '/p/bench/gemm.bench.ts', 'verify').leftMs()).toBeUndefined()
    expect(fileWork(path.join(dir(), 'b'), '/p/bench/other.bench.ts', 'bench').leftMs()).toBeUndefined()
  })

  it('ignores a kept file that is not an estimate', () => {
    const cache = path.join(dir(), 'c')
    fileWork(cache, '/p/x.bench.ts', 'bench').save() // nothing held: 0 ms is no estimate
    fs.cpSync(cache, path.join(dir(), 'd'), { recursive: true })
    expect(fileWork(path.join(dir(), 'd'), '/p/x.bench.ts', 'bench').leftMs()).toBeUndefined()
    const [name] = fs.readdirSync(path.join(dir(), 'd', 'file-work'))
    fs.writeFileSync(path.join(dir(), 'd', 'file-work', name!), '{not json')
    fs.cpSync(path.join(dir(), 'd'), path.join(dir(), 'e'), { recursive: true })
    expect(fileWork(path.join(dir(), 'e'), '/p/x.bench.ts', 'bench').leftMs()).toBeUndefined()
  })
})
