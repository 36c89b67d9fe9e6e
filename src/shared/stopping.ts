import type { StoppingOptions } from '../spec/options.js'
import { summarize } from './stats.js'

/**
 * Why timing stopped. The last two are a paired A/B case's (docs/ci-gate.md): its interval of the change became narrow
 * enough, or it reached its rounds' limit first.
 */
export type StopReason = 'target-cv' | 'noise-stable' | 'max-iterations' | 'max-time' | 'paired-interval' | 'paired-limit'

/** How many of the latest noise estimates must agree: enough to see a trend, few enough to react quickly. */
export const NOISE_STABLE_WINDOW = 10
/** Fewest samples before trusting a stable noise estimate: below this a CV is itself too noisy to judge. */
export const NOISE_STABLE_MIN_SAMPLES = 20
/** Largest relative spread of the windowed CVs that still counts as stable: 5% of the CV, not of the runtime. */
export const NOISE_STABLE_SPREAD = 0.05
/**
 * A kernel whose median sample is at least this long (ms) keeps the GPU busy for most of the timing loop. Under
 * such a load some GPUs step its time by about 1% every 50 to 150 ms (power-capped clock steps that NVML's clock
 * does not show), so it is timed for longKernelMinTimeMs: a median over 50 ms would read whichever step it caught.
 */
export const LONG_KERNEL_MS = 1

/**
 * samples: kept runtimes so far (ms, any order of arrival); elapsedMs: wall time spent measuring so far.
 * Returns why to stop now, or undefined to continue.
 *
 * With no samples at all, reaching maxTimeMs exactly does not stop (so maxTimeMs = 0 still yields one
 * sample), but being strictly past it does, so a kernel that never produces a kept sample cannot loop forever.
 */
export function stopReason(
  samples: readonly number[],
  elapsedMs: number,
  opts: StoppingOptions,
): StopReason | undefined {
  const n = samples.length
  if (n > 0 ? elapsedMs >= opts.maxTimeMs : elapsedMs > opts.maxTimeMs) return 'max-time'
  if (n >= opts.maxIterations) return 'max-iterations'
  if (n < opts.minIterations || elapsedMs < leastTimingMs(samples, elapsedMs, opts)) return undefined

  const cvs = prefixCvs(samples, NOISE_STABLE_WINDOW)
  if (cvs[cvs.length - 1]! < opts.targetCv) return 'target-cv'

  // minIterations is already met here, so this makes the threshold max(minIterations, 20).
  if (n < NOISE_STABLE_MIN_SAMPLES) return undefined
  const lo = Math.min(...cvs)
  const hi = Math.max(...cvs)
  const mean = cvs.reduce((sum, cv) => sum + cv, 0) / cvs.length
  // hi === lo covers a CV that is exactly constant (even 0), where the ratio would be 0/0.
  return hi === lo || (hi - lo) / mean < NOISE_STABLE_SPREAD ? 'noise-stable' : undefined
}

/** The least time to spend timing: minTimeMs, or longKernelMinTimeMs for a long kernel. */
export function leastTimingMs(samples: readonly number[], elapsedMs: number, opts: StoppingOptions): number {
  // Past longKernelMinTimeMs the median no longer matters: skip sorting the samples.
  if (elapsedMs >= opts.longKernelMinTimeMs) return opts.minTimeMs
  // No samples yet (the first batch was audited, or throttled): no length to go by.
  const long = samples.length > 0 && summarize(samples).median >= LONG_KERNEL_MS
  return long ? Math.max(opts.minTimeMs, opts.longKernelMinTimeMs) : opts.minTimeMs
}

/**
 * CVs of the prefixes ending at each of the last `window` samples (fewer when there are fewer samples),
 * oldest first, so the last entry is the CV of all samples. One Welford pass: O(n) per call, and
 * numerically stable when the spread is tiny next to the mean.
 */
function prefixCvs(samples: readonly number[], window: number): number[] {
  const cvs: number[] = []
  let mean = 0
  let m2 = 0
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]!
    const count = i + 1
    const delta = x - mean
    mean += delta / count
    m2 += delta * (x - mean)
    if (count > samples.length - window) {
      const stdev = count > 1 ? Math.sqrt(m2 / (count - 1)) : 0
      cvs.push(mean === 0 ? 0 : stdev / mean)
    }
  }
  return cvs
}
