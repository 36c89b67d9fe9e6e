// Spreading cases over the GPUs of a host: which GPUs a selection names, and how a case claims a free one. The
// claims are real lock files (in a scratch folder), so several claimants in one process behave as several workers.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { claimPath } from '../../src/cache/gpu-lock.js'
import { joinQueue } from '../../src/engine/worker/claim-queue.js'
import { checkDeviceSelection, claimFirstFree, claimOrder, deviceSelectionFromEnv, resolveDevices } from '../../src/engine/worker/gpu-pool.js'
import type { GpuListing } from '../../src/shared/messages.js'
import { contenderReports } from '../helpers/contenders.js'
import { useScratch } from '../helpers/scratch.js'

const H200 = 'NVIDIA H200'
const gpus: GpuListing[] = [
  { index: 0, name: H200, uuid: 'GPU-0', pciBusId: '00000000:19:00.0' },
  { index: 1, name: H200, uuid: 'GPU-1', pciBusId: '00000000:3B:00.0' },
  { index: 2, name: 'NVIDIA A100-SXM4-80GB', uuid: 'GPU-2', pciBusId: '00000000:4C:00.0' },
  { index: 3, name: H200, uuid: 'GPU-3', pciBusId: '00000000:5D:00.0' },
]

describe('which GPUs a run uses', () => {
  it("'all' takes every GPU of device 0's model and leaves other models out", () => {
    expect(resolveDevices('all', gpus).map((g) => g.index)).toEqual([0, 1, 3])
    expect(resolveDevices('all', [gpus[0]!])).toEqual([gpus[0]])
  })

  it('a list keeps its order and must name existing GPUs of one model', () => {
    expect(resolveDevices([3, 0], gpus).map((g) => g.index)).toEqual([3, 0])
    expect(() => resolveDevices([0, 2], gpus)).toThrow(/mixes GPU models: GPU 0 is NVIDIA H200, GPU 2 is NVIDIA A100/)
    expect(() => resolveDevices([0, 7], gpus)).toThrow('devices names GPU 7, which does not exist: this host has 4 (0–3)')
    expect(() => resolveDevices([5], gpus)).toThrow('GPU 5 does not exist: this host has 4')
  })

  it('reads KERNELBENCH_DEVICES, then the single KERNELBENCH_DEVICE', () => {
    expect(deviceSelectionFromEnv({})).toBeUndefined()
    expect(deviceSelectionFromEnv({ KERNELBENCH_DEVICES: 'all' })).toBe('all')
    expect(deviceSelectionFromEnv({ KERNELBENCH_DEVICES: '1, 3,1' })).toEqual([1, 3])
    expect(deviceSelectionFromEnv({ KERNELBENCH_DEVICE: '2' })).toEqual([2])
    expect(deviceSelectionFromEnv({ KERNELBENCH_DEVICES: '0,1', KERNELBENCH_DEVICE: '2' })).toEqual([0, 1])
    expect(() => deviceSelectionFromEnv({ KERNELBENCH_DEVICES: '0,,1' })).toThrow(/KERNELBENCH_DEVICES must be 'all' or CUDA device indices/)
    expect(() => deviceSelectionFromEnv({ KERNELBENCH_DEVICE: 'gpu1' })).toThrow(/KERNELBENCH_DEVICE must be/)
  })

  it("checks the plugin's option", () => {
    expect(checkDeviceSelection('all')).toBe('all')
    expect(checkDeviceSelection([1, 0])).toEqual([1, 0])
    expect(() => checkDeviceSelection([])).toThrow('devices must name at least one CUDA device index')
    expect(() => checkDeviceSelection([0.5])).toThrow(/integers >= 0/)
    expect(() => checkDeviceSelection('first')).toThrow(`devices must be 'all' or an array of CUDA device indices (got "first")`)
  })
})

