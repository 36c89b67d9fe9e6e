// Whether CUDA contexts on one GPU are made, and torn down, side by side or one after another, and what the teardown of
// processes that worked (memory, cuBLAS, CUPTI activity on) does to the making of new contexts beside it: what a paired
// A/B run's host starts cost turns on it (four device hosts a solution, docs/ci-gate.md).
//   tsx scripts/context-concurrency.ts [counts, default "1 2 4 8"]
//   tsx scripts/context-concurrency.ts child   (internal)
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileCuptiShim } from '../src/compile/cupti-shim.js'
import { archForComputeCapability } from '../src/compile/nvcc.js'
import * as cublas from '../src/native/cublas.js'
import * as cuda from '../src/native/cuda.js'
import { Cupti } from '../src/native/cupti.js'

const self = fileURLToPath(import.meta.url)
const cacheDir = path.join(path.dirname(self), '..', 'node_modules/.cache/vitest-kernel-bench')
const now = () => performance.timeOrigin + performance.now()

/** What an old process does with its context before it exits: nothing, or work as a device host's. */
type Work = 'none' | 'host-like'

if (process.argv[2] === 'child') {
  const { computeCapability } = cuda.gpuIdentity(0)
  const cupti = new Cupti(compileCuptiShim({ arch: archForComputeCapability(computeCapability), cacheDir }).path)
  process.send?.({ type: 'loaded' })
  process.on('message', (message: { type: string; work?: Work }) => {
    if (message.type === 'create') {
      const start = now()
      cuda.setDevice(0)
      cuda.free(0n)
      const made = now()
      if (message.work === 'host-like') {
        cupti.start()
        const n = 2048
        const [a, b, c] = [cuda.malloc(n * n * 4), cuda.malloc(n * n * 4), cuda.malloc(n * n * 4)] as const
        for (let i = 0; i < 200; i++) cuda.malloc(1 << 20)
        const big = cuda.malloc(4 * 2 ** 30)
        cuda.memsetAsync(big, 0, 4 * 2 ** 30)
        cublas.sgemm(a, b, c, n, n, n)
        cuda.synchronize()
      }
      process.send?.({ type: 'created', start, made, end: now() })
    } else process.exit(0)
  })
} else {
  const spawn = async (count: number) => {
    const children = Array.from({ length: count }, () => fork(self, ['child'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }))
    await Promise.all(children.map((child) => once(child, 'message')))
    return children
  }
  const create = async (children: ChildProcess[], work: Work = 'none') => {
    const sent = now()
    const answers = children.map((child) => once(child, 'message').then(([m]) => m as { start: number; made: number; end: number }))
    for (const child of children) child.send({ type: 'create', work })
    const times = await Promise.all(answers)
    return `${(Math.max(...times.map((t) => t.made)) - sent).toFixed(0)} ms wall (each: ${times.map((t) => (t.made - t.start).toFixed(0)).join(' ')} ms)`
  }
  const exit = async (children: ChildProcess[]) => {
    const sent = now()
    const exits = children.map((child) => once(child, 'exit'))
    for (const child of children) child.send({ type: 'exit' })
    await Promise.all(exits)
    return `${(now() - sent).toFixed(0)} ms`
  }
  const counts = (process.argv[2] ?? '1 2 4 8').split(' ').map(Number)
  for (const count of counts) {
    const children = await spawn(count)
    const made = await create(children)
    console.log(`${count} at once: contexts made in ${made}; exited in ${await exit(children)}`)
  }
  /** `count` old processes that made a context and did `work`, and `count` fresh ones loaded beside them. */
  const oldAndFresh = async (count: number, work: Work) => {
    const old = await spawn(count)
    await create(old, work)
    return { old, fresh: await spawn(count) }
  }
  for (const count of counts) {
    for (const work of ['none', 'host-like'] as const) {
      {
        const { old, fresh } = await oldAndFresh(count, work)
        const exiting = exit(old)
        const beside = await create(fresh)
        console.log(`${count} made while ${count} that did ${work} exit: made in ${beside}; the old ones exited in ${await exiting}`)
        await exit(fresh)
      }
      {
        const { old, fresh } = await oldAndFresh(count, work)
        const before = await exit(old)
        console.log(`${count} made after ${count} that did ${work} exited (in ${before}): made in ${await create(fresh)}`)
        await exit(fresh)
      }
      {
        const { old, fresh } = await oldAndFresh(count, work)
        const alive = await create(fresh)
        console.log(`${count} made while ${count} that did ${work} stay: made in ${alive}; the old ones then exited in ${await exit(old)}`)
        await exit(fresh)
      }
    }
  }
}
