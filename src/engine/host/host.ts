// The device host: a child process of a Vitest worker that owns one GPU's CUDA context and runs cases on it (and
// measures the GPU's ceilings, its calibration and the board probe when asked).
// A fault poisons only this process; the worker reports it and starts a fresh one.
import * as cuda from '../../native/cuda.js'
import { measureBoardProbe } from './board-probe.js'
import { measureCalibration } from './calibration.js'
import { measureCeilings } from './ceilings.js'
import type { DeviceSession } from './device-session.js'
import { contextLost, hostMustExit, runCase, wrongAnswerOutcome } from './measure.js'
import { PairedSide } from './paired-side.js'
import type { CaseOutcome, CasePlan, ErrorOutcome, GpuListing, HostConfig, HostMessage, HostOpen, HostRequest } from '../../shared/messages.js'
import { acquireGpuSetup } from '../../cache/gpu-lock.js'
import { lockGpu, openSession, prepareSession, type PreparedSession } from './open-session.js'
import { dieWhenOrphaned } from './orphan-watch.js'
import { checkNoProcessesStarted, killDescendants, watchProcessesFromNow } from './spawned-processes.js'
import { becomeChildSubreaper } from '../../native/process-tree.js'

function send(message: HostMessage): void {
  process.send?.(message)
}

/** Every GPU of the machine (properties only: no context is created on the others). */
function listGpus(count: number): GpuListing[] {
  return Array.from({ length: count }, (_, index) => {
    const { name, uuid, pciBusId } = cuda.deviceInfo(index)
    return { index, name, uuid, pciBusId }
  })
}

/** A prepared session and the machine's GPU count, or the message a host that could not prepare answers with. */
type Preparation = { prepared: PreparedSession; gpuCount: number } | { failed: HostMessage }

/** Everything a host does before its context (prepareSession); a failure is what the host answers when opened. */
function prepare(): Preparation {
  const probe = cuda.probeGpu()
  if (!probe.available) return { failed: { type: 'init-failed', reason: probe.reason, noGpu: true } }
  if (config.device >= probe.count) {
    return { failed: { type: 'init-failed', reason: `GPU ${config.device} does not exist: this host has ${probe.count}`, noGpu: false } }
  }
  try {
    return { prepared: prepareSession(config), gpuCount: probe.count }
  } catch (error) {
    return { failed: { type: 'init-failed', reason: (error as Error).message, noGpu: false } }
  }
}

function open(preparation: Preparation, warm: boolean): DeviceSession | undefined {
  if ('failed' in preparation) {
    send(preparation.failed)
    return undefined
  }
  const { prepared, gpuCount } = preparation
  try {
    const { session, lockWaitMs } = openSession(prepared, warm)
    send({
      type: 'ready',
      arch: prepared.arch,
      // Only now: the properties include free memory, which cudaMemGetInfo reads through a context it creates.
      gpus: listGpus(gpuCount),
      openWaitMs: lockWaitMs,
      device: {
        ...session.info,
        maxSmClockMHz: session.maxSmClockMHz,
        startSmClockMHz: session.smClockMHz(),
        driverRelease: session.driverVersion(),
        nvmlError: session.nvmlError,
      },
    })
    return session
  } catch (error) {
    send({ type: 'init-failed', reason: (error as Error).message, noGpu: false })
    return undefined
  }
}

/** Takes the lock of the GPU this host works on. */
function lockOwnGpu(session: DeviceSession): () => void {
  return lockGpu(session.info.pciBusId, config.device)
}

/**
 * Runs `then` once the worker has let go of this host, also when it did so before this was called: a 'disconnect' that
 * came while the host's modules were still loading had no listener, and would otherwise leave the host waiting for
 * ever for a message that cannot come.
 */
function whenDisconnected(then: () => void): void {
  process.once('disconnect', then)
  if (!process.connected) then()
}