describe('claiming a free GPU for a case', () => {
  const dir = useScratch('kb-gpu-pool-')
  const two = gpus.slice(0, 2)

  it('tries the GPU used last first', () => {
    expect(claimOrder(two, undefined).map((g) => g.index)).toEqual([0, 1])
    expect(claimOrder(two, 1).map((g) => g.index)).toEqual([1, 0])
  })

  it('takes the first free GPU, the next one while it is claimed, and waits while all are', async () => {
    const first = await claimFirstFree(two, { dir: dir() })
    const second = await claimFirstFree(two, { dir: dir() })
    expect([first.gpu.index, second.gpu.index]).toEqual([0, 1])
    expect(fs.readFileSync(claimPath(two[0]!.pciBusId, dir()), 'utf8')).toBe(String(process.pid))

    let third: number | undefined
    const waiting = claimFirstFree(two, { dir: dir() }).then((claim) => (third = claim.gpu.index))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(third).toBeUndefined()
    second.release()
    await waiting
    expect(third).toBe(1)
    first.release()
  })

  it("takes over a claim whose process is gone", async () => {
    fs.writeFileSync(claimPath(two[0]!.pciBusId, dir()), '2147483646')
    expect((await claimFirstFree(two, { dir: dir() })).gpu.index).toBe(0)
  })

  it("an extra lane takes only a GPU that has stayed free for its yield time, and a claim meanwhile starts it again", async () => {
    const one = [two[0]!]
    const started = performance.now()
    const first = await claimFirstFree(one, { dir: dir(), yieldMs: () => 200 })
    expect(performance.now() - started).toBeGreaterThanOrEqual(200)
    first.release()

    // A first lane (no yield) claims the GPU while the extra lane waits: the extra lane gets it only once it has been
    // free for the whole yield time after that claim's release.
    let extraAt: number | undefined
    const extra = claimFirstFree(one, { dir: dir(), yieldMs: () => 300 }).then((claim) => {
      extraAt = performance.now()
      return claim
    })
    const quick = await claimFirstFree(one, { dir: dir() })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(extraAt).toBeUndefined()
    const releasedAt = performance.now()
    quick.release()
    ;(await extra).release()
    expect(extraAt! - releasedAt).toBeGreaterThanOrEqual(300 - 15)
  })

  it('names the holders when every GPU is held by a claim older than any case may take', async () => {
    const holder = spawn('sleep', ['60'])
    try {
      for (const gpu of two) {
        const file = claimPath(gpu.pciBusId, dir())
        fs.writeFileSync(file, String(holder.pid))
        fs.utimesSync(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000))
      }
      await expect(claimFirstFree(two, { dir: dir(), stuckAfterMs: 60_000 })).rejects.toThrow(
        new RegExp(`no GPU could be claimed: GPU 0 by process ${holder.pid} for 36\\d\\d s, GPU 1 by process ${holder.pid} for 36\\d\\d s`),
      )
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('never gives one GPU to two claimants at once, in one process or several, however the claims interleave', async () => {
    // Three processes of two lanes each claim and release as fast as they can (tests/fixtures/contend-claims.ts).
    // Before the lock files judged a stale lock by the very file they had read, this found a GPU held twice in
    // about one claim in a thousand.
    const witnesses = path.join(dir(), 'witnesses')
    fs.mkdirSync(witnesses)
    const reports = await contenderReports<{ claims: number; doubles: number }>('tests/fixtures/contend-claims.ts', [dir(), witnesses, '3000'], 3)
    expect(reports.reduce((sum, r) => sum + r.claims, 0)).toBeGreaterThan(0)
    expect(reports.map((r) => r.doubles)).toEqual([0, 0, 0])
  })
})

describe('the order in which waiters take a GPU that comes free', () => {
  const dir = useScratch('kb-claim-queue-')
  const one = [gpus[0]!]
  const queue = (workLeftMs: number) => ({ dir: path.join(dir(), 'queue'), workLeftMs })

  it('gives it to the waiter whose bench file has the most GPU work left, then to the next', async () => {
    const holder = await claimFirstFree(one, { dir: dir() })
    const order: string[] = []
    const waiter = (name: string, workLeftMs: number) =>
      claimFirstFree(one, { dir: dir(), queue: queue(workLeftMs) }).then((claim) => {
        order.push(name)
        return claim
      })
    const little = waiter('little', 800)
    const much = waiter('much', 12_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
    holder.release()
    ;(await much).release()
    ;(await little).release()
    expect(order).toEqual(['much', 'little'])
    expect(fs.readdirSync(path.join(dir(), 'queue'))).toEqual([]) // each left the queue with its claim
  })

  it('does not hold a GPU back for a waiter that is gone, nor for one that yields that GPU', async () => {
    const queueDir = path.join(dir(), 'queue')
    fs.mkdirSync(queueDir)
    fs.writeFileSync(path.join(queueDir, '99000_2147483646_0_0'), '') // a killed worker's entry
    let yielded = false
    const yielding = claimFirstFree(one, { dir: dir(), yieldMs: () => 300, queue: queue(50_000) }).then((claim) => {
      yielded = true
      return claim
    })
    const claim = await claimFirstFree(one, { dir: dir(), queue: queue(10) })
    expect(yielded).toBe(false)
    claim.release()
    ;(await yielding).release()
  })

  it('lets waiters with equal work take GPUs as they come', async () => {
    const holder = await claimFirstFree(one, { dir: dir() })
    const both = [claimFirstFree(one, { dir: dir(), queue: queue(500) }), claimFirstFree(one, { dir: dir(), queue: queue(500) })]
    holder.release()
    const first = await Promise.race(both)
    first.release()
    for (const claim of await Promise.all(both)) if (claim !== first) claim.release()
  })

  it('queues nobody once the run is ending (its folder gone), and does not make the folder again', async () => {
    const gone = path.join(dir(), 'run-gone', 'queue')
    const ticket = joinQueue(gone, 1000, [0])
    expect(ticket.outrankedOn().size).toBe(0)
    ticket.leave()
    expect(fs.existsSync(path.dirname(gone))).toBe(false)
  })
})
