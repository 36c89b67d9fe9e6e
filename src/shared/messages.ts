// Messages between a Vitest worker and its device host (the child process that owns the GPU). Plain data only:
// the worker turns problems and specs into these plans, so the device host never imports user code.
import type { Dtype } from '../spec/dtype.js'
import type { MeasureOptions, TimingMode } from '../spec/options.js'
import type { Tolerance } from '../spec/problem.js'
import type { InputStructure, ScalarCType } from '../spec/signature.js'
import type { CaseCountersOutcome } from './counters.js'
import type { PhaseTimes } from './phases.js'
import type { StopReason } from './stopping.js'

/** An input drawn as a square matrix of `side` × `side` elements with a structure (see InputStructure). */
export interface SquareInput {
  structure: InputStructure
  side: number
}

/**
 * A number, or a bigint as its decimal digits (a uint64_t beyond 2^53): a bigint does not cross the JSON channel to
 * the device host, which turns the digits back into a bigint.
 */
export type PlanInteger = number | string

export type ArgPlan =
  | { kind: 'input'; name: string; dtype: Dtype; count: number; range: readonly [PlanInteger, PlanInteger]; square?: SquareInput }
  | { kind: 'output'; name: string; dtype: Dtype; count: number; initial?: 'zero' }
  | { kind: 'scalar'; ctype: ScalarCType; value: PlanInteger }
  | { kind: 'array'; name: string; ctype: 'size_t' | 'int'; memory: 'device' | 'host'; values: number[] }

/** A function in a compiled library, with the koffi parameter types derived from the signature. */
export interface CallTarget {
  library: string
  /** The source it was compiled from, for messages (the library is named by a hash in the cache). */
  source?: string
  entry: string
  params: string[]
}

/** A TypeScript solution module (src/engine/host/ts-solution.ts), imported and set up by the device host itself. */
export interface ModuleTarget {
  module: string
}

export type ReferencePlan =
  /** `decode`: the problem's decode function (DecodeSpec), compiled from the reference's file. */
  | { kind: 'library'; target: CallTarget; decode?: CallTarget }
  | { kind: 'gemm'; dtype: Dtype }
  /** Nothing to verify against: the harness's calibration kernels, timed with skipVerification (engine/calibration.ts). */
  | { kind: 'none' }

/** A case's decoded comparison (DecodeSpec): the function and the buffer each side's outputs decode into. */
export interface DecodePlan {
  target: CallTarget
  name: string
  dtype: Dtype
  count: number
}

export interface CasePlan {
  benchName: string
  caseName: string
  /** Seeds the inputs: the same case always gets the same data. */
  seed: number
  args: ArgPlan[]
  tolerance: Tolerance
  solution: CallTarget | ModuleTarget
  reference: ReferencePlan
  /** Outputs compared by what they decode to instead of element by element. */
  decode?: DecodePlan
  /** 'verify' checks the answer only (vitest run); 'bench' checks it and then times it (vitest bench). */
  mode: 'verify' | 'bench'
  options: MeasureOptions
}

export interface TimingResult {
  /** Runtimes (ms) of the kept samples, in the order they were taken. */
  samplesMs: number[]
  droppedThrottled: number
  /** Samples dropped because foreign GPU work or a host stall was detected inside their timed window. */
  droppedInterference: number
  /** Mean SM clock of the kept samples (NaN when NVML is unavailable). */
  meanSmClockMHz: number
  maxSmClockMHz: number
  stopReason: StopReason
  /** Wall time of the timing loop. */
  wallMs: number
  /** Solution calls behind one sample (graph mode batches them; each sample is already per call). */
  callsPerSample: number
  /** Timed calls whose outputs were verified against the reference after their batch (picked at random, in batches drawn at random). */
  checkedCalls: number
  /** Set when spin padding was abandoned for this case: why, and that matmul padding was used instead. */
  paddingFallback?: string
  /** The events-mode stream audit: 'batches at random', 'off', or 'unavailable: <why>' (docs/protocol.md, step 6e). */
  streamAudit?: string
  /** Calls audited for escaped work, in batches drawn at random whose samples are not used. */
  auditedCalls?: number
  /** How many places in memory the case's buffers were timed at (docs/protocol.md, "Places"); absent in older results. */
  places?: number
  /**
   * The share of the samples' time that was the host's or the bus's rather than the board's (0 where none): in `cupti`
   * timing the calls' copies to or from the host or another GPU; in `events` timing, of the calls the stream audit
   * traced, those copies and the gaps inside a call in which the GPU waited for the host. Absent in the other modes,
   * and in `events` timing without the stream audit.
   */
  hostShare?: number
}

