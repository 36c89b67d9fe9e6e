// The worker's scheduling state (src/engine/worker/process-state.ts): what a solution could change in its parent to
// slow the hosts the worker starts later. Each change is made to a child process, never to the test's own worker.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { mpsControlPipe, readProcessState, restoreProcessState } from '../../src/engine/worker/process-state.js'
import { tsxExecArgv } from '../../src/engine/worker/process-entry.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'

const module = path.join(PACKAGE_ROOT, 'src/engine/worker/process-state.ts')

/** Runs `body` in a child Node process with readProcessState and restoreProcessState in scope; its JSON answer. */
async function inChild(body: string): Promise<Record<string, unknown>> {
  const code = `import('${module}').then(({ readProcessState, restoreProcessState }) => { ${body} })`
  const child = spawn(process.execPath, [...tsxExecArgv(), '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => (out += chunk))
  const [exitCode] = (await once(child, 'close')) as [number]
  expect(exitCode).toBe(0)
  return JSON.parse(out) as Record<string, unknown>
}

describe("the worker's scheduling", () => {
  it('reads the niceness and the CPUs a process may run on', () => {
    const state = readProcessState()
    expect(state.nice).toBe(os.getPriority())
    if (process.platform === 'linux') expect(state.cpus).toMatch(/^\d+([-,]\d+)*$/)
  })

  it('finds a raised niceness and puts it back where the process may (a plain user may not lower it again)', async () => {
    const answer = await inChild(`
      const before = readProcessState()
      require('node:os').setPriority(Math.min(19, before.nice + 5))
      const found = restoreProcessState(before)
      console.log(JSON.stringify({ before: before.nice, found, after: readProcessState().nice }))`)
    const before = answer.before as number
    const found = answer.found as { change: string; restored: boolean }
    expect(found.change).toBe(`its niceness from ${before} to ${Math.min(19, before + 5)}`)
    expect(answer.after).toBe(found.restored ? before : Math.min(19, before + 5))
  })

  it('finds an MPS control daemon started since, by its pipe where CUDA processes look for it, and cannot put that back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-mps-'))
    try {
      const pipe = mpsControlPipe({ CUDA_MPS_PIPE_DIRECTORY: dir })
      expect(pipe).toBe(path.join(dir, 'control'))
      expect(mpsControlPipe({})).toBe('/tmp/nvidia-mps/control')
      const before = readProcessState(process.pid, pipe)
      expect(before.mpsPipe).toBeUndefined()
      fs.writeFileSync(pipe, '') // the daemon's pipe; what matters to a CUDA process is that it is there
      const found = restoreProcessState(before, process.pid, pipe)
      expect(found?.change).toBe(
        `an MPS control daemon started (its pipe ${pipe} appeared), so every CUDA process it starts would run as a client of the MPS server; stop it with \`echo quit | nvidia-cuda-mps-control\``,
      )
      expect(found?.restored).toBe(false)
      const under = readProcessState(process.pid, pipe)
      fs.rmSync(pipe)
      expect(restoreProcessState(under, process.pid, pipe)).toEqual({ change: `the MPS control daemon it started under stopped (its pipe ${pipe} is gone)`, restored: false })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says nothing when nothing changed', async () => {
    expect(await inChild(`console.log(JSON.stringify({ found: restoreProcessState(readProcessState()) ?? null }))`)).toEqual({ found: null })
  })

  it.runIf(process.platform === 'linux' && os.availableParallelism() > 1 && spawnSync('taskset', ['--version']).status === 0)(
    'finds a narrowed CPU set and says it cannot put it back (taskset from outside, as a solution would from its host)',
    async () => {
      const child = spawn(process.execPath, [...tsxExecArgv(), '-e', `import('${module}').then(({ readProcessState, restoreProcessState }) => {
        const before = readProcessState()
        console.log('ready')
        process.stdin.once('data', () => { console.log(JSON.stringify(restoreProcessState(before))); process.exit(0) })
      })`], { stdio: ['pipe', 'pipe', 'inherit'] })
      let out = ''
      child.stdout!.setEncoding('utf8')
      child.stdout!.on('data', (chunk: string) => (out += chunk))
      while (!out.includes('ready')) await once(child.stdout!, 'data')
      expect(spawnSync('taskset', ['-p', '-c', '0', String(child.pid)]).status).toBe(0)
      child.stdin!.write('go\n')
      await once(child, 'close')
      const found = JSON.parse(out.slice(out.indexOf('{'))) as { change: string; restored: boolean }
      expect(found.change).toMatch(/^the CPUs it may run on from \S+ to 0$/)
      expect(found.restored).toBe(false)
    },
  )
})