/** Opens the session and serves requests until the worker disconnects. */
function serve(preparation: Preparation, warm: boolean): void {
  const session = open(preparation, warm)
  if (!session) process.exit(0)
  watchProcessesFromNow()
  // Tearing the context down is GPU work too, but no timing: exit as a set-up of the lock, beside other hosts' set-ups
  // and teardowns, never while anyone times (a marker whose process has exited counts no more).
  whenDisconnected(() => {
    lockGpu(session.info.pciBusId, config.device, acquireGpuSetup)
    killDescendants()
    process.exit(0)
  })
  process.on('message', (request: HostRequest) => {
    void handle(session, request)
  })
}

/** How long a host whose worker is gone may go on: long enough to finish a teardown it had started. */
const ORPHAN_GRACE_MS = 10_000

dieWhenOrphaned(ORPHAN_GRACE_MS)
// Before any solution: every process a solution starts stays below this one (spawned-processes.ts). Where the OS says
// no, the check still sees the solution's direct children.
becomeChildSubreaper()
const config = JSON.parse(process.argv[2] ?? '{}') as HostConfig
// 'warm': this host replaces one that was working on the GPU a moment ago. 'standby': a host started ahead of need
// prepares everything that needs no context, then waits until the worker opens it (see client.ts).
const launch = process.argv[3]
if (launch === 'standby') {
  const preparation = prepare()
  const leave = () => process.exit(0)
  whenDisconnected(leave)
  process.once('message', (request: HostOpen) => {
    process.off('disconnect', leave)
    serve(preparation, request.warm)
  })
} else {
  serve(prepare(), launch === 'warm')
}

/** A reply to a request, before the host adds where its time went. */
type Reply = Extract<HostMessage, { id: number }>

/** The case's entry point, its library loaded (and the reference's, before the solution's first call). */
function loadSolution(session: DeviceSession, plan: CasePlan): Promise<(...args: unknown[]) => unknown> {
  return session.phases.duringAsync('load', async () => {
    const loaded = await session.solution(plan.solution)
    // What the check after loading a library finds must be that library's doing, not a call's.
    if (plan.reference.kind === 'library') session.fn(plan.reference.target)
    return loaded
  })
}

/** The side of a paired A/B case this host has open (paired-side.ts), between its 'pair-start' and 'pair-end'. */
let paired: PairedSide | undefined

/** The open paired side, or an error that says the worker asked out of order. */
function openSide(request: HostRequest): PairedSide {
  if (!paired) throw new Error(`'${request.type}' came with no paired case open`)
  return paired
}

/** The reply to one request; what it throws, handle() sends as an error outcome. */
async function answer(session: DeviceSession, request: HostRequest): Promise<Reply> {
  switch (request.type) {
    case 'ceilings':
      return { type: 'ceilings', id: request.id, outcome: { status: 'ok', record: measureCeilings(session, request.options) } }
    case 'calibrate':
      return { type: 'calibration', id: request.id, outcome: { status: 'ok', record: measureCalibration(session) } }
    case 'board-probe': {
      const ms = measureBoardProbe(session)
      return { type: 'board-probe', id: request.id, outcome: { status: 'ok', ...(ms !== undefined && { ms }) } }
    }
    case 'run':
      return { type: 'result', id: request.id, outcome: runCase(session, request.plan, await loadSolution(session, request.plan)) }
    case 'pair-start': {
      paired?.abandon()
      paired = undefined
      const solution = await loadSolution(session, request.plan)
      try {
        // Steps 1–7, counted as a timed case's are (measure.ts).
        paired = session.phases.during('timing', () => PairedSide.open(session, request.plan, solution, request.place, request.verify))
      } catch (error) {
        return { type: 'pair-started', id: request.id, outcome: wrongAnswerOutcome(error) }
      }
      return { type: 'pair-started', id: request.id, outcome: { status: 'ok' } }
    }
    case 'pair-rounds': {
      const side = openSide(request)
      try {
        if (request.place !== undefined) side.move(request.place)
        const rounds = Array.from({ length: request.rounds }, () => session.phases.during('timing', () => side.round(request.count)))
        return { type: 'pair-rounds', id: request.id, outcome: { status: 'ok', rounds } }
      } catch (error) {
        // A wrong answer at the new place or in a round's checked call: the side is over.
        side.abandon()
        paired = undefined
        return { type: 'pair-rounds', id: request.id, outcome: wrongAnswerOutcome(error) }
      }
    }
    case 'pair-end': {
      const side = openSide(request)
      paired = undefined
      let outcome: CaseOutcome
      try {
        outcome = session.phases.during('timing', () => side.end(request.stopReason, request.verify))
      } catch (error) {
        outcome = wrongAnswerOutcome(error)
      }
      return { type: 'result', id: request.id, outcome }
    }
  }
}

