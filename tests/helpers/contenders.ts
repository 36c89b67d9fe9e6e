// Runs several processes of a contention fixture at once (tests/fixtures/contend-*.ts) and reads the one JSON line each
// prints when it ends: how many times it took what it contends for, and how often it found it held twice.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { expect } from 'vitest'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'

/** `count` processes of `fixture` with `args`, each report once all have exited 0. `started` hears each process. */
export async function contenderReports<Report>(fixture: string, args: string[], count: number, started: (child: ChildProcess) => void = () => {}): Promise<Report[]> {
  const runs = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    started(child)
    return child
  })
  return Promise.all(
    runs.map(async (child) => {
      let out = ''
      child.stdout!.setEncoding('utf8')
      child.stdout!.on('data', (chunk: string) => (out += chunk))
      const [code] = (await once(child, 'close')) as [number]
      expect(code).toBe(0)
      return JSON.parse(out) as Report
    }),
  )
}
