// The memory both sides of a paired A/B case time in (docs/ci-gate.md, "Shared places"): where a buffer sits changes a
// memory-bound kernel's time by a few percent, and that depends on the physical memory, whichever process uses it. Two
// processes timing the same kernel at the same offset in one allocation read alike (on an H200, 2026-11-28: a
// correlation of 0.92 over 64 offsets, and no more apart than one process twice), where allocations of their own differ
// at random. So each pair of processes gets a region, both sides open it (CUDA IPC) and move to the same offset in each
// block: what the place costs falls on both sides of the ratio. The region is owned by a process of its own, the region
// host (src/engine/host/region-host.ts), not by a side (a side never frees memory that the other may still use, and the
// process that allocated a region read 0.2–0.4% slower in it than the processes that opened it, in three trials of
// three) and not by this worker, which loads no native library.
import { fork, type ChildProcess } from 'node:child_process'
import type { RegionReply, RegionRequest } from '../../shared/messages.js'
import { registerHost } from './host-registry.js'
import { engineProcess } from './process-entry.js'

/** One region: its IPC handle (hex) for the sides, and how the worker has it freed once both sides have ended. */
export interface SharedRegion {
  handle: string
  free(): Promise<void>
}

/** Why no region could be had (no memory, no IPC, no GPU): the sides then place buffers of their own. */
export interface NoRegion {
  unavailable: string
}

/** A region of `bytes` on the GPU, or why none can be had. */
export type RegionSource = (bytes: number) => Promise<SharedRegion | NoRegion>

/** A region host that does not answer within this long is taken for stuck: killed, and the case goes on without. */
const ANSWER_TIMEOUT_MS = 30_000

class RegionHost {
  private child?: ChildProcess
  private nextId = 0
  private readonly pending = new Map<number, (reply: RegionReply) => void>()

  private readonly entry = engineProcess('region-host')

  constructor(private readonly device: number) {}

  private started(): ChildProcess {
    if (this.child) return this.child
    const child = fork(this.entry.file, [String(this.device)], { execArgv: this.entry.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    registerHost(child)
    // Other messages (a 'waiting' for the GPU's lock) carry no id of a request.
    child.on('message', (reply: RegionReply) => {
      this.pending.get(reply.id)?.(reply)
      this.pending.delete(reply.id)
    })
    child.on('exit', () => {
      if (this.child === child) this.child = undefined
      for (const settle of this.pending.values()) settle({ id: -1, error: 'the region host exited' })
      this.pending.clear()
    })
    this.child = child
    return child
  }

  ask(request: (id: number) => RegionRequest): Promise<RegionReply> {
    const child = this.started()
    const id = this.nextId++
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        child.kill('SIGKILL')
        resolve({ id, error: `the region host did not answer in ${ANSWER_TIMEOUT_MS / 1000} s` })
      }, ANSWER_TIMEOUT_MS)
      this.pending.set(id, (reply) => {
        clearTimeout(timer)
        resolve(reply)
      })
      child.send(request(id))
    })
  }
}

const hosts = new Map<number, RegionHost>()

/** Regions on GPU `device`, from this worker's region host for that GPU (started at the first region). */
export function regionsOn(device: number): RegionSource {
  const host = hosts.get(device) ?? new RegionHost(device)
  hosts.set(device, host)
  return async (bytes) => {
    const reply = await host.ask((id) => ({ type: 'region-alloc', id, bytes }))
    const handle = reply.handle
    if (handle === undefined) return { unavailable: reply.error ?? 'the region host gave no region' }
    return { handle, free: async () => void (await host.ask((id) => ({ type: 'region-free', id, handle }))) }
  }
}
