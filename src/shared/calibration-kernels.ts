// The harness kernels a calibration times (engine/calibration.ts), as plain data: shared by the device host, which
// times them, and the worker, which has Nsight Compute measure them (src/cli/ncu-calibration.ts).
import type { CalibrationKernel } from './messages.js'

export const CALIBRATION_KERNELS: readonly CalibrationKernel[] = [
  { kind: 'held', name: 'held 5 µs', heldMs: 0.005 },
  { kind: 'held', name: 'held 20 µs', heldMs: 0.02 },
  { kind: 'held', name: 'held 100 µs', heldMs: 0.1 },
  { kind: 'memory', name: 'add 64 Ki floats', floats: 2 ** 16 },
  { kind: 'memory', name: 'add 64 Mi floats', floats: 2 ** 26 },
]

/** The kernel function of each kind in cuda/harness.cu, as a profiler names it. */
export const CALIBRATION_KERNEL_FUNCTIONS: Record<CalibrationKernel['kind'], string> = {
  held: 'calibrationHoldKernel',
  memory: 'calibrationAddKernel',
}
