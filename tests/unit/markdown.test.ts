// The Markdown report on recorded results: golden files for each fixture and for a whole run, and the marks a
// reader relies on (verdicts, wrong answers, skipped verification, flagged drops and CVs, SOL above 100%) checked one by one.
import { describe, expect, it } from 'vitest'
import type { ReportedBench } from '../../src/report/json.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { FIXTURES, loadFixture } from '../fixtures/results/index.js'

/** The table row of a case, split into its cells (escaped pipes stay inside their cell). */
function row(markdown: string, caseName: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${caseName} |`))
  if (!line) throw new Error(`no row for case '${caseName}' in:\n${markdown}`)
  return line
    .slice(2, -2)
    .split(/(?<!\\) \| /)
}

const verdictOf = (markdown: string, caseName: string) => row(markdown, caseName).at(-1)

describe('renderMarkdown goldens', () => {
  for (const name of FIXTURES) {
    it(`renders ${name}`, async () => {
      await expect(renderMarkdown([loadFixture(name)])).toMatchFileSnapshot(`./__golden__/${name}.md`)
    })
  }

  it('renders a whole run: counts, each device once, every bench in order', async () => {
    await expect(renderMarkdown(FIXTURES.map(loadFixture))).toMatchFileSnapshot('./__golden__/run.md')
  })
})

describe('renderMarkdown marks', () => {
  it('puts the CI guard verdict in the last column, bold when it fails the run', () => {
    const sgemm = renderMarkdown([loadFixture('sgemm-verdicts')])
    expect(verdictOf(sgemm, '4096x4096x4096')).toBe('⚠ inconclusive -1.6% \\[-2.2%, -0.9%\\]')
    expect(verdictOf(sgemm, '8192x4096x8192')).toBe('**✗ regression -12.3% \\[-12.9%, -11.7%\\] · ✗ floor violated**')
    expect(verdictOf(sgemm, '4096x8192x4096')).toBe('improvement +9.5% \\[+8.8%, +10.3%\\]')
    expect(verdictOf(sgemm, '8192x8192x8192')).toBe('**no baseline · ✗ floor violated**')
    expect(verdictOf(renderMarkdown([loadFixture('skipped-verification-throttled')]), '4096x4096x4096')).toBe('other GPU')
    expect(verdictOf(renderMarkdown([loadFixture('sol-over-100')]), 'n = 2^26')).toBe('baseline recorded')
  })

  it("lists under the table the cases the bench's supports declined", () => {
    const sgemm = loadFixture('sgemm-verdicts')
    const text = renderMarkdown([{ ...sgemm, result: { ...sgemm.result!, unsupported: [{ name: '100x100x100', reason: 'm % 128' }] } }])
    expect(text).toContain("_not supported by the solution, not run: '100x100x100' (m % 128)_")
  })

  it('says under the table why a case could not be judged against its baseline, never passing it silently', () => {
    expect(renderMarkdown([loadFixture('sgemm-verdicts')])).toContain(
      '> _inconclusive 4096x4096x4096: the interval straddles the tolerance 2.0%, so the change may or may not exceed it_',
    )
  })

  it('gathers many cases whose interval merely straddles the tolerance into one line, and keeps other reasons apart', () => {
    const sgemm = loadFixture('sgemm-verdicts')
    const straddling = (name: string, low: number, high: number) => ({
      ...sgemm.result!.cases[0]!,
      name,
      verdict: { ...sgemm.result!.cases[0]!.verdict!, kind: 'inconclusive' as const, interval: { low, high, confidence: 0.95 }, tolerance: 0.01 },
    })
    const doubtful = { ...straddling('1x1x1', -0.5, 0.5), verdict: { ...straddling('1x1x1', 0, 0).verdict, interval: undefined, reason: 'too few samples (4)' } }
    const cases = [straddling('a', -0.02, 0.01), straddling('b', -0.03, 0.006), straddling('c', -0.011, 0.02), straddling('d', 0.005, 0.012), doubtful]
    const text = renderMarkdown([{ ...sgemm, result: { ...sgemm.result!, cases } }])
    expect(text).toContain(
      '_inconclusive 4 cases whose interval (half-width 0.4% to 1.8%) straddles the tolerance 1.0%: the change may or may not exceed it; ' +
        'against the stored baseline they fail on slowdowns beyond about 1.4% to 2.8% (a paired A/B run judges smaller ones)_',
    )
    expect(text).toContain('_inconclusive 1x1x1: too few samples (4)_')
    expect(text).not.toContain('_inconclusive a:')
    // In a paired A/B run the interval narrows as blocks are added: no smallest slowdown is claimed there.
    const paired = cases.map((c) => ({ ...c, verdict: { ...c.verdict, against: 'base.cu' } }))
    const pairedText = renderMarkdown([{ ...sgemm, result: { ...sgemm.result!, cases: paired } }])
    expect(pairedText).toContain('straddles the tolerance 1.0%: the change may or may not exceed it_')
  })

  it('has the columns of the terminal table, with the CV next to the median', () => {
    const [, median, throughput, bandwidth, peak, bw, sol, clock, samples, stop] = row(renderMarkdown([loadFixture('sgemm-verdicts')]), '4096x4096x4096')
    // 2·4096³ FLOP in 7.9125 ms = 17.37 TFLOPS; against the H100 SXM's fp32-accurate ceiling (3×TF32: 494.5 / 3 =
    // 164.83 TFLOPS) that is 10.5%, also the SOL (compute-bound).
    expect([median, throughput, bandwidth, peak, bw, sol, clock, samples, stop]).toEqual([
      '7.913 ms ±0.44%',
      '17.4 TFLOPS',
      '25 GB/s',
      '11%',
      '0.8%',
      '11%',
      '1980',
      '38',
      'cv',
    ])
  })

  it('marks a wrong answer and a fault, and quotes the failure in a block', () => {
    const text = renderMarkdown([loadFixture('wrong-answer')])
    expect(row(text, 'n = 2^22')).toEqual(['n = 2^22', '**✗ wrong answer**'])
    expect(row(text, 'n = 2^23')).toEqual(['n = 2^23', '**✗ CudaError**'])
    expect(text).toContain('### ✗ vector add (offset bug)')
    expect(text).toContain("```text\nvector add (offset bug) (vector-addition, float32):\n✗ case 'n = 2^22': wrong answer before timing")
  })

  it('warns above the table when verification was skipped, and explains dropped samples and a flagged CV', () => {
    const text = renderMarkdown([loadFixture('skipped-verification-throttled')])
    const lines = text.split('\n')
    const banner = lines.indexOf('> **⚠ VERIFICATION SKIPPED: these numbers may come from a wrong kernel**')
    expect(banner).toBeGreaterThan(0)
    expect(banner).toBeLessThan(lines.findIndex((l) => l.startsWith('| case |')))
    // 6 throttled and 2 with interference of 49 taken: over a tenth, so in italics. The second case fell back from
    // spin padding; it stopped at max-time with a CV under twice the target, so the CV is plain.
    expect(row(text, '4096x4096x4096')[8]).toBe('_41 (-8)_')
    expect(row(text, '8192x8192x8192')[1]).toBe('_71.34 ms †_ ±1.7%')
    expect(text).toContain('> † 8192x8192x8192: the solution blocked the host for 41 ms while the spin kernel held the stream; matmul padding')
    expect(text).toContain(
      '> samples n (-k): k more were dropped, taken below 75% of the maximum SM clock (throttled) or with foreign GPU work or a host stall inside their timed window; _in italics_ where that is over 10.0% of the samples taken',
    )
    expect(text).not.toContain('CV in italics')
    expect(renderMarkdown([loadFixture('sgemm-verdicts')])).not.toMatch(/VERIFICATION SKIPPED|throttled|CV in italics/)
  })

  it('puts a CV in italics only at a limit stop far above the target, and a few routine drops in plain', () => {
    const noisy = loadFixture('skipped-verification-throttled')
    const slow = noisy.result!.cases[1]!
    slow.summary = { ...slow.summary!, cv: 0.031 }
    const text = renderMarkdown([noisy])
    expect(row(text, '8192x8192x8192')[1]).toBe('_71.34 ms †_ _±3.1%_')
    expect(text).toContain('> _CV in italics_: timing stopped at its time or iteration limit with the CV over 2× the target 1.0%')
    // Noise-stable stops above the target (±3.2%, ±2.7%) and 4 of 261 samples dropped: details, not flags.
    const stable = renderMarkdown([loadFixture('calibration-offsets')])
    expect(row(stable, 'n = 2^16')[1]).toBe('_4.38 µs ‡_ ±3.2%')
    expect(stable).not.toContain('CV in italics')
    const routine = loadFixture('wrong-answer')
    const timing = routine.result!.cases[0]!.outcome
    if (timing.status !== 'ok' || !timing.timing) throw new Error('the fixture times its first case')
    timing.timing.droppedInterference = 4
    const plainDrops = renderMarkdown([routine])
    expect(row(plainDrops, 'n = 2^20')[8]).toBe('214 (-4)')
    expect(plainDrops).toContain('inside their timed window\n')
  })

  it('flags a SOL above 100% in its cell, its verdict and under the table', () => {
    const text = renderMarkdown([loadFixture('sol-over-100')])
    expect(row(text, 'n = 2^24')[6]).toBe('**146% ⚠**')
    expect(row(text, 'n = 2^24')[10]).toBe('**✗ SOL above 100%**')
    expect(row(text, 'n = 2^26')[6]).toBe('90%')
    expect(text).toContain('> **✗ SOL above 100% fails the case: faster than this GPU can go')
    expect(text).toContain('(SOL 146.1% of the datasheet roofline: floor 41.9 µs, measured median 28.7 µs;')
    expect(renderMarkdown([loadFixture('sgemm-verdicts')])).not.toContain('SOL above 100%')
  })

  it('adds a geometric-mean line per bench with more than one timed case, and says why not when a case failed', () => {
    expect(renderMarkdown([loadFixture('skipped-verification-throttled')])).toContain('_geometric mean over 2 cases: 24.46 ms, 15.9 TFLOPS_')
    // A regression and two violated floors, or a wrong answer and a fault: a mean over the rest would flatter the bench.
    expect(renderMarkdown([loadFixture('sgemm-verdicts')])).toContain('_no geometric mean: 2 cases failed_')
    expect(renderMarkdown([loadFixture('wrong-answer')])).toContain('_no geometric mean: 2 cases failed_')
  })

  it('escapes names so that a pipe cannot split a cell or a star start emphasis', () => {
    const sgemm = loadFixture('sgemm-verdicts')
    const result = sgemm.result!
    const bench: ReportedBench = {
      ...sgemm,
      name: 'tiled *sgemm*',
      result: { ...result, cases: [{ ...result.cases[0]!, name: 'a|b' }] },
    }
    const text = renderMarkdown([bench])
    expect(text).toContain('### ✗ tiled \\*sgemm\\*')
    const cells = row(text, 'a\\|b')
    expect(cells).toHaveLength(11)
    expect(text.split('\n').find((l) => l.startsWith('| case |'))!.split(' | ')).toHaveLength(11)
  })

  it('reports a bench that failed before producing a result, in a fence its message cannot close', () => {
    const bench: ReportedBench = {
      file: 'bench/broken.bench.ts',
      name: 'broken',
      state: 'failed',
      errors: ['CompileError: sgemm.cu(12): error: expected a ";"\n```\nnot a fence end'],
    }
    expect(renderMarkdown([bench])).toBe(
      '## Kernel benchmarks\n\n1 bench: 1 failed\n\n### ✗ broken\n\nbench/broken.bench.ts\n\n' +
        '````text\nCompileError: sgemm.cu(12): error: expected a ";"\n```\nnot a fence end\n````\n',
    )
  })

  it('says why a bench was skipped, and when nothing ran', () => {
    const sgemm = loadFixture('sgemm-verdicts')
    const skipped: ReportedBench = {
      ...sgemm,
      state: 'skipped',
      errors: [],
      result: { ...sgemm.result!, device: undefined, arch: undefined, cases: [], skipped: 'no usable CUDA GPU: cudaErrorNoDevice' },
    }
    const text = renderMarkdown([skipped])
    expect(text).toContain('### ↷ tiled sgemm')
    expect(text).toContain('_skipped: no usable CUDA GPU: cudaErrorNoDevice_')
    expect(text).not.toContain('| case |')
    expect(renderMarkdown([])).toBe('## Kernel benchmarks\n\nno kernel benchmarks ran\n')
  })
})