export interface VerifiedOutput {
  /** The output parameter's name in the signature, or the decoded buffer's (DecodePlan). */
  name: string
  elements: number
  comparison: Comparison
}

/**
 * A request the device host could not answer: a fault, a timeout, a crash, a refusal. `contextLost`: the CUDA context
 * was poisoned. `hostExits`: the device host exits after this answer (its context is lost, or a solution changed
 * what it measures in).
 */
export type ErrorOutcome = { status: 'error'; errorName: string; message: string; contextLost?: boolean; hostExits?: boolean }

export type CaseOutcome =
  /** `counters`: with the `counters` option, a timed case's counters or why they are missing (protocol step 12a). */
  | { status: 'ok'; outputs: VerifiedOutput[]; timing?: TimingResult; verificationSkipped: boolean; counters?: CaseCountersOutcome }
  | { status: 'wrong'; message: string; outputs: VerifiedOutput[] }
  | ErrorOutcome

/** The dtypes a GEMM ceiling is measured for: the ones problems are judged against (report/metrics.ts peakKey). */
export type CeilingDtype = 'float32' | 'float16' | 'bfloat16'

/** How a ceiling was timed: `warmup` untimed calls, then `repetitions` calls each between CUDA events. */
export interface CeilingTiming {
  /** The fastest repetition, ms: a ceiling is the best the GPU achieves. */
  bestMs: number
  medianMs: number
  repetitions: number
  warmup: number
  /** SM clock read while the repetitions ran (NaN when NVML is unavailable). */
  smClockMHz: number
}

export interface GemmCeiling extends CeilingTiming {
  dtype: CeilingDtype
  /** Edge of the square product (m = n = k). */
  size: number
  /** The cuBLAS call and math mode, e.g. 'cublasSgemm, pedantic math (no TF32)'. */
  call: string
  /** 2·size³ / bestMs. */
  tflops: number
}

export interface CopyCeiling extends CeilingTiming {
  /** Size of the copied buffer. */
  bytes: number
  /** 2·bytes (each byte read and written) / bestMs, in GB/s (1e9 bytes/s). */
  gbPerSecond: number
}

/** The GPU and software a record cached per GPU was measured on. */
export type MeasuredOn = Pick<DeviceReport, 'name' | 'pciBusId' | 'computeCapability' | 'driverRelease' | 'driverVersion' | 'runtimeVersion'>

/** What every record cached per GPU and driver has (src/cache/gpu-cache.ts). */
export interface GpuRecord {
  /** Shape version of this record; a cache file of another version is measured again. */
  version: number
  /** When it was measured (ISO 8601). */
  measuredAt: string
  /** The GPU and software it was measured on. */
  gpu: MeasuredOn
}

/** Measured ceilings of one GPU (src/engine/host/ceilings.ts): the practical peaks, cached per GPU by the worker. */
export interface MeasuredCeilings extends GpuRecord {
  version: 1
  maxSmClockMHz: number
  gemm: GemmCeiling[]
  copy?: CopyCeiling
  /** What could not be measured, and why (e.g. a dtype cuBLAS does not support on this GPU). */
  unavailable: string[]
}

/** The answer to a request to measure a record cached per GPU. */
export type RecordOutcome<T extends GpuRecord> = { status: 'ok'; record: T } | ErrorOutcome

export type CeilingsOutcome = RecordOutcome<MeasuredCeilings>

/** A harness kernel that a calibration times (src/engine/host/calibration.ts). */
export type CalibrationKernel =
  /** Holds the GPU for `heldMs` on its global timer: its true duration is known. */
  | { kind: 'held'; name: string; heldMs: number }
  /** c = a + b over `floats` floats: memory-bound; its reference duration is the profiler's (and ncu's). */
  | { kind: 'memory'; name: string; floats: number }

