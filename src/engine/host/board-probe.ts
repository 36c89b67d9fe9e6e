// The board probe, inside the device host: a naive sgemm (kb_board_probe in cuda/harness.cu) whose b matrix is at least
// the L2's size, timed with CUDA events. Boards of one GPU model come in kinds that run kernels reading beyond the L2 a
// few percent apart (docs/ci-gate.md, "Boards of one model"), and the stored-baseline gate judges a board by the
// recorded boards of its kind (src/baseline/verdict.ts): the probe's time says which kind a board is.
import * as cuda from '../../native/cuda.js'
import type { DeviceSession } from './device-session.js'
import { timeRepetitions } from './ceilings.js'

/** a is ROWS × depth, b depth × COLUMNS: 512 × 4096 × 4096 on a GPU whose L2 is 64 MiB or less (5.8–6.1 ms on an H200). */
const ROWS = 512
const COLUMNS = 4096
const LEAST_DEPTH = 4096
const REPETITIONS = 7

/** A probe timed at an SM clock this far below the board's maximum is not kept: the board's kind would be misread. */
const LEAST_CLOCK_SHARE = 0.97

/** The probe's median time (ms) on this board, or undefined when its SM clock was throttled while it ran. */
export function measureBoardProbe(session: DeviceSession): number | undefined {
  // b is at least the L2 (whole KiB rows), so that the probe reads from DRAM whatever the GPU.
  const depth = Math.max(LEAST_DEPTH, Math.ceil(session.info.l2CacheBytes / (COLUMNS * 4) / 1024) * 1024)
  const a = cuda.malloc(ROWS * depth * 4)
  const buffers = [a]
  try {
    const b = cuda.malloc(depth * COLUMNS * 4)
    buffers.push(b)
    const c = cuda.malloc(ROWS * COLUMNS * 4)
    buffers.push(c)
    session.harness.fillUniform(a, ROWS * depth, 'float32', 1, -1, 1)
    session.harness.fillUniform(b, depth * COLUMNS, 'float32', 2, -1, 1)
    const timing = timeRepetitions(session, REPETITIONS, () => session.harness.boardProbe(a, b, c, ROWS, COLUMNS, depth))
    const throttled = Number.isFinite(timing.smClockMHz) && timing.smClockMHz < LEAST_CLOCK_SHARE * session.maxSmClockMHz
    return throttled ? undefined : timing.medianMs
  } finally {
    for (const ptr of buffers) cuda.free(ptr)
  }
}