/** When a request's check for processes a solution started comes, for its message. */
const AFTER_REQUEST = {
  run: 'after its case',
  ceilings: 'after the ceiling measurement',
  calibrate: 'after the calibration',
  'board-probe': 'after the board probe',
  'pair-start': 'after opening its paired side',
  'pair-rounds': 'after a round of its paired side',
  'pair-end': 'after its paired side ended',
} as const satisfies Record<HostRequest['type'], string>

/** The type of the message that answers each type of request. */
const REPLY_TYPE = {
  run: 'result',
  ceilings: 'ceilings',
  calibrate: 'calibration',
  'board-probe': 'board-probe',
  'pair-start': 'pair-started',
  'pair-rounds': 'pair-rounds',
  'pair-end': 'result',
} as const satisfies Record<HostRequest['type'], HostMessage['type']>

/** The error outcome that answers `request` when handling it threw `error`. */
function failure(request: HostRequest, error: unknown): Reply {
  const e = error as Error
  // A paired case that failed is over on this side: the worker ends it on the other.
  paired?.abandon()
  paired = undefined
  const lost = contextLost(error)
  const outcome: ErrorOutcome = { status: 'error', errorName: e.name, message: e.message, contextLost: lost, hostExits: hostMustExit(error) }
  return { type: REPLY_TYPE[request.type], id: request.id, outcome }
}

const hostExits = (message: Reply): boolean => message.outcome.status === 'error' && message.outcome.hostExits === true

/** Sends the reply, with the phases of the request's work. */
function sendReply(session: DeviceSession, message: Reply): void {
  send({ ...message, phases: session.phases.take() })
}

/**
 * Sends the reply and exits. Exiting tears the context down, GPU work too (and whatever the solution left running):
 * the caller holds the GPU lock.
 */
function exitWith(session: DeviceSession, message: Reply): never {
  sendReply(session, message)
  killDescendants()
  process.exit(1)
}

/** One request at a time: the worker sends the next only after this one's answer. */
async function handle(session: DeviceSession, request: HostRequest): Promise<void> {
  session.phases.take() // each answer accounts for its own request only
  const release = session.phases.during('gpuWait', () => lockOwnGpu(session))
  let message: Reply
  try {
    message = await answer(session, request)
  } catch (error) {
    message = failure(request, error)
  }
  try {
    checkNoProcessesStarted('the solution', AFTER_REQUEST[request.type])
  } catch (error) {
    message = failure(request, error)
  }
  if (hostExits(message)) exitWith(session, message)
  release()
  // Protocol step 13, once other processes may use the GPU again (reading this process's code needs no GPU): the
  // samples were taken by this process's code, which must still be the code the host started with.
  if (message.type === 'result' && message.outcome.status === 'ok' && message.outcome.timing) {
    try {
      session.checkIntegrity('the solution', 'after timing the case')
    } catch (error) {
      lockOwnGpu(session)
      exitWith(session, failure(request, error))
    }
  }
  sendReply(session, message)
}
