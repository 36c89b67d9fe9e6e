// The GPUs a run times on, and which of them runs the next case. Every Vitest worker has one device host per GPU
// (client.ts); a case goes to the first GPU of the set that no other worker (of this run or another) has claimed,
// the one this worker used last tried first, so that N GPUs run N cases at once; where several of a run's workers
// wait, a GPU that comes free goes first to the one whose bench file has the most GPU work left (claim-queue.ts). A
// claim is a lock file per GPU held by the worker for one case; the device host's own GPU lock (gpu-lock.ts) still
// keeps every other process that times on the GPU out of the timed window.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { tryLock } from '../../cache/lock-file.js'
import { deviceHost, type CaseRun, type DeviceHost, type HostStatus } from './client.js'
import { claimPath } from '../../cache/gpu-lock.js'
import { joinQueue, type QueueTicket } from './claim-queue.js'
import { RUN_DIR_ENV } from './host-registry.js'
import type { CasePlan, GpuListing, GpuRef, HostConfig } from '../../shared/messages.js'
import type { ClaimWindow } from '../../shared/results.js'
import { sumPhases } from '../../shared/phases.js'
import { runPairedCase, type PairedRun } from './paired-case.js'
import { regionsOn } from './shared-regions.js'
import { boardProbeMs } from './board-probes.js'
import type { CompareSettings } from '../../spec/compare.js'

/** Which GPUs a run uses: every GPU of device 0's model, or the listed indices (all of one model). */
export type DeviceSelection = 'all' | readonly number[]

/** How often a worker that finds every GPU claimed looks again: short next to a case (~0.1–1 s of timing). */
const CLAIM_POLL_MS = 10
/** What a claim may last beyond a host's start and its case: the retirement of the host before (client.ts). */
const CLAIM_MARGIN_MS = 60_000
/**
 * How long a GPU must have been free before a case takes it for a second device host of its solution: a bench's extra
 * lane, or any case whose solution already has a host on another GPU. Such a host costs ~0.4–0.6 s of the GPU's time
 * (a process retired, a CUDA context made; 2 × H100, 2026-11-25), worth paying only where the GPU would otherwise stand
 * idle: other benches poll every CLAIM_POLL_MS, so a GPU free this long is one no other bench wants, not one between
 * another bench's cases.
 */
const SECOND_HOST_YIELD_MS = 300

/**
 * Reads `KERNELBENCH_DEVICES` ('all' or a comma-separated list of indices) or the older single
 * `KERNELBENCH_DEVICE`; undefined when neither is set. Throws on anything else.
 */
export function deviceSelectionFromEnv(env: Record<string, string | undefined>): DeviceSelection | undefined {
  const text = env.KERNELBENCH_DEVICES ?? env.KERNELBENCH_DEVICE
  if (text === undefined || text.trim() === '') return undefined
  const name = env.KERNELBENCH_DEVICES !== undefined ? 'KERNELBENCH_DEVICES' : 'KERNELBENCH_DEVICE'
  if (text.trim() === 'all') return 'all'
  return checkDeviceList(text.split(',').map((part) => (part.trim() === '' ? NaN : Number(part))), name)
}

/** A device list as the plugin's `devices` option gives it; throws naming the option on a bad value. */
export function checkDeviceSelection(selection: unknown, name = 'devices'): DeviceSelection {
  if (selection === 'all') return 'all'
  if (!Array.isArray(selection)) throw new Error(`${name} must be 'all' or an array of CUDA device indices (got ${JSON.stringify(selection)})`)
  return checkDeviceList(selection, name)
}

function checkDeviceList(list: readonly unknown[], name: string): number[] {
  if (list.length === 0) throw new Error(`${name} must name at least one CUDA device index`)
  for (const index of list) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      throw new Error(`${name} must be 'all' or CUDA device indices (integers >= 0); got ${JSON.stringify(index)}`)
    }
  }
  return [...new Set(list as number[])]
}

/** The device a selection starts with: its host reports every GPU of the machine, from which the set is chosen. */
export function firstDevice(selection: DeviceSelection): number {
  return selection === 'all' ? 0 : selection[0]!
}

/**
 * The GPUs a selection names on this machine. 'all' takes every GPU of device 0's model (other models are left
 * out: a bench's samples and its baseline belong to one model). A list must name GPUs that exist, of one model.
 */
