// What starting and ending a device host costs, step by step, on the GPU machine: the steps a host takes to open its
// session (in the order open-session.ts and the first case take them) timed in this process, then the exit of a
// process that holds a context, ended normally or by SIGKILL.
//   tsx scripts/host-start-cost.ts            the steps, then the exits (run it twice: the first run may compile)
//   tsx scripts/host-start-cost.ts hold MODE   (internal) open a context with a buffer and a cuBLAS call, say so, and
//                                             exit on a message: MODE 'exit' (process.exit) or 'kill' (SIGKILL itself)
import { fork } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileCuptiShim } from '../src/compile/cupti-shim.js'
import { compileHarness } from '../src/compile/harness.js'
import { archForComputeCapability } from '../src/compile/nvcc.js'
import * as cublas from '../src/native/cublas.js'
import * as cuda from '../src/native/cuda.js'
import { Cupti } from '../src/native/cupti.js'
import { Harness } from '../src/native/harness.js'
import { NvmlDevice } from '../src/native/nvml.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cacheDir = path.join(root, 'node_modules/.cache/vitest-kernel-bench')
const self = fileURLToPath(import.meta.url)

function step<T>(name: string, work: () => T): T {
  const start = performance.now()
  const value = work()
  console.log(`${name.padEnd(44)} ${(performance.now() - start).toFixed(1).padStart(8)} ms`)
  return value
}

function openContextWithWork(): void {
  cuda.setDevice(0)
  const n = 1024
  const [a, b, c] = [cuda.malloc(n * n * 4), cuda.malloc(n * n * 4), cuda.malloc(n * n * 4)] as const
  cublas.sgemm(a, b, c, n, n, n)
  cuda.synchronize()
}

function cuptiStartAndStop(cupti: Cupti, which: string): void {
  step(`CUPTI activity started, ${which} time`, () => cupti.start())
  step(`CUPTI activity stopped, ${which} time`, () => cupti.stop())
}

if (process.argv[2] === 'cupti-before-context') {
  const arch = archForComputeCapability(cuda.gpuIdentity(0).computeCapability)
  const cupti = new Cupti(compileCuptiShim({ arch, cacheDir }).path)
  console.log('-- a process that starts and stops CUPTI before its context:')
  cuptiStartAndStop(cupti, 'no context yet, first')
  step('context created (setDevice, cudaFree(0))', () => {
    cuda.setDevice(0)
    cuda.free(0n)
  })
  cuptiStartAndStop(cupti, 'with the context, first')
  cuptiStartAndStop(cupti, 'with the context, second')
} else if (process.argv[2] === 'hold') {
  openContextWithWork()
  process.send?.('ready')
  process.once('message', () => {
    if (process.argv[3] === 'kill') process.kill(process.pid, 'SIGKILL')
    else process.exit(0)
  })
} else {
  const identity = step('runtime init, device identity (no context)', () => cuda.gpuIdentity(0))
  const arch = archForComputeCapability(identity.computeCapability)
  const build = { arch, cacheDir }
  const harness = step('harness library (built or found in the cache)', () => compileHarness(build))
  step('NVML init and device handle', () => NvmlDevice.open(identity.pciBusId))
  const harnessLib = step('harness library loaded (dlopen)', () => new Harness(harness.path))
  step('context created (setDevice, cudaFree(0))', () => {
    cuda.setDevice(0)
    cuda.free(0n)
  })
  step('device info', () => cuda.deviceInfo(0))
  const n = 1024
  const [a, b, c] = step('three 4 MB buffers', () => [cuda.malloc(n * n * 4), cuda.malloc(n * n * 4), cuda.malloc(n * n * 4)] as const)
  step('first harness kernel (lazy module load)', () => {
    harnessLib.fillUniform(a, n * n, 'float32', 1, -1, 1)
    cuda.synchronize()
  })
  step('cuBLAS loaded (dlopen, no context)', () => cublas.loadCublas())
  step('first cuBLAS sgemm (handle, lazy kernel load)', () => {
    cublas.sgemm(a, b, c, n, n, n)
    cuda.synchronize()
  })
  step('second cuBLAS sgemm', () => {
    cublas.sgemm(a, b, c, n, n, n)
    cuda.synchronize()
  })
  const shim = step('CUPTI shim (built or found, toolkit root by nvcc)', () => compileCuptiShim(build))
  const cupti = step('CUPTI shim loaded (dlopen)', () => new Cupti(shim.path))
  cuptiStartAndStop(cupti, 'first')
  cuptiStartAndStop(cupti, 'second')
  // The same in a process that started and stopped CUPTI before it had a context (as a host on standby could).
  const early = fork(self, ['cupti-before-context'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  await once(early, 'exit')

  for (const mode of ['exit', 'kill', 'exit', 'kill']) {
    const child = fork(self, ['hold', mode], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const spawned = performance.now()
    await once(child, 'message')
    const ready = performance.now()
    const exited = once(child, 'exit')
    child.send('go')
    await exited
    console.log(`host-like process (${mode}): start to context and sgemm ${(ready - spawned).toFixed(0)} ms, exit ${(performance.now() - ready).toFixed(0)} ms`)
  }
}
