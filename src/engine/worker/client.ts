// The worker's side of the device host: starts it, sends it cases (and once each a request to measure the GPU's
// ceilings and its calibration), and replaces it when it dies (a CUDA fault, a crash in a solution's host code) or
// hangs (killed after the case timeout). One host per worker and GPU at a time, and one host process per solution:
// a case of another solution library goes to a fresh process, so nothing a solution did to its process or its CUDA
// context (state changed when its library loaded, limits, memory or work left behind, patched code) is there when
// another solution runs.
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { TIMING_MODES, type MeasureOptions } from '../../spec/options.js'
import type {
  BoardProbeOutcome,
  CalibrationOutcome,
  CaseOutcome,
  CasePlan,
  CeilingsOutcome,
  DeviceReport,
  ErrorOutcome,
  GpuListing,
  HostConfig,
  HostMessage,
  HostOpen,
  HostRequest,
  PairRoundsOutcome,
  PairPlace,
  PairStartOutcome,
} from '../../shared/messages.js'
import type { StopReason } from '../../shared/stopping.js'
import { sumPhases, type PhaseTimes } from '../../shared/phases.js'
import { describePid } from '../../shared/process-command.js'
import { GPU_STILL_WARM_MS } from '../../cache/gpu-lock.js'
import { registerHost } from './host-registry.js'
import { engineProcess } from './process-entry.js'
import { readProcessState, restoreProcessState } from './process-state.js'
import { firstSanitizerError } from './sanitizer.js'

export type HostStatus =
  | { available: true; device: DeviceReport; arch: string; gpus: GpuListing[]; openWaitMs: number }
  | { available: false; reason: string; noGpu: boolean }

/** The answer to a request: a case's outcome, the measured ceilings, the calibration, the board probe, or a paired side's step. */
type Outcome = CaseOutcome | CeilingsOutcome | CalibrationOutcome | BoardProbeOutcome | PairStartOutcome | PairRoundsOutcome

interface Pending {
  id: number
  type: HostRequest['type']
  /** What the host is doing, for messages: "case 'n = 2^20'". */
  task: string
  /** The host the request was sent to: only its death fails the request. */
  child: ChildProcess
  resolve: (outcome: Outcome, phases: PhaseTimes) => void
  timer: NodeJS.Timeout
}

/** A case's outcome, and where its time went: in the host, and in this worker starting the host. */
export interface CaseRun {
  outcome: CaseOutcome
  phases: PhaseTimes
}

/** A host process and what it said when it started. */
interface Spawned {
  child: ChildProcess
  status: Promise<HostStatus>
}

/**
 * A retired host exits as soon as nobody times on the GPU (a set-up of its lock); one that has not after this long is
 * killed, and one that a kill has not ended after as long again is left behind (the next host's first case then names
 * it if it holds the lock).
 */
const RETIRE_GRACE_MS = 10_000

/** The worker's scheduling when it loaded this module: what every host it starts must inherit (process-state.ts). */
const workerState = readProcessState()
/** Set once a change of the worker's scheduling could not be put back: every later case is refused with it. */
let workerTainted: string | undefined

/**
 * The refusal of a case before or during which the worker's scheduling changed (put back where it can be), or of any
 * case once a change could not be put back; undefined while the worker is as it started.
 */
function workerStateRefusal(when: 'before' | 'during'): ErrorOutcome | undefined {
  const found = restoreProcessState(workerState)
  if (found && !found.restored) {
    workerTainted ??= `something changed this Vitest worker's scheduling (${found.change}) and it could not be put back`
  }
  const why = found
    ? `${when} this case, something changed this Vitest worker's scheduling: ${found.change} (a solution reaching its parent process, on this GPU or on another GPU of this worker); the device hosts the worker starts inherit it, so the case is refused${found.restored ? ' (the worker was put back as it was)' : ''}`
    : workerTainted && `${workerTainted}, and the device hosts it starts would inherit it: the case is refused; run again`
  return why ? { status: 'error', errorName: 'WorkerStateChanged', message: why } : undefined
}

