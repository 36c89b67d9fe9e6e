// The board probe's time is measured once per board in a run: the run's other workers read it from the run's folder.
import { afterEach, describe, expect, it, vi } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import type { BoardProbeOutcome } from '../../src/shared/messages.js'
import { RUN_DIR_ENV } from '../../src/engine/worker/host-registry.js'
import { useScratch } from '../helpers/scratch.js'

/** The module as a fresh worker process loads it: nothing measured yet in this process. */
async function freshWorker() {
  vi.resetModules()
  return (await import('../../src/engine/worker/board-probes.js')).boardProbeMs
}

/** A stand-in for the device host's answer, counting how often it was asked. */
function answers(outcome: BoardProbeOutcome) {
  const measure = vi.fn(async () => outcome)
  return measure
}

describe('boardProbeMs', () => {
  const scratch = useScratch('kb-probes-')
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('measures a board once per run: a second worker reads the first one\'s time, another board is measured', async () => {
    vi.stubEnv(RUN_DIR_ENV, scratch())
    const first = answers({ status: 'ok', ms: 5.86 })
    const probeA = await freshWorker()
    expect(await probeA('GPU-a', first)).toBe(5.86)
    expect(await probeA('GPU-a', first)).toBe(5.86)
    expect(first).toHaveBeenCalledTimes(1)
    const second = answers({ status: 'ok', ms: 6.04 })
    const probeB = await freshWorker()
    expect(await probeB('GPU-a', second)).toBe(5.86)
    expect(second).not.toHaveBeenCalled()
    expect(await probeB('GPU-b', second)).toBe(6.04)
    expect(second).toHaveBeenCalledTimes(1)
  })

  it('a probe not kept (a throttled clock) is remembered as none; a failed one is not written, and leaves the board without a probe', async () => {
    const dir = scratch()
    vi.stubEnv(RUN_DIR_ENV, dir)
    const throttled = answers({ status: 'ok' })
    expect(await (await freshWorker())('GPU-a', throttled)).toBeUndefined()
    const later = answers({ status: 'ok', ms: 5.86 })
    expect(await (await freshWorker())('GPU-a', later)).toBeUndefined()
    expect(later).not.toHaveBeenCalled()
    const failed = answers({ status: 'error', errorName: 'Timeout', message: 'the board probe did not end' })
    expect(await (await freshWorker())('GPU-b', failed)).toBeUndefined()
    expect(fs.readdirSync(path.join(dir, 'board-probes'))).toEqual(['GPU-a.json'])
  })

  it('outside a run, each worker measures for itself', async () => {
    vi.stubEnv(RUN_DIR_ENV, '')
    const measure = answers({ status: 'ok', ms: 5.86 })
    await (await freshWorker())('GPU-a', measure)
    await (await freshWorker())('GPU-a', measure)
    expect(measure).toHaveBeenCalledTimes(2)
  })
})
