// A solution that starts an MPS control daemon (tests/fixtures/solutions/state/start_mps_daemon.cu): every CUDA process
// started after it would run as a client of the MPS server, so its case is refused, saying how to stop the daemon, and
// so is every later case of the worker while it runs. A file of its own: the daemon is this worker's state. Its pipe and
// log live in a folder of the test's own (CUDA_MPS_PIPE_DIRECTORY, CUDA_MPS_LOG_DIRECTORY, which the worker's device
// hosts inherit), and the test stops the daemon after. Skipped, with the reason, where no GPU is usable or
// nvidia-cuda-mps-control is not on PATH.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import { failureMessage, type KernelBenchResult } from '../../src/shared/results.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { gpu } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const cases = [{ name: 'n = 2^20', params: { n: 2 ** 20 } }]

function bench(solution: string): Promise<KernelBenchResult> {
  const spec: KernelBenchSpec = { problem: vectorAddition, solution, cases, maxTimeMs: 200 }
  return runKernelBench('mps', spec, { file, mode: 'bench', settings })
}

/** The MPS daemon and servers whose pipe folder is `folder`. */
function processesOfDaemon(folder: string): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').startsWith('nvidia-cuda-mps')) return []
      return fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`CUDA_MPS_PIPE_DIRECTORY=${folder}`) ? [Number(entry)] : []
    } catch {
      return [] // not a process, or gone
    }
  })
}

const hasMpsControl = spawnSync('sh', ['-c', 'command -v nvidia-cuda-mps-control']).status === 0
const skipReason = !gpu.available ? gpu.reason : hasMpsControl ? undefined : 'nvidia-cuda-mps-control is not on PATH'

describe.skipIf(skipReason !== undefined)(`a solution that starts an MPS daemon${skipReason ? ` (skipped: ${skipReason})` : ''}`, { timeout: 300_000 }, () => {
  let folder = ''
  let pipe = ''

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-mps-'))
    pipe = path.join(folder, 'control')
    process.env.CUDA_MPS_PIPE_DIRECTORY = folder
    process.env.CUDA_MPS_LOG_DIRECTORY = folder
  })

  afterAll(() => {
    // `quit` waits for the server's clients, this worker's device hosts among them, so it may not return: what is left
    // of the daemon and its server (found by the pipe folder in their environment) is killed.
    if (fs.existsSync(pipe)) spawnSync('nvidia-cuda-mps-control', [], { input: 'quit\n', env: process.env, timeout: 10_000 })
    for (const pid of processesOfDaemon(folder)) process.kill(pid, 'SIGKILL')
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it('start_mps_daemon.cu is refused, saying how to stop it; the honest add after it is refused while the daemon runs', async (context) => {
    const started = failureMessage(await bench('../fixtures/solutions/state/start_mps_daemon.cu'))
    if (!fs.existsSync(pipe)) context.skip(`nvidia-cuda-mps-control -d started no daemon here (the case: ${started ?? 'passed'})`)
    expect(started).toContain(`an MPS control daemon started (its pipe ${pipe} appeared)`)
    expect(started).toContain('echo quit | nvidia-cuda-mps-control')
    expect(failureMessage(await bench('../../problems/vector-addition/solutions/vector_add.cu'))).toContain(
      `WorkerStateChanged: before this case, something changed this Vitest worker's scheduling: an MPS control daemon started`,
    )
  })
})