export function resolveDevices(selection: DeviceSelection, gpus: readonly GpuListing[]): GpuListing[] {
  const first = gpus.find((g) => g.index === firstDevice(selection))
  if (!first) throw new Error(`GPU ${firstDevice(selection)} does not exist: this host has ${gpus.length}`)
  if (selection === 'all') return gpus.filter((g) => g.name === first.name)
  return selection.map((index) => {
    const gpu = gpus.find((g) => g.index === index)
    if (!gpu) throw new Error(`devices names GPU ${index}, which does not exist: this host has ${gpus.length} (0–${gpus.length - 1})`)
    if (gpu.name !== first.name) {
      throw new Error(
        `devices mixes GPU models: GPU ${first.index} is ${first.name}, GPU ${index} is ${gpu.name}. A run times on one ` +
          'model (its samples and baselines belong to that model): list GPUs of one model, or run once per model',
      )
    }
    return gpu
  })
}

/** The order a worker tries the GPUs in: the one it used last first (its host is warm there), then the rest. */
export function claimOrder(devices: readonly GpuListing[], lastUsed: number | undefined): GpuListing[] {
  const last = devices.find((d) => d.index === lastUsed)
  return last ? [last, ...devices.filter((d) => d !== last)] : [...devices]
}

/** What a case asks of the pool besides its plan. */
export interface CaseClaim {
  /** compute-sanitizer's path: the case runs on a host under its memcheck. */
  sanitizer?: string
  /** A bench's second or later lane: it yields a GPU where the solution has no host yet to other benches (SECOND_HOST_YIELD_MS). */
  extraLane?: boolean
  /**
   * The GPU time the case's bench file is expected to need still, this case included: among the run's waiters, more
   * is served first (claim-queue.ts). Undefined: the case waits in no queue and takes GPUs as they come.
   */
  workLeftMs?: number
}

/** The folder of the run's folder (host-registry.ts) that holds the queue of waiting claimants. */
const QUEUE_FOLDER = 'claim-queue'

export type PoolStatus = (HostStatus & { available: false }) | (HostStatus & { available: true; devices: GpuListing[] })

/** A case's outcome, where its time went, the GPU that ran it and when it held that GPU. */
export interface PooledOutcome extends CaseRun {
  gpu: GpuRef
  claimed: ClaimWindow
}

export class GpuPool {
  private status?: Promise<PoolStatus>
  private lastUsed?: number

  constructor(
    private readonly selection: DeviceSelection,
    private readonly config: Omit<HostConfig, 'device'>,
  ) {}

  /** The device host of the selection's first GPU: the one that reports the machine's GPUs and the arch. */
  firstHost(): DeviceHost {
    return this.host(firstDevice(this.selection))
  }

  private host(device: number, sanitizer?: string): DeviceHost {
    return deviceHost({ ...this.config, device, ...(sanitizer && { sanitizer }) })
  }

  /**
   * Starts the first GPU's host and resolves the set of GPUs; a selection that names no usable set fails here. The
   * hosts of the other GPUs of the set start then, so that a case that claims one of them does not hold it idle while
   * a process starts. (Not before: every worker starting a host on every GPU at once delayed the first host's start,
   * and so every GPU's first case, by 1.2 s on a 2 × H200 machine.)
   */
  ready(): Promise<PoolStatus> {
    this.status ??= this.firstHost()
      .ready()
      .then((status): PoolStatus => {
        if (!status.available) return status
        const devices = resolveDevices(this.selection, status.gpus)
        // A host that fails to start says why when a case is sent to it.
        for (const { index } of devices) void this.host(index).ready()
        return { ...status, devices }
      })
    return this.status
  }

  /**
   * Runs a case on the first free GPU of the set (waiting for one), on that GPU's host for this worker; in sanitize
   * mode on a host that runs under compute-sanitizer. Never rejects for the case's own faults (see DeviceHost.run).
   */
  async run(plan: CasePlan, claim: CaseClaim = {}): Promise<PooledOutcome> {
    return this.onFreeGpu(plan, claim, (gpu) => this.host(gpu, claim.sanitizer).run(plan))
  }

