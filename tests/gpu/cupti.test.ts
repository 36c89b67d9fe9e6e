// The CUPTI shim on a real GPU: the harness's own kernels, launched with and without a pushed id, come back as
// one span per id covering exactly the tagged work, on any stream. Skipped, with the reason, where no GPU is usable.
import { beforeAll, describe, expect, it } from 'vitest'
import { compileCuptiShim } from '../../src/compile/cupti-shim.js'
import * as cuda from '../../src/native/cuda.js'
import { Cupti, type GpuSpan } from '../../src/native/cupti.js'
import { FLOATS, useFillOnGpu0 } from '../helpers/fill-on-gpu0.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const BYTES = FLOATS * 4
const durationNs = (span: GpuSpan) => Number(span.endNs - span.startNs)

describe.skipIf(!gpu.available)(onGpuTitle('CUPTI spans on the GPU'), { timeout: 300_000 }, () => {
  // One fill first: it loads the module (lazy loading), which must stay out of the spans.
  const { gpu0, fill } = useFillOnGpu0(1)
  let cupti: Cupti

  beforeAll(() => {
    cupti = new Cupti(compileCuptiShim(gpu0().build).path)
  })

  /** Runs `enqueue` with CUPTI on, then synchronizes and returns the spans, checking that nothing was lost. */
  function spansOf(enqueue: () => void): GpuSpan[] {
    cupti.start()
    try {
      enqueue()
      cuda.synchronize()
      cupti.flush()
      const spans = cupti.read()
      expect(cupti.lostRecords()).toBe(0)
      expect(cupti.read()).toEqual([]) // read forgets what it returned
      return spans
    } finally {
      cupti.stop()
    }
  }

  it('spans the kernels launched between push and pop, and only those', () => {
    const spans = spansOf(() => {
      for (let i = 0; i < 20; i++) fill() // untagged: raises the clocks before the tagged work
      cupti.push(1)
      fill()
      cupti.pop()
      fill() // untagged, on the same stream: runs between the two spans
      cupti.push(2)
      fill()
      fill()
      cupti.pop()
    })
    expect(spans.map((s) => s.id)).toEqual([1, 2])
    const [one, two] = spans as [GpuSpan, GpuSpan]
    expect(durationNs(one)).toBeGreaterThan(1_000)
    expect(durationNs(one)).toBeLessThan(10_000_000)
    // The untagged fill is in neither span: it fills the gap between them.
    expect(Number(two.startNs - one.endNs)).toBeGreaterThan(durationNs(one) / 2)
    // Both fills of id 2 are in its span.
    expect(durationNs(two)).toBeGreaterThan(1.3 * durationNs(one))
  })

  it('counts work on other streams: a memset on the per-thread default stream', () => {
    const spans = spansOf(() => {
      cupti.push(3)
      cuda.memsetAsync(gpu0().buffer, 0, BYTES, cuda.PER_THREAD_STREAM)
      cupti.pop()
    })
    expect(spans.map((s) => s.id)).toEqual([3])
    expect(durationNs(spans[0]!)).toBeGreaterThan(1_000)
    expect(durationNs(spans[0]!)).toBeLessThan(10_000_000)
  })

  it('counts copies to the host apart, and copies within the GPU not', () => {
    const half = BYTES / 2
    const spans = spansOf(() => {
      cupti.push(6)
      fill()
      cuda.memcpyAsync(gpu0().buffer + BigInt(half), gpu0().buffer, half) // device to device
      cupti.pop()
      cupti.push(7)
      fill()
      cuda.readBytes(gpu0().buffer, 1 << 20) // device to pageable host memory
      cupti.pop()
    })
    expect(spans.map((s) => s.id)).toEqual([6, 7])
    const [withinGpu, toHost] = spans as [GpuSpan, GpuSpan]
    expect(withinGpu.offDeviceCopyNs).toBe(0n)
    // 1 MiB over PCIe or C2C takes tens of µs at least; the fill before it is not a copy.
    expect(Number(toHost.offDeviceCopyNs)).toBeGreaterThan(5_000)
    expect(toHost.offDeviceCopyNs).toBeLessThan(toHost.busyNs)
  })

  it('starts afresh: spans not read before stop() are gone after the next start()', () => {
    cupti.start()
    cupti.push(4)
    fill()
    cupti.pop()
    cuda.synchronize()
    cupti.stop()
    const spans = spansOf(() => {
      cupti.push(5)
      fill()
      cupti.pop()
    })
    expect(spans.map((s) => s.id)).toEqual([5])
  })
})
