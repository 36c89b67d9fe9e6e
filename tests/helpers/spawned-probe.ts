// A process that stands for a device host in tests/unit/spawned-processes.test.ts: it becomes a child subreaper as the
// host does and starts the watch, then checks for processes started, as the host does after a request, after each of:
// nothing; a process the harness starts and waits for; one the "solution" starts and waits for; a shell that starts
// `sleep` in the background and exits (the sleep is orphaned, and becomes this process's child). Then it kills every
// process below it and prints what it saw as JSON. Run through tsx, it also has tsx's esbuild service as a child, which
// the checks must not count.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { becomeChildSubreaper } from '../../src/native/process-tree.js'
import { checkNoProcessesStarted, childProcesses, harnessProcesses, killDescendants, watchProcessesFromNow } from '../../src/engine/host/spawned-processes.js'

const live = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
const refusal = () => {
  try {
    checkNoProcessesStarted('the probe', 'after its step')
    return undefined
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
}

const subreaper = becomeChildSubreaper()
watchProcessesFromNow()
const nothing = refusal()
harnessProcesses(() => spawnSync('true'))
const harnessOwn = refusal()
spawnSync('true')
const waitedFor = refusal()
const started = spawnSync('sh', ['-c', 'sleep 600 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' })
const sleeper = Number(started.stdout.trim())
const orphanAdopted = (childProcesses() ?? []).includes(sleeper)
const orphan = refusal()
killDescendants()
// SIGKILL is delivered at once, but a process is gone only once the kernel has torn it down.
const deadline = Date.now() + 5000
while (live(sleeper) && Date.now() < deadline) spawnSync('sleep', ['0.05'])
console.log(JSON.stringify({ subreaper: subreaper ?? 'ok', nothing, harnessOwn, waitedFor, orphanAdopted, orphan, sleeperAlive: live(sleeper) }))
