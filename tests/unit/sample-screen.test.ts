import { describe, expect, it } from 'vitest'
import { auditCalls, COVER_MARGIN, HOST_SPREAD, NEGLIGIBLE_EXCESS, PRE_WINDOW_SLACK, screenBatch, windowSlackNs, type IterationRecord } from '../../src/shared/sample-screen.js'

/** An iteration of a healthy batch: 80 µs of work in front of a 5 µs window, 20 µs of host enqueue. */
const healthy = (overrides: Partial<IterationRecord> = {}): IterationRecord => ({
  sampleMs: 0.005,
  preWindowMs: 0.08,
  hostMs: 0.02,
  callHostMs: 0.002,
  ...overrides,
})
const COVER_MS = 0.08

describe('screenBatch', () => {
  it('keeps every sample of a batch whose host kept ahead and whose GPU worked alone', () => {
    const records = Array.from({ length: 10 }, (_, i) => healthy({ sampleMs: 0.005 + i * 1e-5 }))
    expect(screenBatch(records, COVER_MS, true)).toEqual({ kept: records.map((r) => r.sampleMs), interference: 0 })
  })

  it('drops a sample whose host enqueue outlasted the GPU work in front of its window', () => {
    const stalled = healthy({ sampleMs: 0.2, hostMs: 0.5 })
    const result = screenBatch([healthy(), stalled, healthy()], COVER_MS, true)
    expect(result).toEqual({ kept: [0.005, 0.005], interference: 1 })
  })

  it('allows the host time the solution itself typically takes, and drops a call that stalled beyond it', () => {
    // A solution whose own enqueue takes 200 µs: that is its cost, paid by every call alike.
    const slowLauncher = Array.from({ length: 5 }, () => healthy({ hostMs: 0.215, callHostMs: 0.2 }))
    expect(screenBatch(slowLauncher, COVER_MS, true).interference).toBe(0)
    const oneStall = [...slowLauncher, healthy({ hostMs: 0.6, callHostMs: 0.585 })]
    expect(screenBatch(oneStall, COVER_MS, true).interference).toBe(1)
  })

  it('puts the host bound at the cover margin', () => {
    const atBound = healthy({ hostMs: 0.002 + COVER_MARGIN * COVER_MS - 1e-6 })
    // Past the bound by more than the negligible share of the 5 µs sample.
    const past = healthy({ hostMs: 0.002 + COVER_MARGIN * COVER_MS + 1e-4 })
    expect(screenBatch([atBound, healthy(), healthy()], COVER_MS, true).interference).toBe(0)
    expect(screenBatch([past, healthy(), healthy()], COVER_MS, true).interference).toBe(1)
  })

  describe('a call that synchronizes with the GPU (its host time always outlasts the cover)', () => {
    // It waits for the 80 µs in front of its window, then launches: every window holds ~20 µs of host time, ±1 µs.
    const jitter = (i: number) => ((i * 7) % 5) * 5e-4 - 1e-3
    const synchronizing = (i: number, stallMs = 0) =>
      healthy({ sampleMs: 0.025 + jitter(i) + stallMs, hostMs: 0.1 + jitter(i) + stallMs, callHostMs: 0.098 + jitter(i) + stallMs })
    const batch = Array.from({ length: 32 }, (_, i) => synchronizing(i))

    it('keeps its usual host time and jitter: that is its cost', () => {
      expect(screenBatch(batch, COVER_MS, true).interference).toBe(0)
    })

    it('drops a window that held a host stall, which the cover margin on top of the call would hide', () => {
      // 30 µs of stall: the sample reads more than twice its usual 25 µs.
      const stalled = synchronizing(3, 0.03)
      expect(stalled.hostMs).toBeLessThan(0.098 + COVER_MARGIN * COVER_MS)
      expect(screenBatch([...batch, stalled], COVER_MS, true)).toEqual({ kept: batch.map((r) => r.sampleMs), interference: 1 })
    })

    it('puts the bound HOST_SPREAD spreads past the usual host time', () => {
      // Host times 0.1 ms ± 1 µs: a median absolute deviation of 0.5 µs, about 0.74 µs as a normal’s σ (call 1 has no jitter).
      const sigma = 1.4826 * 5e-4
      const within = synchronizing(1, HOST_SPREAD * sigma * 0.9)
      const beyond = synchronizing(1, HOST_SPREAD * sigma * 1.3)
      expect(screenBatch([within], COVER_MS, true, batch).interference).toBe(0)
      expect(screenBatch([beyond], COVER_MS, true, batch).interference).toBe(1)
    })

    it("judges a batch of one call by the case's earlier batches", () => {
      expect(screenBatch([synchronizing(1, 0.03)], COVER_MS, true).interference).toBe(0)
      expect(screenBatch([synchronizing(1, 0.03)], COVER_MS, true, batch).interference).toBe(1)
    })
  })

  it('ignores host time when the stream was held until the batch was queued', () => {
    expect(screenBatch([healthy({ hostMs: 5 }), healthy()], COVER_MS, false).interference).toBe(0)
  })

  it('drops a sample whose pre-window ran long: the GPU idled or was shared around it', () => {
    const shared = healthy({ preWindowMs: PRE_WINDOW_SLACK * COVER_MS * 1.05, sampleMs: 0.15 })
    expect(screenBatch([healthy(), shared], COVER_MS, false)).toEqual({ kept: [0.005], interference: 1 })
    const slightlySlow = healthy({ preWindowMs: PRE_WINDOW_SLACK * COVER_MS * 0.99 })
    expect(screenBatch([slightlySlow], COVER_MS, false).interference).toBe(0)
  })

  it('keeps a long sample whose excess could not move it by more than NEGLIGIBLE_EXCESS', () => {
    // A 40 ms kernel: 100 µs of host stall or of a late pre-window is 0.25% of it.
    const long = { sampleMs: 40, callHostMs: 0.002 }
    const hostLate = healthy({ ...long, hostMs: 0.002 + COVER_MARGIN * COVER_MS + 0.1 })
    const gpuLate = healthy({ ...long, preWindowMs: PRE_WINDOW_SLACK * COVER_MS + 0.1 })
    expect(screenBatch([hostLate, gpuLate], COVER_MS, true)).toEqual({ kept: [40, 40], interference: 0 })
    const tooLate = healthy({ ...long, hostMs: 0.002 + COVER_MARGIN * COVER_MS + NEGLIGIBLE_EXCESS * 40 * 1.1 })
    const usual = Array.from({ length: 9 }, () => healthy(long))
    expect(screenBatch([tooLate, healthy(long)], COVER_MS, true, usual).interference).toBe(1)
  })

  it('handles an empty batch', () => {
    expect(screenBatch([], COVER_MS, true)).toEqual({ kept: [], interference: 0 })
  })
})

