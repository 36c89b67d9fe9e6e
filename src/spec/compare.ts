// The plugin's `compare` option: paired A/B runs of each solution against its base version (docs/ci-gate.md, "Paired
// A/B"), resolved with its defaults and checked once, when the config loads.

/** What the plugin's `compare` option may set. */
export interface CompareOptions {
  /**
   * A git ref (`origin/main`, a tag, a commit): every bench's solution is also built as it was at that ref and timed
   * against the current one, interleaved on the same GPU. KERNELBENCH_COMPARE_REF overrides it. A bench's own
   * `compareWith` (a second solution file) takes precedence.
   */
  ref?: string
  /** A change of speed within ±tolerance is 'unchanged'; a regression is an interval wholly slower (default 0.01). */
  tolerance?: number
  /** The confidence of the interval of the change (default 0.95). */
  confidence?: number
  /**
   * How long each side's round of timed calls lasts, about (ms, default 5): a block of two rounds a side runs them in
   * the order first-second, second-first, each side moving its buffers before its first round (kernels of 50 µs or
   * more: one round a side, first-second).
   */
  roundMs?: number
  /**
   * A case stops once its blocks' half-width is at most tolerance / 2 with a verdict other than inconclusive (a kernel
   * under 20 µs: whatever the verdict), or at most tolerance / 4, or after this long (ms, default 3000).
   */
  maxTimeMs?: number
  /**
   * What two processes of the same code differ by that moving the buffers does not reach, for a kernel of 1 µs, as a
   * standard deviation of the change (default 0.013): for a kernel of t µs it is processSpread / √t, added to the
   * interval (0.41% at 10 µs, 0.13% at 100 µs).
   */
  processSpread?: number
  /**
   * On how many pairs of device hosts (a base process and a head process each) a case is timed, its blocks rotating
   * over them (default 1, at most 4): what one process differs by stays for its life, and several pairs average it and
   * show it in the interval; one pair relies on a change being confirmed on a fresh pair before it fails. Each pair
   * costs two more host starts per solution and its own opening of every case.
   */
  processPairs?: number
}

export type CompareSettings = Required<Omit<CompareOptions, 'ref'>> & Pick<CompareOptions, 'ref'>

/**
 * Tolerance 1% with a process spread of 1.3% at 1 µs: in two runs of the example suite against itself on H100s
 * (docs/measurements.md#what-two-processes-differ-by), the change's spread beyond its blocks' error was 0.69% for
 * kernels under 10 µs, 0.44% at 10–20 µs, 0.38% at 20–50 µs, 0.12% at 50–200 µs and 0.07% beyond, about 1.3–1.6% / √t;
 * without it, a 1% tolerance raised two false alarms (a 13 µs gemv, a 3.8 µs rms-norm), with it none.
 */
export const DEFAULT_COMPARE: CompareSettings = { tolerance: 0.01, confidence: 0.95, roundMs: 5, maxTimeMs: 3000, processSpread: 0.013, processPairs: 1 }

/**
 * The timing mode of paired rounds, whatever the bench's: the one measured in paired runs. With blocks, `events` mode
 * kept no round in the GPU test (tests/gpu/paired.test.ts, 2026-11-26), not yet understood.
 */
export const PAIRED_TIMING = 'cupti' as const

/**
 * The fewest blocks of rounds before the interval is looked at: each block has both sides' buffers at a new place, and
 * the interval is Student's t over the blocks' spread within the pairs (at 6 blocks, 5 degrees of freedom on one pair,
 * t = 2.57 at 95%; 4 on two pairs, t = 2.78). Most cases of 50 µs or more stop at the fewest blocks with half-widths
 * far inside tolerance / 4. Replayed on the blocks of five runs of the example suite against itself (H100s, 2026-11-27
 * and 28), 6 instead of 8 took 0.88–0.93× the blocks (0.77–0.83× from 200 µs up) and caught as many case-trials made 2%
 * and 5.3% slower; the replay has no fresh pair to confirm a change, and read 20 false ones in 10,650 case-trials where
 * 8 blocks read 16.
 */
export const MIN_PAIRED_BLOCKS = 6

/** The most pairs of processes a case may rotate over: each holds the case's buffers on both sides at once. */
export const MAX_PROCESS_PAIRS = 4

/** The numeric options an environment variable overrides: a CI job tries another value without editing the config. */
const NUMBERS_FROM_ENV = [
  ['KERNELBENCH_COMPARE_TOLERANCE', 'tolerance'],
  ['KERNELBENCH_COMPARE_ROUND_MS', 'roundMs'],
  ['KERNELBENCH_COMPARE_PAIRS', 'processPairs'],
] as const

/**
 * The options with their defaults; KERNELBENCH_COMPARE_REF, KERNELBENCH_COMPARE_TOLERANCE,
 * KERNELBENCH_COMPARE_ROUND_MS and KERNELBENCH_COMPARE_PAIRS (when set and not empty) override `ref`, `tolerance`,
 * `roundMs` and `processPairs`. Throws naming a bad option.
 */
export function resolveCompareSettings(options: CompareOptions = {}, env: Record<string, string | undefined> = {}): CompareSettings {
  const known = new Set(['ref', ...Object.keys(DEFAULT_COMPARE)])
  for (const key of Object.keys(options)) if (!known.has(key)) throw new Error(`unknown compare option '${key}'`)
  const settings: CompareSettings = { ...DEFAULT_COMPARE, ...options }
  const fromEnv = env.KERNELBENCH_COMPARE_REF?.trim()
  if (fromEnv) settings.ref = fromEnv
  for (const [name, key] of NUMBERS_FROM_ENV) {
    const value = env[name]?.trim()
    if (value) settings[key] = Number(value)
  }
  if (settings.ref !== undefined && (typeof settings.ref !== 'string' || settings.ref.trim() === '' || settings.ref.startsWith('-'))) {
    throw new Error(`compare option ref must be a git ref such as 'origin/main' (got ${JSON.stringify(settings.ref)})`)
  }
  const check = (name: keyof typeof DEFAULT_COMPARE, ok: (x: number) => boolean, what: string) => {
    const value = settings[name]
    if (typeof value !== 'number' || !ok(value)) throw new Error(`compare option ${name} must be ${what} (got ${JSON.stringify(value)})`)
  }
  check('tolerance', (x) => x >= 0 && x < 1, 'a fraction in [0, 1)')
  check('confidence', (x) => x > 0 && x < 1, 'a fraction in (0, 1)')
  check('roundMs', (x) => x > 0 && Number.isFinite(x), 'a positive number of ms')
  check('maxTimeMs', (x) => x > 0 && Number.isFinite(x), 'a positive number of ms')
  check('processSpread', (x) => x >= 0 && x < 1, 'a fraction in [0, 1)')
  check('processPairs', (x) => Number.isInteger(x) && x >= 1 && x <= MAX_PROCESS_PAIRS, `a whole number from 1 to ${MAX_PROCESS_PAIRS}`)
  return settings
}