/** Which solution a case calls: a host process serves one for its whole life. */
function solutionKey(plan: CasePlan): string {
  const target = plan.solution
  return 'module' in target ? `module ${target.module}` : `library ${target.library}`
}

export class DeviceHost {
  private child?: ChildProcess
  private status?: Promise<HostStatus>
  private pending?: Pending
  private nextId = 1
  /** When the last case ended (Date.now()), whatever its outcome. */
  private lastCaseEnd?: number
  /** Sanitize mode: the memcheck log of the current host, and how much of it earlier cases have used. */
  private sanitizerLog?: { file: string; read: number }
  private measuredCeilings?: Promise<CeilingsOutcome>
  private measuredCalibration?: Promise<CalibrationOutcome>
  /** The solution the current host process has loaded, once it ran a case. */
  private tenant?: string
  /**
   * The host process the next solution will run in, started while the current one works, so that a new solution
   * does not wait for Node and the harness's code to load. It waits on standby, without a CUDA context, until it is
   * opened: a worker never has more than one context on the GPU.
   */
  private spare?: Spawned
  /** The GPU lock's holder each host process last said it waited for (its 'waiting' message). */
  private readonly lockWaits = new WeakMap<ChildProcess, number>()
  /** The host process that opened the current paired side (pairStart), while it is open. */
  private pairedChild?: ChildProcess
  /** The end of the request before: requests run one at a time (see exclusive). */
  private turn: Promise<unknown> = Promise.resolve()

  /** `entry`: the host's module and Node's arguments for it (the device host; tests give a stand-in of their own). */
  constructor(
    readonly config: HostConfig,
    private readonly entry: { file: string; execArgv: string[] } = engineProcess('host'),
  ) {}

  /**
   * Runs `work` once every request sent before it has been answered. A host serves one request at a time, and the
   * answer is matched to the one pending request: two at once would leave the first unanswered for ever.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work)
    this.turn = result.catch(() => undefined)
    return result
  }

  /** Starts the host if needed (or takes the spare) and says whether a GPU is usable, and which. */
  ready(): Promise<HostStatus> {
    if (!this.status) {
      const spare = this.spare
      this.spare = undefined
      const standing = spare && spare.child.connected ? spare : undefined
      if (standing) standing.child.send({ type: 'open', warm: this.gpuWarm() } satisfies HostOpen)
      const { child, status } = standing ?? this.spawn(this.gpuWarm() ? 'warm' : 'cold')
      this.child = child
      this.status = status
    }
    return this.status
  }

  /** Starts the spare host once the current one is up (not in sanitize mode, where each host is a slow start). */
  private prepareSpare(): void {
    if (this.spare || this.config.sanitizer || !this.status) return
    void this.status.then((status) => {
      if (status.available && !this.spare) this.spare = this.spawn('standby')
    })
  }

  /**
   * Whether a case of this worker ended on the GPU a moment ago: its next host skips the global warmup, also when
   * the last one died holding the GPU's lock (which leaves no stamp of the GPU's work, see gpu-lock.ts).
   */
  private gpuWarm(): boolean {
    return this.lastCaseEnd !== undefined && Date.now() - this.lastCaseEnd < GPU_STILL_WARM_MS
  }

