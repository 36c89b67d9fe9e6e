// A solution that changes its Vitest worker's scheduling from its device host (here a stand-in host raises the
// worker's niceness, as setpriority on the parent's pid would) gets its case refused, and the worker is put back where
// it may be; where it may not (a plain user cannot lower a niceness again), every later case is refused too. A file
// of its own: the test's worker is the one whose niceness changes.
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { plan, standInHost } from '../helpers/stand-in-host.js'

const nice = os.getPriority()

describe.skipIf(nice >= 19)(`a worker whose scheduling a solution changed${nice >= 19 ? ' (skipped: this worker already runs at niceness 19)' : ''}`, () => {
  it('refuses the case, names the change, and refuses later cases while it cannot be put back', async () => {
    const { outcome } = await standInHost('renices-worker').run(plan('a'))
    expect(outcome).toMatchObject({ status: 'error', errorName: 'WorkerStateChanged' })
    expect(outcome.status === 'error' && outcome.message).toContain(
      `during this case, something changed this Vitest worker's scheduling: its niceness from ${nice} to ${nice + 1}`,
    )
    const restored = os.getPriority() === nice
    const next = (await standInHost('answers').run(plan('b'))).outcome
    if (restored) expect(next.status).toBe('ok')
    else expect(next.status === 'error' && next.message).toMatch(/could not be put back.*the case is refused; run again/)
  })
})
