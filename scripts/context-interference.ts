// Whether another process making and tearing down its CUDA context disturbs a kernel timed meanwhile: a 64 MB fill
// and an sgemm timed with events for a few seconds each, with nothing else on the GPU, beside processes that only
// initialize the runtime (as a device host on standby does), and beside processes that make a context, allocate and
// exit, one after another (four chains at once).
//   tsx scripts/context-interference.ts [seconds a phase, default 8]
//   tsx scripts/context-interference.ts child init|context   (internal)
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileHarness } from '../src/compile/harness.js'
import { archForComputeCapability } from '../src/compile/nvcc.js'
import * as cublas from '../src/native/cublas.js'
import * as cuda from '../src/native/cuda.js'
import { Harness } from '../src/native/harness.js'

const self = fileURLToPath(import.meta.url)
const cacheDir = path.join(path.dirname(self), '..', 'node_modules/.cache/vitest-kernel-bench')

if (process.argv[2] === 'child') {
  cuda.gpuIdentity(0)
  if (process.argv[3] === 'context') {
    cuda.setDevice(0)
    const bytes = 256 << 20
    const ptr = cuda.malloc(bytes)
    cuda.memsetAsync(ptr, 0, bytes)
    cuda.synchronize()
  }
  process.exit(0)
} else {
  const seconds = Number(process.argv[2] ?? 8)
  const { computeCapability } = cuda.gpuIdentity(0)
  const harness = new Harness(compileHarness({ arch: archForComputeCapability(computeCapability), cacheDir }).path)
  cuda.setDevice(0)
  const count = 1 << 24
  const fill = cuda.malloc(count * 4)
  const n = 1024
  const [a, b, c] = [cuda.malloc(n * n * 4), cuda.malloc(n * n * 4), cuda.malloc(n * n * 4)] as const
  const [start, end] = [cuda.eventCreate(), cuda.eventCreate()]
  const kernels = { fill: () => harness.fillUniform(fill, count, 'float32', 1, -1, 1), sgemm: () => cublas.sgemm(a, b, c, n, n, n) }
  for (const run of Object.values(kernels)) for (let i = 0; i < 50; i++) run()
  cuda.synchronize()

  let chains: Promise<void>[] = []
  let stop = false
  const disturb = (mode: 'init' | 'context') => {
    stop = false
    const chain = async () => {
      let made = 0
      while (!stop) {
        const child: ChildProcess = fork(self, ['child', mode], { execArgv: process.execArgv, stdio: 'inherit' })
        await once(child, 'exit')
        made++
      }
      console.log(`  a chain ran ${made} processes`)
    }
    chains = Array.from({ length: 4 }, chain)
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500))
  const phase = async (name: string) => {
    const samples: Record<string, number[]> = { fill: [], sgemm: [] }
    const until = performance.now() + seconds * 1000
    while (performance.now() < until) {
      for (const [kernel, run] of Object.entries(kernels)) {
        cuda.eventRecord(start)
        run()
        cuda.eventRecord(end)
        cuda.synchronize()
        samples[kernel]!.push(cuda.eventElapsedMs(start, end) * 1000)
      }
      // Let the event loop run the chains' forks and exits.
      await new Promise((resolve) => setImmediate(resolve))
    }
    for (const [kernel, list] of Object.entries(samples)) {
      const sorted = [...list].sort((x, y) => x - y)
      const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
      const median = q(0.5)
      const over = (f: number) => ((100 * sorted.filter((x) => x > median * f).length) / sorted.length).toFixed(2)
      console.log(`${name.padEnd(28)} ${kernel.padEnd(6)} n=${sorted.length} median ${median.toFixed(2)} µs, p99 ${q(0.99).toFixed(2)}, p99.9 ${q(0.999).toFixed(2)}, max ${sorted.at(-1)!.toFixed(1)}; over 1.02×: ${over(1.02)}%, over 1.1×: ${over(1.1)}%, over 2×: ${over(2)}%`)
    }
  }
  await phase('quiet')
  disturb('init')
  await settle()
  await phase('beside runtime inits')
  stop = true
  await Promise.all(chains)
  disturb('context')
  await settle()
  await phase('beside contexts made, freed')
  stop = true
  await Promise.all(chains)
  await phase('quiet again')
}