/** The timers a calibration compares: the timing modes, and Nsight Compute on the same kernels (the CLI only). */
export type CalibrationTimer = TimingMode | 'ncu'

/** What one timer read for one calibration kernel: statistics of its kept samples (ncu: of its profiled launches). */
export interface CalibrationReading {
  /** The kernel's name in Calibration.kernels. */
  kernel: string
  medianMs: number
  cv: number
  samples: number
}

export interface TimerCalibration {
  timer: CalibrationTimer
  /** One reading per kernel, in the order of Calibration.kernels; empty when the timer could not run. */
  readings: CalibrationReading[]
  /** Why the timer could not run here (e.g. no access to the performance counters for 'profiler'). */
  unavailable?: string
}

/** What each timer reads on harness kernels of known or reference duration, on one GPU: cached per GPU by the worker. */
export interface Calibration extends GpuRecord {
  version: 1
  maxSmClockMHz: number
  /** The smallest change of %globaltimer between two reads, ns: the held kernels end within this of their time (0: unknown). */
  globalTimerStepNs: number
  kernels: CalibrationKernel[]
  timers: TimerCalibration[]
}

export type CalibrationOutcome = RecordOutcome<Calibration>

/** The board probe's median time (src/engine/host/board-probe.ts); none when the SM clock was throttled while it ran. */
export type BoardProbeOutcome = { status: 'ok'; ms?: number } | ErrorOutcome

export type HostRequest =
  | { type: 'run'; id: number; plan: CasePlan }
  /** Measure the ceilings; `options` gives the global warmup that precedes them. */
  | { type: 'ceilings'; id: number; options: MeasureOptions }
  /** Time the calibration kernels in every timing mode (the default protocol, warmup included). */
  | { type: 'calibrate'; id: number }
  /** Time the board probe, which tells boards of one model apart by kind. */
  | { type: 'board-probe'; id: number }
  /**
   * A paired A/B case (docs/ci-gate.md), one side per host process: 'pair-start' runs the protocol up to the priming
   * batch and keeps the case open, its buffers at `place`; each 'pair-rounds' times `rounds` rounds of `count` calls,
   * after moving the buffers to `place` when given (so that each block of rounds finds them at another place in
   * memory); 'pair-end' closes it. `verify`: whether 'pair-start' runs the verified call of step 4 (on the first pair
   * of processes only; see OpeningSteps in src/engine/host/start-case.ts), and whether 'pair-end' runs that of step 12
   * (on the first pair only).
   */
  | { type: 'pair-start'; id: number; plan: CasePlan; place: PairPlace; verify: boolean }
  | { type: 'pair-rounds'; id: number; rounds: number; count: number; place?: PairPlace }
  | { type: 'pair-end'; id: number; stopReason: StopReason; verify: boolean }

/**
 * Where a paired side's buffers go: allocated afresh behind a spacer of `spacerBytes`, or the timed calls' buffers at
 * `offsetBytes` into `region`, memory the region host allocated on the GPU and both sides of a pair open (a CUDA IPC
 * handle, in hex), so that both time at the same place (docs/ci-gate.md, "Shared places").
 */
export type PairPlace = { spacerBytes: number } | { region: string; offsetBytes: number }

/**
 * The requests of the region host (src/engine/host/region-host.ts), which owns the memory both sides of a pair of
 * paired processes share: a region of `bytes` allocated, or the region of `handle` freed.
 */
export type RegionRequest = { type: 'region-alloc'; id: number; bytes: number } | { type: 'region-free'; id: number; handle: string }

/** Its answer: the region's CUDA IPC handle (hex) for an allocation, nothing for a free, or why it could not. */
export type RegionReply = { id: number; handle?: string; error?: string }

/**
 * Opens the session of a host started on standby (client.ts): until then it has loaded its code but made no CUDA
 * context. `warm`: the GPU was busy a moment ago, so the session skips the global warmup.
 */
export interface HostOpen {
  type: 'open'
  warm: boolean
}

/** What the worker learns about the GPU when its device host starts. */
export interface DeviceReport extends DeviceInfo {
  /** SM clock when the host started, from NVML (NaN when unavailable). */
  startSmClockMHz: number
  /** NVIDIA driver release, e.g. '580.159.04' (from NVML). */
  driverRelease?: string
  /** Why NVML could not be used (clocks then unknown and no throttle filtering). */
  nvmlError?: string
}