  /** `launch`: skip the global warmup (warm), run it (cold), or wait to be opened (standby). */
  private spawn(launch: 'warm' | 'cold' | 'standby'): Spawned {
    const { file, execArgv } = this.entry
    const child = fork(file, [JSON.stringify(this.config), launch], {
      ...this.launcher(execArgv),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    registerHost(child)
    const status = new Promise<HostStatus>((resolve) => {
      child.on('message', (message: HostMessage) => {
        if (message.type === 'waiting') this.lockWaits.set(child, message.owner)
        else if (message.type === 'ready') {
          resolve({ available: true, device: message.device, arch: message.arch, gpus: message.gpus, openWaitMs: message.openWaitMs })
        } else if (message.type === 'init-failed') resolve({ available: false, reason: message.reason, noGpu: message.noGpu })
        else if (this.pending?.id === message.id) {
          // A host that lost its context, or whose solution changed its state, exits right after this message: the
          // next case must not be sent to it.
          if (message.outcome.status === 'error' && message.outcome.hostExits) this.detach(child)
          this.settle(message.outcome, message.phases)
        }
      })
      child.on('exit', (code, signal) => {
        this.detach(child)
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
        resolve({ available: false, reason: `the device host ${how} while starting`, noGpu: false })
        if (this.pending?.child === child) {
          this.settle({
            status: 'error',
            errorName: 'DeviceHostDied',
            message:
              `the process that owns the GPU ${how} during ${this.pending.task}` +
              (this.pending.type === 'run' && (signal === 'SIGSEGV' || signal === 'SIGBUS' || signal === 'SIGABRT')
                ? ' (a crash in the solution\'s host code?)'
                : '') +
              '; a fresh one runs the next case',
          })
        }
      })
    })
    return { child, status }
  }

  /** Node itself, or in sanitize mode node under compute-sanitizer's memcheck with a log file of its own. */
  private launcher(execArgv: string[]): { execArgv: string[]; execPath?: string } {
    const sanitizer = this.config.sanitizer
    if (!sanitizer) return { execArgv }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kb-memcheck-')), 'memcheck.log')
    this.sanitizerLog = { file, read: 0 }
    return {
      execPath: sanitizer,
      execArgv: ['--tool', 'memcheck', '--log-file', file, '--print-limit', '20', process.execPath, ...execArgv],
    }
  }

  /** In sanitize mode, the first bad access memcheck saw during the case fails it, whatever else happened. */
  private withSanitizerReport(outcome: Outcome): Outcome {
    const log = this.sanitizerLog
    if (!log || !fs.existsSync(log.file)) return outcome
    const text = fs.readFileSync(log.file, 'utf8')
    const error = firstSanitizerError(text.slice(log.read))
    log.read = text.length
    if (!error) return outcome
    return { status: 'error', errorName: 'ComputeSanitizer', message: `compute-sanitizer memcheck found:\n${error}` }
  }

  private settle(outcome: Outcome, phases: PhaseTimes = {}): void {
    const pending = this.pending
    if (!pending) return
    this.pending = undefined
    this.lastCaseEnd = Date.now()
    clearTimeout(pending.timer)
    pending.resolve(this.withSanitizerReport(outcome), phases)
  }

  /** Whether the current host process serves this case's solution, so that the case needs no new host. */
  serves(plan: CasePlan): boolean {
    return this.child !== undefined && this.tenant === solutionKey(plan)
  }

  /**
   * Runs one case, in a fresh host process if the current one has run another solution; never rejects: faults,
   * crashes and timeouts come back as error outcomes.
   */
  run(plan: CasePlan): Promise<CaseRun> {
    return this.exclusive(() => this.sendToTenant<CaseOutcome>(plan, (id) => ({ type: 'run', id, plan }), `case '${plan.caseName}'`))
  }

  /**
   * Opens this host's side of a paired A/B case (src/engine/host/paired-side.ts) in a host serving the plan's
   * solution, as run() does, with the verified call of protocol step 4 when `verify`; pairRounds() and pairEnd()
   * follow. Never rejects.
   */
  pairStart(plan: CasePlan, place: PairPlace, verify: boolean): Promise<{ outcome: PairStartOutcome | ErrorOutcome; phases: PhaseTimes }> {
    return this.exclusive(async () => {
      const request = (id: number): HostRequest => ({ type: 'pair-start', id, plan, place, verify })
      const started = await this.sendToTenant<PairStartOutcome>(plan, request, `case '${plan.caseName}' (opening its paired side)`)
      this.pairedChild = started.outcome.status === 'ok' ? this.child : undefined
      return started
    })
  }

  /**
   * Rounds of `count` timed calls on the open paired side, after moving its buffers to `place` (and priming them
   * again) when given, with where the host's time went. Never rejects.
   */
  pairRounds(step: { rounds: number; count: number; place?: PairPlace }, plan: CasePlan): Promise<{ outcome: PairRoundsOutcome; phases: PhaseTimes }> {
    return this.exclusive(async () => {
      const lost = this.pairLost(plan)
      if (lost) return { outcome: lost, phases: {} }
      const task = step.place === undefined ? `rounds of case '${plan.caseName}'` : `case '${plan.caseName}' (moving its buffers, then rounds)`
      const answered = await this.request<PairRoundsOutcome>((id) => ({ type: 'pair-rounds', id, ...step }), task, plan.options.caseTimeoutMs)
      if (answered.outcome.status !== 'ok') this.pairedChild = undefined
      return answered
    })
  }

  /**
   * Ends the open paired side: the timer off, verified once more when `verify` (protocol step 12); its outcome with all
   * its kept samples. Never rejects.
   */
  pairEnd(stopReason: StopReason, plan: CasePlan, verify: boolean): Promise<CaseRun> {
    return this.exclusive(async () => {
      const lost = this.pairLost(plan)
      this.pairedChild = undefined
      if (lost) return { outcome: lost, phases: {} }
      return this.request<CaseOutcome>((id) => ({ type: 'pair-end', id, stopReason, verify }), `the end of case '${plan.caseName}'`, plan.options.caseTimeoutMs)
    })
  }

  /** The error a paired request answers when the host that opened the side is gone (it died, or timed out). */
  private pairLost(plan: CasePlan): ErrorOutcome | undefined {
    if (this.pairedChild && this.pairedChild === this.child) return undefined
    return { status: 'error', errorName: 'DeviceHostDied', message: `the device host of case '${plan.caseName}' ended while its paired side was open` }
  }

  /**
   * Has a host serve `plan`'s solution, as a request about its case would (the current one ended if it served another,
   * a fresh one started), without sending anything: the hosts of a paired case start side by side before it opens on
   * them one at a time (their CUDA contexts are made at once, as the GPU's lock allows, see gpu-lock.ts). What the start
   * took, counted to the case; a host that did not start says why when the case's first request comes. Never rejects.
   */
  prepare(plan: CasePlan): Promise<PhaseTimes> {
    return this.exclusive(async () => (await this.serveTenant(plan)).phases)
  }

  /**
   * As prepare(), but ends the current host even when it serves the plan's solution: a paired case confirms a change on
   * processes that have not timed it (paired-case.ts). The fresh one is the spare where it stands by. Never rejects.
   */
  renew(plan: CasePlan): Promise<PhaseTimes> {
    return this.exclusive(async () => (await this.serveTenant(plan, true)).phases)
  }

  /** Sends a request about `plan`'s case to a host serving its solution: a fresh one if the current one served another. */
  private async sendToTenant<T extends CaseOutcome | PairStartOutcome>(plan: CasePlan, request: (id: number) => HostRequest, task: string): Promise<{ outcome: T | ErrorOutcome; phases: PhaseTimes }> {
    const served = await this.serveTenant(plan)
    if (served.refusal) return { outcome: served.refusal, phases: served.phases }
    const answer = this.request<T>(request, task, plan.options.caseTimeoutMs)
    this.prepareSpare()
    const { outcome, phases } = await answer
    return { outcome: workerStateRefusal('during') ?? outcome, phases: sumPhases([phases, served.phases]) }
  }

  /**
   * A host serving `plan`'s solution, the current one or a fresh one: how long its start took (`hostStart`, and
   * `gpuWait` for the GPU's lock), or why there is none (`refusal`).
   */
  private async serveTenant(plan: CasePlan, renew = false): Promise<{ refusal?: ErrorOutcome; phases: PhaseTimes }> {
    const refused = workerStateRefusal('before')
    if (refused) return { refusal: refused, phases: {} }
    const starting = performance.now()
    const tenant = solutionKey(plan)
    // The old host tears its context down while the new one makes its own: both are set-ups of the GPU's lock, which
    // overlap each other and no one's timing (gpu-lock.ts). A teardown took 0.1-0.4 s on an H100 (2026-11-28); the
    // plain example suite's host starts came to 9.0-9.4 s overlapped, 11.1 s one after the other (other boards).
    const retiring = this.tenant !== undefined && (renew || this.tenant !== tenant) ? this.retire() : undefined
    const fresh = this.tenant === undefined
    this.tenant = tenant
    const status = await this.readyWithin(plan.options.caseTimeoutMs)
    await retiring
    if ('status' in status) return { refusal: status, phases: { hostStart: performance.now() - starting } }
    const started = performance.now() - starting
    // A fresh host's start includes its wait for the GPU lock while another process worked: that is waiting. (A
    // host opened before this case, by the pool's start, waited before it: none of that is this case's.)
    const gpuWait = fresh && status.available ? Math.min(status.openWaitMs, started) : 0
    return { phases: { hostStart: started - gpuWait, gpuWait } }
  }

  /**
   * Ends the current host process and waits for it to be gone: it tears its context down as a set-up of the GPU's lock
   * (host.ts), so nothing of it, work its solution left running included, overlaps anyone's timing, the next host's
   * cases included. The host is forgotten at once: ready() may start or open the next one meanwhile.
   */
  private async retire(): Promise<void> {
    const child = this.child
    if (!child) return
    this.detach(child)
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    const killer = setTimeout(() => child.kill('SIGKILL'), RETIRE_GRACE_MS)
    if (child.connected) child.disconnect()
    else child.kill()
    await Promise.race([exited, delay(2 * RETIRE_GRACE_MS)])
    clearTimeout(killer)
  }

  /**
   * ready(), bounded: a host that has not started within `limitMs` is killed, and the answer (an error outcome) says
   * what it was waiting for.
   */
  private async readyWithin(limitMs: number): Promise<HostStatus | ErrorOutcome> {
    const starting = this.ready()
    const child = this.child
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), limitMs)))
    const status = await Promise.race([starting, expired])
    clearTimeout(timer)
    if (status !== 'expired') return status
    const owner = child && this.lockWaits.get(child)
    if (child) {
      this.detach(child)
      child.kill('SIGKILL')
    }
    return {
      status: 'error',
      errorName: 'Timeout',
      message:
        `the device host of GPU ${this.config.device} did not start within ${(limitMs / 1000).toFixed(0)} s ` +
        (owner !== undefined
          ? `(it was waiting for the GPU's lock, held by process ${describePid(owner)})`
          : '(Node, the harness or the CUDA context did not come up)') +
        '; it was killed, and a fresh one runs the next case',
    }
  }

  /**
   * Measures the GPU's ceilings (src/engine/host/ceilings.ts) once for this host, however often asked: a failure is
   * not retried either. Never rejects. `options`: the global warmup before it, and the timeout.
   */
  ceilings(options: MeasureOptions): Promise<CeilingsOutcome> {
    this.measuredCeilings ??= this.exclusive(() =>
      this.send<CeilingsOutcome>((id) => ({ type: 'ceilings', id, options }), 'the ceiling measurement', options.caseTimeoutMs),
    )
    return this.measuredCeilings
  }

  /**
   * Times the calibration kernels in every timing mode (src/engine/host/calibration.ts) once for this host, however often
   * asked, like ceilings(). Never rejects. `caseTimeoutMs`: what each mode's cases may take together.
   */
  calibration(caseTimeoutMs: number): Promise<CalibrationOutcome> {
    this.measuredCalibration ??= this.exclusive(() =>
      this.send<CalibrationOutcome>((id) => ({ type: 'calibrate', id }), 'the calibration', caseTimeoutMs * TIMING_MODES.length),
    )
    return this.measuredCalibration
  }

  /**
   * Times the board probe (src/engine/host/board-probe.ts). Never rejects. `timeoutMs`: what it may take (well under a
   * second on the GPUs it was tried on).
   */
  boardProbe(timeoutMs: number): Promise<BoardProbeOutcome> {
    return this.exclusive(() => this.send<BoardProbeOutcome>((id) => ({ type: 'board-probe', id }), 'the board probe', timeoutMs))
  }

  /** Sends one request and waits for its answer, or for the host's death or the timeout (as error outcomes). */
  private async send<T extends Outcome>(request: (id: number) => HostRequest, task: string, timeoutMs: number): Promise<T | ErrorOutcome> {
    return (await this.request<T>(request, task, timeoutMs)).outcome
  }

  /** send(), with where the host's time went. */
  private async request<T extends Outcome>(
    request: (id: number) => HostRequest,
    task: string,
    timeoutMs: number,
  ): Promise<{ outcome: T | ErrorOutcome; phases: PhaseTimes }> {
    const status = await this.readyWithin(timeoutMs)
    if ('status' in status) return { outcome: status, phases: {} }
    if (!status.available) return { outcome: { status: 'error', errorName: 'NoGpu', message: status.reason }, phases: {} }
    const child = this.child
    if (!child) return this.request<T>(request, task, timeoutMs)
    this.lockWaits.delete(child)
    const id = this.nextId++
    const message = request(id)
    return new Promise((resolve) => {
      const sentAt = performance.now()
      const timer = setTimeout(() => {
        const elapsedS = ((performance.now() - sentAt) / 1000).toFixed(1)
        const owner = this.lockWaits.get(child)
        const cause =
          owner === undefined
            ? 'a kernel that never ends, or raise caseTimeoutMs'
            : `it waited for the GPU's lock, held by process ${describePid(owner)}`
        this.settle({
          status: 'error',
          errorName: 'Timeout',
          message: `${task} did not finish within ${(timeoutMs / 1000).toFixed(0)} s (stopped after ${elapsedS} s: ${cause}); the device host was killed and a fresh one runs the next case`,
        })
        this.detach(child)
        child.kill('SIGKILL')
      }, timeoutMs)
      // The host answers a request with the outcome of its own type (host.ts).
      this.pending = { id, type: message.type, task, child, resolve: (outcome, phases) => resolve({ outcome: outcome as T, phases }), timer }
      child.send(message)
    })
  }

  /** Forgets a host so the next case starts a fresh one, without waiting for the old one's exit. */
  private detach(child: ChildProcess): void {
    if (this.child !== child) return
    this.child = undefined
    this.status = undefined
    this.tenant = undefined
  }

  /** Ends the host processes; each tears its context down as a set-up of the GPU's lock (host.ts), as a retired one does. */
  close(): void {
    for (const child of [this.spare?.child, this.child]) {
      if (child?.connected) child.disconnect()
      else child?.kill()
    }
    this.spare = undefined
    if (this.child) this.detach(this.child)
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const HOSTS = Symbol.for('vitest-kernel-bench.device-hosts')
type Registry = Map<string, DeviceHost>

/**
 * The host for this worker and configuration, shared by every bench the worker runs. `role`: a further host of the GPU
 * for one side of a pair of processes of paired A/B cases (paired-case.ts; the head of pair 0 is the GPU's own host).
 */
export function deviceHost(config: HostConfig, role: 'solution' | { side: 'base' | 'head'; pair: number } = 'solution'): DeviceHost {
  const global = globalThis as typeof globalThis & { [HOSTS]?: Registry }
  let registry = global[HOSTS]
  if (!registry) {
    const created: Registry = new Map()
    registry = created
    global[HOSTS] = created
    process.once('exit', () => created.forEach((host) => host.close()))
  }
  const key = JSON.stringify([config, role])
  let host = registry.get(key)
  if (!host) {
    host = new DeviceHost(config)
    registry.set(key, host)
  }
  return host
}
