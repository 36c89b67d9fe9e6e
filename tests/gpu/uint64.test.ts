// The harness's uint64 fill and compare on a real GPU: integers lo … hi - 1, every bit of them random, the same for
// the same seed; an element off by one beyond 2^53 is caught and named with its exact values. Skipped, with the
// reason, where no GPU is usable.
import { describe, expect, it } from 'vitest'
import * as cuda from '../../src/native/cuda.js'
import { useFillOnGpu0 } from '../helpers/fill-on-gpu0.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const COUNT = 2 ** 20
const P = 2n ** 61n - 1n

describe.skipIf(!gpu.available)(onGpuTitle('uint64 fill and compare'), { timeout: 300_000 }, () => {
  const { gpu0 } = useFillOnGpu0(1)

  /** Fills COUNT uint64 elements of GPU 0's buffer from [lo, hi) with `seed` and reads them back. */
  function draw(seed: number, lo: bigint, hi: bigint): BigUint64Array {
    const { harness, buffer } = gpu0()
    harness.fillUniformUint64(buffer, COUNT, seed, lo, hi)
    cuda.synchronize()
    const bytes = cuda.readBytes(buffer, COUNT * 8)
    return new BigUint64Array(bytes.buffer, bytes.byteOffset, COUNT)
  }

  it('draws the field elements 0 … p - 1 for p = 2^61 - 1 with their low bits random, not rounded through a double', () => {
    const values = draw(7, 0n, P)
    expect(values.every((v) => v < P)).toBe(true)
    // Uniform over [0, p): about an eighth of them below 2^58, and every low byte value about as often (1/256).
    const below = values.filter((v) => v < 2n ** 58n).length
    expect(Math.abs(below / COUNT - 1 / 8)).toBeLessThan(0.01)
    const lowBytes = new Array<number>(256).fill(0)
    for (const v of values) lowBytes[Number(v & 0xffn)]!++
    for (const n of lowBytes) expect(Math.abs(n / COUNT - 1 / 256)).toBeLessThan(0.001)
    // Odd values, impossible for a double-rounded draw of this size, are about half.
    expect(Math.abs(values.filter((v) => (v & 1n) === 1n).length / COUNT - 0.5)).toBeLessThan(0.01)
  })

  it('draws lo … hi - 1, every one of them, and hi never', () => {
    const values = draw(3, 2n ** 63n + 5n, 2n ** 63n + 12n)
    expect(new Set(values)).toEqual(new Set([5n, 6n, 7n, 8n, 9n, 10n, 11n].map((k) => 2n ** 63n + k)))
  })

  it('gives the same values for the same seed, and others for another', () => {
    const first = [...draw(11, 0n, P)]
    expect([...draw(11, 0n, P)]).toEqual(first)
    const other = draw(12, 0n, P)
    expect(other.filter((v, i) => v === first[i]).length).toBeLessThan(10)
  })

  it('catches an element off by one beyond 2^53 and reports both values exactly', () => {
    const { harness, buffer } = gpu0()
    const expected = buffer
    const got = buffer + BigInt(COUNT * 8)
    const values = draw(5, 2n ** 60n, P)
    cuda.memcpyAsync(got, expected, COUNT * 8)
    const index = 1000
    const wrong = new BigUint64Array([values[index]! + 1n])
    cuda.memcpy(got + BigInt(index * 8), new Uint8Array(wrong.buffer), 8)
    cuda.synchronize()
    expect(harness.compare(got, expected, COUNT, 'uint64', 0, 0)).toEqual({
      badCount: 1,
      nanCount: 0,
      maxAbsError: 1,
      firstBad: index,
      expectedAtFirstBad: String(values[index]),
      gotAtFirstBad: String(values[index]! + 1n),
    })
  })
})