  /**
   * A paired A/B case (paired-case.ts) on the first free GPU, on `settings.processPairs` pairs of hosts of that GPU:
   * the first pair's `head` on the GPU's host for this worker, every other side on a host of its own (a process each).
   * Never rejects for the case's own faults.
   */
  async runPaired(head: CasePlan, base: CasePlan, settings: CompareSettings, claim: Omit<CaseClaim, 'sanitizer'> = {}): Promise<PooledOutcome & { paired: PairedRun }> {
    let paired: PairedRun | undefined
    const pooled = await this.onFreeGpu(head, claim, async (gpu) => {
      const config = { ...this.config, device: gpu }
      const pairs = [...Array(settings.processPairs).keys()].map((pair) => ({
        head: pair === 0 ? this.host(gpu) : deviceHost(config, { side: 'head', pair }),
        base: deviceHost(config, { side: 'base', pair }),
      }))
      paired = await runPairedCase(pairs, head, base, settings, { regions: regionsOn(gpu) })
      return { outcome: paired.head, phases: paired.phases }
    })
    return { ...pooled, paired: paired! }
  }

  /** Claims the first free GPU of the set for `work` (waiting for one), and adds the wait to its phases. */
  private async onFreeGpu(plan: CasePlan, { sanitizer, extraLane = false, workLeftMs }: CaseClaim, work: (gpu: number) => Promise<CaseRun>): Promise<PooledOutcome> {
    const status = await this.ready()
    if (!status.available) throw new Error(`no GPU to run on: ${status.reason}`)
    const claiming = performance.now()
    // A claim lasts a host's retirement and start and one case, each bounded (client.ts): a claim older than all of
    // them together belongs to a stuck process.
    const stuckAfterMs = 2 * plan.options.caseTimeoutMs + CLAIM_MARGIN_MS
    const order = claimOrder(status.devices, this.lastUsed)
    const hostsHere = (gpu: GpuListing) => this.host(gpu.index, sanitizer).serves(plan)
    // The first lane's first case starts the solution's first host anywhere; any later host waits for an idle GPU.
    const secondHost = extraLane || status.devices.some(hostsHere)
    const yieldMs = (gpu: GpuListing) => (secondHost && !hostsHere(gpu) ? SECOND_HOST_YIELD_MS : 0)
    const runDir = process.env[RUN_DIR_ENV]
    const queue = runDir && workLeftMs !== undefined ? { dir: path.join(runDir, QUEUE_FOLDER), workLeftMs } : undefined
    const { gpu, release } = await claimFirstFree(order, { stuckAfterMs, yieldMs, queue })
    const gpuWait = performance.now() - claiming
    try {
      this.lastUsed = gpu.index
      // A timed case names its board's probe, which the stored-baseline gate tells boards' kinds by.
      const probe = plan.mode === 'bench' ? await boardProbeMs(gpu.uuid, () => this.host(gpu.index).boardProbe(plan.options.caseTimeoutMs)) : undefined
      const fromMs = epochMs()
      const { outcome, phases } = await work(gpu.index)
      const claimed = { fromMs, toMs: epochMs() }
      const ref: GpuRef = { index: gpu.index, pciBusId: gpu.pciBusId, uuid: gpu.uuid, ...(probe !== undefined && { boardProbeMs: probe }) }
      return { outcome, phases: sumPhases([phases, { gpuWait }]), gpu: ref, claimed }
    } finally {
      release()
    }
  }
}

/** Now, in ms since the Unix epoch with performance.now()'s resolution: comparable across the run's processes. */
const epochMs = () => performance.timeOrigin + performance.now()

const POOLS = Symbol.for('vitest-kernel-bench.gpu-pools')

/** The pool for this worker and configuration, shared by every bench the worker runs (like its device hosts). */
export function gpuPool(selection: DeviceSelection, config: Omit<HostConfig, 'device'>): GpuPool {
  const global = globalThis as typeof globalThis & { [POOLS]?: Map<string, GpuPool> }
  const pools = (global[POOLS] ??= new Map())
  const key = JSON.stringify([selection, config])
  let pool = pools.get(key)
  if (!pool) {
    pool = new GpuPool(selection, config)
    pools.set(key, pool)
  }
  return pool
}

/**
 * The claims this process holds. Two lanes of one worker must never hold one GPU, whatever happens to the claim files
 * (a file removed by hand, a lock taken over as stale in error): they would send two requests to the same device host.
 */
