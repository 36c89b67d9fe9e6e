// The worker's side of the device host (src/engine/worker/client.ts) against a stand-in host that misbehaves on
// purpose (tests/fixtures/stand-in-host.ts): every way a host can go wrong ends in an answer, never in a wait for ever.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { endRun, liveHosts, registerHost } from '../../src/engine/worker/host-registry.js'
import { tsxExecArgv } from '../../src/engine/worker/process-entry.js'
import type { CasePlan } from '../../src/shared/messages.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { useScratch } from '../helpers/scratch.js'
import { plan, standInHost } from '../helpers/stand-in-host.js'

const children: ChildProcess[] = []

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

/** Whether the process runs (it may be reaped a moment after it is killed: waits, however slow the machine). */
async function gone(pid: number): Promise<true> {
  for (;;) {
    try {
      process.kill(pid, 0)
    } catch {
      return true
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('a device host as the worker sees it', () => {
  it('answers two cases sent at once, one after the other (two at once left the first without an answer for ever)', async () => {
    const host = standInHost('answers')
    const [a, b] = await Promise.all([host.run(plan('a')), host.run(plan('b'))])
    expect(a.outcome.status).toBe('ok')
    expect(b.outcome.status).toBe('ok')
  })

  it('kills a host that never starts, and says so', async () => {
    const host = standInHost('never-starts')
    const { outcome } = await host.run(plan('a', 1500))
    expect(outcome).toMatchObject({ status: 'error', errorName: 'Timeout' })
    expect(outcome.status === 'error' && outcome.message).toMatch(/did not start within 2 s \(Node, the harness or the CUDA context did not come up\)/)
  })

  it("names the process whose GPU lock a host that never starts was waiting for", async () => {
    const holder = spawn('sleep', ['60'])
    children.push(holder)
    const host = standInHost('waits-for-lock', { KB_STAND_IN_OWNER: String(holder.pid) })
    // The stand-in must boot and say whom it waits for within the start limit: at a load average of 9 on two cores that
    // took over 1.5 s, so the limit leaves a slow machine far more than it needs (the test lasts the whole limit).
    const { outcome } = await host.run(plan('a', 15_000))
    expect(outcome.status === 'error' && outcome.message).toContain(`waiting for the GPU's lock, held by process ${holder.pid} (sleep 60)`)
  })

  it('kills a host that never answers a case, and the next case gets a fresh host', async () => {
    const host = standInHost('answers')
    // Started first with time to spare, so that the short limit below is the case's alone, however slow the machine.
    expect((await host.run(plan('a'))).outcome.status).toBe('ok')
    const { outcome } = await host.run(plan('hang', 1000))
    expect(outcome).toMatchObject({ status: 'error', errorName: 'Timeout' })
    expect(outcome.status === 'error' && outcome.message).toMatch(/case 'hang' did not finish within 1 s \(stopped after \d+\.\d s: a kernel that never ends/)
    expect((await host.run(plan('b'))).outcome.status).toBe('ok')
  })
})

describe('the host of the next solution', () => {
  const dir = useScratch('kb-next-')
  afterEach(() => {
    delete process.env.KB_STAND_IN_EVENTS
    delete process.env.KB_STAND_IN_EXIT_AFTER
  })

  /** Resolves once `holds`, polling; fails after 20 s (the stand-ins' steps take well under a second each). */
  async function until(holds: () => boolean, what: string): Promise<void> {
    for (const giveUp = Date.now() + 20_000; !holds(); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > giveUp) throw new Error(`not within 20 s: ${what}`)
    }
  }

  it("opens while the last solution's host tears down, and gets its first case once that host is gone", async () => {
    const events = path.join(dir(), 'events')
    const go = path.join(dir(), 'go')
    const lines = () => (fs.existsSync(events) ? fs.readFileSync(events, 'utf8').trim().split('\n') : [])
    const pidOf = (event: string) => Number(lines().find((line) => line.endsWith(` ${event}`))?.split(' ')[0])
    try {
      const host = standInHost('answers', { KB_STAND_IN_EVENTS: events, KB_STAND_IN_EXIT_AFTER: go })
      expect((await host.run(plan('a'))).outcome.status).toBe('ok')
      // The host of case a, and the spare started on standby beside it.
      await until(() => lines().filter((line) => line.endsWith(' started')).length === 2, 'a spare host')
      const next = host.run({ ...plan('b'), solution: { library: '/stand-in/other.so', symbol: 'solution' } } as unknown as CasePlan)
      await until(() => lines().some((line) => line.endsWith(' opened')), 'the spare opened')
      const last = pidOf('case a')
      // The last host is still tearing down (it waits for `go`), and nothing was sent to the new one yet.
      expect(() => process.kill(last, 0)).not.toThrow()
      expect(lines()).toContain(`${last} exiting`)
      expect(lines().some((line) => line.endsWith(' case b'))).toBe(false)
      fs.writeFileSync(go, '')
      expect((await next).outcome.status).toBe('ok')
      const order = lines()
      expect(order.indexOf(`${last} exited`)).toBeGreaterThanOrEqual(0)
      expect(order.indexOf(`${last} exited`)).toBeLessThan(order.findIndex((line) => line.endsWith(' case b')))
      expect(pidOf('case b')).toBe(pidOf('opened'))
    } finally {
      fs.writeFileSync(go, '')
    }
  }, 60_000)
})

describe("a run's device hosts", () => {
  const dir = useScratch('kb-run-')

  it('are waited for at the end of the run, and one that never exits is killed and named', async () => {
    const env = { KERNELBENCH_RUN_DIR: dir() }
    const polite = spawn(process.execPath, ['-e', "console.log('up'); setTimeout(() => {}, 300)"])
    const stubborn = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up')"])
    children.push(polite, stubborn)
    registerHost(polite, env)
    registerHost(stubborn, env)
    expect(liveHosts(dir()).sort()).toEqual([polite.pid, stubborn.pid].sort())
    // Both running their code first: on a loaded machine Node's own start can outlast the wait below.
    await Promise.all([once(polite.stdout!, 'data'), once(stubborn.stdout!, 'data')])
    const killed = await endRun(dir(), 5000)
    expect(killed).toEqual([stubborn.pid])
    await gone(stubborn.pid!)
    expect(polite.exitCode).toBe(0)
    expect(fs.existsSync(dir())).toBe(false)
  })

  it('kill at once a host started once the run has begun to end (a spare started as the last case ended)', async () => {
    const env = { KERNELBENCH_RUN_DIR: dir() }
    const ending = endRun(dir(), 60_000)
    const late = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
    children.push(late)
    registerHost(late, env)
    const [, signal] = (await once(late, 'exit')) as [number | null, string | null]
    expect(signal).toBe('SIGKILL')
    expect(await ending).toEqual([])
  })

  it('leave no host behind when their worker is killed in the middle of a case', async () => {
    // A worker (a plain Node process here) starts a host that is busy in a loop, as one blocked in a kernel is, then
    // is killed: the host's own watch (src/engine/host/orphan-watch.ts) ends it once orphaned.
    const worker = spawn(
      process.execPath,
      [
        ...tsxExecArgv(),
        '-e',
        `const { spawn } = require('node:child_process')
         const host = spawn(process.execPath, [...${JSON.stringify(tsxExecArgv())}, '-e', "import('${path.join(PACKAGE_ROOT, 'src/engine/host/orphan-watch.ts')}').then((m) => { m.dieWhenOrphaned(200); console.log('busy'); for (;;) {} })"], { stdio: ['ignore', 'inherit', 'inherit'] })
         console.log(host.pid)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    children.push(worker)
    let output = ''
    worker.stdout!.setEncoding('utf8')
    while (!/^\d+\nbusy/m.test(output)) output += (await once(worker.stdout!, 'data'))[0]
    const hostPid = Number(output.split('\n')[0])
    worker.kill('SIGKILL')
    expect(await gone(hostPid)).toBe(true)
  })
})