/** A GPU of the machine, as the device host lists them all when it starts (for the run's choice of GPUs). */
export interface GpuListing {
  index: number
  name: string
  /** The board's UUID (DeviceInfo.uuid). */
  uuid: string
  pciBusId: string
}

/**
 * Which GPU ran a case (results files from before 2026-11-28 name no board), and its board probe's time where the run
 * measured it (src/engine/host/board-probe.ts): boards of one model whose probes agree are of one kind.
 */
export type GpuRef = Pick<GpuListing, 'index' | 'pciBusId'> & Partial<Pick<GpuListing, 'uuid'>> & { boardProbeMs?: number }

export type HostMessage =
  /** `openWaitMs`: how long opening the session waited for the GPU lock (another process working on the GPU). */
  | { type: 'ready'; device: DeviceReport; arch: string; gpus: GpuListing[]; openWaitMs: number }
  | { type: 'init-failed'; reason: string; noGpu: boolean }
  /** The host has waited a while for the GPU's lock, held by process `owner` (told once per wait). */
  | { type: 'waiting'; owner: number }
  | Reply<'result', CaseOutcome>
  | Reply<'ceilings', CeilingsOutcome>
  | Reply<'calibration', CalibrationOutcome>
  | Reply<'board-probe', BoardProbeOutcome>
  | Reply<'pair-started', PairStartOutcome>
  | Reply<'pair-rounds', PairRoundsOutcome>

/** A paired side opened (verified, warmed up, its timer primed), or why not. */
export type PairStartOutcome = { status: 'ok' } | { status: 'wrong'; message: string; outputs: VerifiedOutput[] } | ErrorOutcome

/**
 * One round of a paired side: its kept samples (ms per call; none when the round's clock was throttled), the SM clock
 * read while it ran, and its wall time without the output checks.
 */
export interface PairRound {
  samplesMs: number[]
  smClockMHz: number
  interference: number
  wallMs: number
}

/** The rounds of one 'pair-rounds' request, in order, or why the side ended (a wrong answer at a new place or in a round). */
export type PairRoundsOutcome = { status: 'ok'; rounds: PairRound[] } | { status: 'wrong'; message: string; outputs: VerifiedOutput[] } | ErrorOutcome

/** The host's answer to request `id`, with where the host's time went while it worked on it. */
type Reply<Type extends string, Outcome> = { type: Type; id: number; outcome: Outcome; phases?: PhaseTimes }

/** How the worker starts a device host (or the calibration launcher) on one GPU. */
export interface HostConfig {
  device: number
  cacheDir: string
  nvcc?: string
  /** Overrides the architecture derived from the device, e.g. 'sm_90'. */
  arch?: string
  /** At most this many nvcc processes at once on this host (see resolveCompileJobs). */
  compileJobs?: number
  /** Sanitize mode: the compute-sanitizer executable the host runs under (see src/engine/worker/client.ts). */
  sanitizer?: string
}

/** One GPU as the CUDA runtime describes it. */
export interface DeviceInfo {
  index: number
  name: string
  /**
   * The board's UUID, as nvidia-smi prints it ('GPU-5108da83-e7f5-1223-0143-53f8def875ed'): which board, where the
   * name says which model.
   */
  uuid: string
  pciBusId: string
  computeCapability: string // e.g. '9.0'
  multiProcessors: number
  l2CacheBytes: number
  totalMemoryBytes: number
  maxSmClockMHz: number
  memoryClockMHz: number
  memoryBusWidthBits: number
  runtimeVersion: string // e.g. '13.0'
  driverVersion: string // highest CUDA version the driver supports, e.g. '13.0'
}

/** How a kernel's output compared with the reference's (the harness's compare kernel). */
export interface Comparison {
  badCount: number
  nanCount: number
  /** Index of the first element out of tolerance, or undefined when all are within it. */
  firstBad?: number
  maxAbsError: number
  /** The two values at firstBad: a uint64's as its exact decimal digits. */
  expectedAtFirstBad?: number | string
  gotAtFirstBad?: number | string
}