const span = (start: number, end: number) => ({ startNs: BigInt(start), endNs: BigInt(end) })

describe('auditCalls', () => {
  const before = span(0, 1000)
  const after = span(9000, 9500)

  it('passes work that lies between the two markers', () => {
    expect(auditCalls([{ work: span(1200, 8000), before, after }])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0, unjudged: 0, strays: 0 })
  })

  it('catches work that ends after the closing marker started, and says by how much', () => {
    expect(auditCalls([{ work: span(1200, 12_000), before, after }])).toEqual({ escaped: 1, outlasted: 0, worstUs: 3, unjudged: 0, strays: 0 })
  })

  it('catches work that started before the window opened (it overlapped the flush or padding)', () => {
    expect(auditCalls([{ work: span(500, 8000), before, after }])).toEqual({ escaped: 1, outlasted: 0, worstUs: 0.5, unjudged: 0, strays: 0 })
  })

  it('catches work between the markers that outlasts the window its events measured (the closing marker started late)', () => {
    // 6.8 µs of work on a stream the timed one does not wait for, after a window of 1 µs: the marker queued behind
    // the window waited for the GPU the work held.
    expect(auditCalls([{ work: span(1200, 8000), before, after, windowNs: 1000n }])).toEqual({ escaped: 1, outlasted: 1, worstUs: 3.799, unjudged: 0, strays: 0 })
  })

  it('passes work as long as its window, give or take the timers’ resolution', () => {
    expect(auditCalls([{ work: span(1200, 8000), before, after, windowNs: 7000n }])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0, unjudged: 0, strays: 0 })
    expect(auditCalls([{ work: span(1200, 8000), before, after, windowNs: 4800n }]).escaped).toBe(0) // 6800 ≤ 4800 + 2004
    expect(auditCalls([{ work: span(1200, 8000), before, after, windowNs: 4790n }]).escaped).toBe(1) // 6800 > 4790 + 2004
  })

  it('allows a long window 0.1% for the two clocks: 4.6 µs over 355 ms is no escape', () => {
    const window = 355_000_000n
    expect(windowSlackNs(window)).toBe(357_000n)
    const longWork = { work: span(1200, 1200 + 355_004_600), before, after: span(400_000_000, 400_000_500), windowNs: window }
    expect(auditCalls([longWork]).escaped).toBe(0)
  })

  it('counts every escaped call and keeps the worst', () => {
    const calls = [
      { work: span(1200, 8000), before, after },
      { work: span(1200, 10_000), before, after },
      { work: span(1200, 29_000), before, after },
    ]
    expect(auditCalls(calls)).toEqual({ escaped: 2, outlasted: 0, worstUs: 20, unjudged: 0, strays: 0 })
  })

  describe("untagged work (another host thread's launches)", () => {
    const second = { before: span(10_000, 11_000), after: span(19_000, 19_500) }

    it('belongs to the call whose window it starts in, and passes there', () => {
      const calls = [{ work: span(1200, 5000), before, after }, { ...second }]
      expect(auditCalls(calls, [span(3000, 8500), span(12_000, 18_000)])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0, unjudged: 0, strays: 0 })
    })

    it('escapes with its call when it runs past the closing marker, or past the window its events measured', () => {
      expect(auditCalls([{ work: span(1200, 5000), before, after }], [span(3000, 9800)])).toEqual({ escaped: 1, outlasted: 0, worstUs: 0.8, unjudged: 0, strays: 0 })
      expect(auditCalls([{ work: span(1200, 2000), before, after, windowNs: 1000n }], [span(3000, 8000)]).outlasted).toBe(1)
    })

    it('is a stray when it starts in no window (beside the padding or the flush, between two calls), with its length', () => {
      const calls = [{ work: span(1200, 5000), before, after }, { ...second }]
      expect(auditCalls(calls, [span(9600, 10_400), span(200, 700)])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0.8, unjudged: 0, strays: 2 })
    })
  })

  it('has nothing to judge in a call that launched no GPU work, and flags calls whose markers are missing', () => {
    expect(auditCalls([{ before, after }])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0, unjudged: 0, strays: 0 })
    expect(auditCalls([{ work: span(1200, 8000), before }])).toEqual({ escaped: 0, outlasted: 0, worstUs: 0, unjudged: 1, strays: 0 })
  })
})
