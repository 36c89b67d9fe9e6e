// Bindings to the harness's own device code (cuda/harness.cu), compiled by src/compile/harness.ts.
import koffi from 'koffi'
import { check, readBytes, type DevicePtr } from './cuda.js'
import type { Dtype } from '../spec/dtype.js'
import type { Comparison } from '../shared/messages.js'
import type { InputStructure } from '../spec/signature.js'

// Keep in sync with enum KbDtype in cuda/harness.cu.
const DTYPE_CODES: Record<Dtype, number> = { float32: 0, float64: 1, float16: 2, bfloat16: 3, int32: 4, uint32: 5, uint64: 6, uint8: 7 }
const STRUCTURE_CODES: Record<InputStructure, number> = { 'lower-triangular': 0, 'upper-triangular': 1, symmetric: 2 }

const CompareResult = koffi.struct('KbCompareResult', {
  badCount: 'uint64_t',
  nanCount: 'uint64_t',
  firstBad: 'uint64_t',
  maxAbsErrBits: 'uint64_t',
  expectedAtFirstBad: 'double',
  gotAtFirstBad: 'double',
})


export class Harness {
  private readonly fns

  /** `library`: the compiled cuda/harness.cu, whose calibration entry points the engine calls as solutions. */
  constructor(readonly library: string) {
    const lib = koffi.load(library)
    this.fns = {
      fillUniform: lib.func('int kb_fill_uniform(void *out, size_t n, int dtype, uint64_t seed, double lo, double hi)'),
      fillUniformUint64: lib.func('int kb_fill_uniform_uint64(void *out, size_t n, uint64_t seed, uint64_t lo, uint64_t hi)'),
      poison: lib.func('int kb_poison(void *out, size_t n, int dtype)'),
      structureSquare: lib.func('int kb_structure_square(void *data, size_t n, int dtype, int kind)'),
      compare: lib.func(
        'int kb_compare(void *got, void *expected, size_t n, int dtype, double rtol, double atol, _Out_ KbCompareResult *result)',
      ),
      flushRead: lib.func('int kb_flush_read(void *scratch, size_t bytes, void *sink)'),
      discardL2: lib.func('int kb_discard_l2(void *scratch, size_t bytes)'),
      spin: lib.func('int kb_spin(void *flag, uint64_t timeoutNs, void *timedOut)'),
      setFlag: lib.func('void kb_set_flag(void *flagHost, int value)'),
      checksum: lib.func('int kb_checksum(void *data, size_t bytes, void *digest)'),
      globalTimerStep: lib.func('int kb_global_timer_step(int changes, int reads, void *stepNs)'),
      hold: lib.func('void kb_calibration_hold(size_t ns, int perThreadStream)'),
      boardProbe: lib.func('int kb_board_probe(void *a, void *b, void *c, size_t m, size_t n, size_t k)'),
      nvtxPush: lib.func('void kb_nvtx_push(const char *name)'),
      nvtxPop: lib.func('void kb_nvtx_pop()'),
    }
  }

  fillUniform(ptr: DevicePtr, count: number, dtype: Dtype, seed: number, lo: number, hi: number): void {
    check(this.fns.fillUniform(ptr, count, DTYPE_CODES[dtype], BigInt(seed), lo, hi), 'kb_fill_uniform')
  }

  /** Fills `count` uint64 elements with integers drawn uniformly from lo … hi - 1, exactly (0 <= lo < hi < 2^64). */
  fillUniformUint64(ptr: DevicePtr, count: number, seed: number, lo: bigint, hi: bigint): void {
    check(this.fns.fillUniformUint64(ptr, count, BigInt(seed), lo, hi), 'kb_fill_uniform_uint64')
  }

  /** Gives the n×n row-major matrix at `ptr` its structure (see InputStructure), after it was filled. */
  structureSquare(ptr: DevicePtr, n: number, dtype: Dtype, structure: InputStructure): void {
    check(this.fns.structureSquare(ptr, n, DTYPE_CODES[dtype], STRUCTURE_CODES[structure]), 'kb_structure_square')
  }