const claimedHere = new Set<string>()

/** How a claimant waits (claimFirstFree). */
export interface ClaimWait {
  /** The folder of the claim files: the temp folder, shared by every run on the machine. */
  dir?: string
  /** Every GPU held by another process's claim older than this is a stuck run (rejects, naming the holders). */
  stuckAfterMs?: number
  /** Take a GPU only once it has been seen free (no claim) for at least this long, leaving it to quicker claimants. */
  yieldMs?: (gpu: GpuListing) => number
  /** The run's queue of waiters (claim-queue.ts), and the GPU work left to this claimant's bench file. */
  queue?: { dir: string; workLeftMs: number }
}

/**
 * Waits until one of the GPUs (tried in order) can be claimed; returns it with the function that releases it.
 * Rejects, naming the holders, when every GPU is held by a claim of another process older than `stuckAfterMs`:
 * every case ends, or is killed, before. In a queue, a free GPU goes first to a waiter with more work left.
 */
export async function claimFirstFree(
  order: readonly GpuListing[],
  { dir = os.tmpdir(), stuckAfterMs = Infinity, yieldMs = () => 0, queue }: ClaimWait = {},
): Promise<{ gpu: GpuListing; release: () => void }> {
  const eagerFor = order.filter((gpu) => yieldMs(gpu) === 0).map((gpu) => gpu.index)
  const ticket = queue && eagerFor.length > 0 ? joinQueue(queue.dir, queue.workLeftMs, eagerFor) : undefined
  try {
    return await claimWhenFree(order, dir, stuckAfterMs, yieldMs, ticket)
  } finally {
    ticket?.leave()
  }
}

async function claimWhenFree(
  order: readonly GpuListing[],
  dir: string,
  stuckAfterMs: number,
  yieldMs: (gpu: GpuListing) => number,
  ticket: QueueTicket | undefined,
): Promise<{ gpu: GpuListing; release: () => void }> {
  /** When each GPU was first seen free in a row of looks. */
  const freeSince = new Map<number, number>()
  for (;;) {
    /** The claims of other processes seen in this round, with their age (a claim file is made anew by each claim). */
    const others: { gpu: GpuListing; owner: number; ageMs: number }[] = []
    /** The GPUs a waiter with more work left would take, read once a round and only when a GPU is free. */
    let outranked: Set<number> | undefined
    for (const gpu of order) {
      const file = claimPath(gpu.pciBusId, dir)
      if (claimedHere.has(file)) {
        freeSince.delete(gpu.index)
        continue // a lane of this worker: its own request's time limit bounds it
      }
      const patience = yieldMs(gpu)
      if (patience > 0 && !freeLongEnough(file, gpu.index, freeSince, patience)) continue
      if (ticket && !fs.existsSync(file) && (outranked ??= ticket.outrankedOn()).has(gpu.index)) continue
      const attempt = tryLock(file)
      if (typeof attempt === 'function') {
        claimedHere.add(file)
        return {
          gpu,
          release: () => {
            claimedHere.delete(file)
            attempt()
          },
        }
      }
      others.push({ gpu, owner: attempt, ageMs: claimAge(file) })
    }
    if (others.length === order.length && others.every((o) => o.ageMs > stuckAfterMs)) {
      const held = others.map((o) => `GPU ${o.gpu.index} by process ${o.owner} for ${(o.ageMs / 1000).toFixed(0)} s`)
      throw new Error(
        `no GPU could be claimed: ${held.join(', ')}, longer than any case may take (${(stuckAfterMs / 1000).toFixed(0)} s). ` +
          'Another run of vitest-kernel-bench on this machine is stuck or has longer cases: end it, or raise caseTimeoutMs',
      )
    }
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS))
  }
}

/** Whether the GPU has been seen free (no claim file) for `yieldMs`, counting from the first look that saw it free. */
function freeLongEnough(file: string, index: number, freeSince: Map<number, number>, yieldMs: number): boolean {
  if (fs.existsSync(file)) {
    freeSince.delete(index)
    return false
  }
  const since = freeSince.get(index) ?? performance.now()
  freeSince.set(index, since)
  return performance.now() - since >= yieldMs
}

/** How long ago the claim in `file` was made (0 if it is gone): each claim writes a new file. */
function claimAge(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs
  } catch {
    return 0
  }
}