  /** Runs `work` inside nested NVTX ranges named `names` (outermost first), for Nsight tools to filter and name by. */
  inNvtxRanges(names: readonly string[], work: () => void): void {
    for (const name of names) this.fns.nvtxPush(name)
    try {
      work()
    } finally {
      for (let i = 0; i < names.length; i++) this.fns.nvtxPop()
    }
  }

  poison(ptr: DevicePtr, count: number, dtype: Dtype): void {
    check(this.fns.poison(ptr, count, DTYPE_CODES[dtype]), 'kb_poison')
  }

  compare(got: DevicePtr, expected: DevicePtr, count: number, dtype: Dtype, rtol: number, atol: number): Comparison {
    const raw: Record<string, bigint | number> = {}
    check(this.fns.compare(got, expected, count, DTYPE_CODES[dtype], rtol, atol, raw), 'kb_compare')
    const bits = new BigUint64Array([BigInt(raw.maxAbsErrBits ?? 0)])
    const badCount = Number(raw.badCount)
    const firstBad = Number(raw.firstBad)
    // The kernel's values are doubles, which round a uint64 beyond 2^53: an element off by one would show as equal.
    const exactAt = (ptr: DevicePtr) => readBytes(ptr + BigInt(8 * firstBad), 8).readBigUInt64LE().toString()
    return {
      badCount,
      nanCount: Number(raw.nanCount),
      maxAbsError: new Float64Array(bits.buffer)[0] ?? NaN,
      ...(badCount > 0 && {
        firstBad,
        expectedAtFirstBad: dtype === 'uint64' ? exactAt(expected) : Number(raw.expectedAtFirstBad),
        gotAtFirstBad: dtype === 'uint64' ? exactAt(got) : Number(raw.gotAtFirstBad),
      }),
    }
  }

  flushRead(scratch: DevicePtr, bytes: number, sink: DevicePtr): void {
    check(this.fns.flushRead(scratch, bytes, sink), 'kb_flush_read')
  }

  /** Queues the dropping of `bytes` at `scratch` from L2, unwritten (whole 128-byte lines; sm_80 and later). */
  discardL2(scratch: DevicePtr, bytes: number): void {
    check(this.fns.discardL2(scratch, bytes), 'kb_discard_l2')
  }

  /** Queues a digest of `bytes` at `data` into 8 bytes of device memory at `digest` (read it after synchronizing). */
  checksum(data: DevicePtr, bytes: number, digest: DevicePtr): void {
    check(this.fns.checksum(data, bytes, digest), 'kb_checksum')
  }

  spin(flagDevice: DevicePtr, timeoutNs: number, timedOutDevice: DevicePtr): void {
    check(this.fns.spin(flagDevice, BigInt(timeoutNs), timedOutDevice), 'kb_spin')
  }

  setFlag(flagHost: bigint, value: number): void {
    this.fns.setFlag(flagHost, value)
  }

  /**
   * Queues a kernel on the legacy stream that holds the GPU for `ns` nanoseconds of its own clock (%globaltimer), which
   * nothing in the process can rewrite: the second clock a timer's reading is checked against.
   */
  hold(ns: number): void {
    this.fns.hold(ns, 0)
  }

  /** Queues the board probe's naive sgemm c = a·b (a m×k, b k×n, row-major floats) on the legacy stream. */
  boardProbe(a: DevicePtr, b: DevicePtr, c: DevicePtr, m: number, n: number, k: number): void {
    check(this.fns.boardProbe(a, b, c, m, n, k), 'kb_board_probe')
  }

  /**
   * Queues a kernel that writes to 8 bytes of device memory at `stepNs` the smallest change of %globaltimer between
   * two of its reads, over `changes` changes or `reads` reads (0 when it never moved).
   */
  globalTimerStep(changes: number, reads: number, stepNs: DevicePtr): void {
    check(this.fns.globalTimerStep(changes, reads, stepNs), 'kb_global_timer_step')
  }
}
