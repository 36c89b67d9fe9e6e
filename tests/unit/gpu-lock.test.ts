import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { acquireGpuLock, acquireGpuSetup, lockPath, msSinceGpuBusy, setupFolder } from '../../src/cache/gpu-lock.js'
import { tryLock } from '../../src/cache/lock-file.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { contenderReports } from '../helpers/contenders.js'
import { useScratch } from '../helpers/scratch.js'

const dir = useScratch('kb-gpu-lock-', 'all')
let file: string
const children: ChildProcess[] = []

let counter = 0
beforeEach(() => {
  file = lockPath(`0000:${++counter}:00.0`, dir())
})
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** Starts the holder fixture and resolves once it holds the lock, with the time it said it took it. */
async function startHolder(lock: string, holdMs: number, side: 'lock' | 'setup' = 'lock'): Promise<{ child: ChildProcess; lines: string[]; lockedAt: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/hold-gpu-lock.ts', lock, String(holdMs), side], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const lines: string[] = []
  const locked = new Promise<number>((resolve, reject) => {
    let buffer = ''
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      buffer += chunk
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        lines.push(line)
        if (line.startsWith('locked ')) resolve(Number(line.slice(7)))
      }
    })
    child.on('exit', (code, signal) => reject(new Error(`holder exited (${code ?? signal}) before taking the lock`)))
  })
  return { child, lines, lockedAt: await locked }
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  return child.pid!
}

describe('lockPath', () => {
  it('names the lock by PCI bus id, with characters unsafe in a file name replaced', () => {
    expect(lockPath('00000000:19:00.0', '/locks')).toBe('/locks/vitest-kernel-bench-gpu-00000000_19_00.0.lock')
    expect(lockPath('a/b', '/locks')).toBe('/locks/vitest-kernel-bench-gpu-a_b.lock')
  })

  it('defaults to the temporary folder', () => {
    expect(path.dirname(lockPath('0000:01:00.0'))).toBe(os.tmpdir())
  })
})

describe('acquireGpuLock', () => {
  it('creates the lock holding our pid, and release removes it', () => {
    const waits: string[] = []
    const release = acquireGpuLock(file, (owner) => waits.push(owner))
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    expect(waits).toEqual([])
    release()
    expect(fs.existsSync(file)).toBe(false)
    // Nothing else is left in the folder (no temporary file), but the stamp of the GPU's work ending.
    expect(fs.readdirSync(dir()).filter((f) => f.startsWith(path.basename(file)))).toEqual([`${path.basename(file)}.busy`])

    // It can be taken again once released.
    const again = acquireGpuLock(file)
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    again()
  })

  it('takes over a stale lock whose owner has exited', async () => {
    const pid = await deadPid()
    fs.writeFileSync(file, String(pid))
    const waits: string[] = []
    const release = acquireGpuLock(file, (owner) => waits.push(owner))
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    expect(waits).toEqual([])
    release()
  })

  // A device host orphaned when its worker died is a zombie until PID 1 reaps it: in a container, maybe never.
  it.runIf(process.platform === 'linux')('takes over a lock whose owner has exited but is not reaped yet (a zombie)', async () => {
    // The shell backgrounds a child, says its pid, then becomes `sleep 30`, which never waits for it. The child
    // outlives the exec (a child that ended before it might be reaped by the shell), then ends unreaped.
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(parent)
    const [line] = (await once(parent.stdout!, 'data')) as [Buffer]
    const zombie = Number(line.toString().trim())
    const state = () => fs.readFileSync(`/proc/${zombie}/stat`, 'utf8').replace(/^.*\) /s, '').charAt(0)
    while (state() !== 'Z') await new Promise((resolve) => setTimeout(resolve, 20))
    expect(state()).toBe('Z')
    expect(() => process.kill(zombie, 0)).not.toThrow()
    fs.writeFileSync(file, String(zombie))
    const waits: string[] = []
    const release = acquireGpuLock(file, (owner) => waits.push(owner), 0)
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    expect(waits).toEqual([])
    release()
  })

  it.each(['', 'not a pid', '-5', '0', '12.5'])('takes over a lock file holding %j', (content) => {
    fs.writeFileSync(file, content)
    const release = acquireGpuLock(file)
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    release()
  })

  it('takes over the lock of a holder that was killed without releasing it', async () => {
    const holder = await startHolder(file, 60_000)
    expect(fs.readFileSync(file, 'utf8')).toBe(String(holder.child.pid))
    holder.child.kill('SIGKILL')
    await once(holder.child, 'exit')
    expect(fs.existsSync(file)).toBe(true) // left behind

    const waits: string[] = []
    const release = acquireGpuLock(file, (owner) => waits.push(owner))
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    expect(waits).toEqual([])
    release()
  })

  it('waits while a live process holds the lock, telling onWait its pid once, until the holder releases it', async () => {
    const holdMs = 1500
    const holder = await startHolder(file, holdMs)
    const waits: string[] = []
    const started = Date.now()
    const release = acquireGpuLock(file, (owner) => waits.push(owner), 0)
    const acquiredAt = Date.now()
    expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid))
    release()

    await expectWaitedFor(holder, acquiredAt, waits)
    expect(acquiredAt - started).toBeGreaterThanOrEqual(holdMs - (started - holder.lockedAt) - 50)
  })

  it('says nothing of a wait shorter than the notice time (another worker of the run using the GPU for a moment)', async () => {
    const holder = await startHolder(file, 500)
    const waits: string[] = []
    // A notice time far above the holder's 500 ms, so a slow machine cannot stretch the wait past it.
    const release = acquireGpuLock(file, (owner) => waits.push(owner), 600_000)
    release()
    await once(holder.child, 'close')
    expect(waits).toEqual([])
  })
})

/** Waits for the holder to end; we took the lock only after it began to let go of it, and it said whom we waited for. */
async function expectWaitedFor(holder: { child: ChildProcess; lines: string[] }, acquiredAt: number, waits: string[]): Promise<void> {
  const [code] = (await once(holder.child, 'close')) as [number | null]
  expect(code).toBe(0)
  expect(waits).toEqual([String(holder.child.pid)])
  const releasing = holder.lines.find((line) => line.startsWith('releasing '))
  expect(releasing).toBeDefined()
  expect(acquiredAt).toBeGreaterThanOrEqual(Number(releasing!.slice(10)))
}

describe('msSinceGpuBusy', () => {
  it('is Infinity before anyone let go of the lock, then counts from the last release', () => {
    expect(msSinceGpuBusy(file)).toBe(Infinity)
    const release = acquireGpuLock(file)
    expect(msSinceGpuBusy(file)).toBe(Infinity) // held, not yet let go
    const before = Date.now()
    release()
    const since = msSinceGpuBusy(file)
    expect(since).toBeGreaterThanOrEqual(-50) // file times and Date.now() may differ by a clock tick
    expect(since).toBeLessThanOrEqual(Date.now() - before + 50)
  })

  it('lets go of the lock also when the stamp cannot be written (another user\'s stamp file)', () => {
    fs.mkdirSync(`${file}.busy`) // a folder where the stamp file would be: writing it fails, as on another user's file
    const release = acquireGpuLock(file)
    expect(() => release()).not.toThrow()
    expect(fs.existsSync(file)).toBe(false)
  })

  it('is not stamped by a set-up, which does no timed work', () => {
    acquireGpuSetup(file)()
    expect(msSinceGpuBusy(file)).toBe(Infinity)
  })
})

describe('the shared side (a context\'s set-up)', () => {
  it('leaves a marker named by our pid while held, and nothing once released', () => {
    const release = acquireGpuSetup(file)
    expect(fs.readdirSync(setupFolder(file))).toEqual([String(process.pid)])
    // Any user's runs may add markers, as in the temporary folder; only a marker's owner may remove it.
    expect(fs.statSync(setupFolder(file)).mode & 0o7777).toBe(0o1777)
    release()
    expect(fs.readdirSync(setupFolder(file))).toEqual([])
  })

  it('does not wait for another process setting up', async () => {
    const other = await startHolder(file, 60_000, 'setup')
    const waits: string[] = []
    const release = acquireGpuSetup(file, (owner) => waits.push(owner), 0)
    expect(waits).toEqual([])
    expect(fs.readdirSync(setupFolder(file)).sort()).toEqual([String(other.child.pid), String(process.pid)].sort())
    release()
  })

  it.each([
    ['waits while a live process holds the lock, until it lets go', 'lock', acquireGpuSetup],
    ['keeps the lock waiting until the set-up ends', 'setup', acquireGpuLock],
  ] as const)('%s', async (_, held, acquire) => {
    const holder = await startHolder(file, 1000, held)
    const waits: string[] = []
    const release = acquire(file, (owner) => waits.push(owner), 0)
    const acquiredAt = Date.now()
    release()
    await expectWaitedFor(holder, acquiredAt, waits)
  })

  it('lets the lock pass the marker of a process that is gone, and removes it', async () => {
    fs.mkdirSync(setupFolder(file), { recursive: true })
    const marker = path.join(setupFolder(file), String(await deadPid()))
    fs.writeFileSync(marker, '')
    const waits: string[] = []
    const release = acquireGpuLock(file, (owner) => waits.push(owner), 0)
    expect(waits).toEqual([])
    expect(fs.existsSync(marker)).toBe(false)
    release()
  })

  it('never overlaps a hold of the lock, across processes taking either side as fast as they can', async () => {
    const witnesses = path.join(dir(), 'witnesses')
    const reports = await contenderReports<{ exclusive: number; setups: number; overlaps: number }>(
      'tests/fixtures/contend-gpu-lock.ts',
      [file, witnesses, '2000'],
      3,
      (child) => children.push(child),
    )
    expect(reports.reduce((sum, r) => sum + r.exclusive, 0)).toBeGreaterThan(0)
    expect(reports.reduce((sum, r) => sum + r.setups, 0)).toBeGreaterThan(0)
    expect(reports.map((r) => r.overlaps)).toEqual([0, 0, 0])
  })
})

describe('tryLock', () => {
  const root = process.getuid?.() === 0
  // Another user's stale lock in a sticky temporary folder cannot be removed: before, tryLock spun on it for ever.
  it('fails, naming the file, on a stale lock it cannot remove', async () => {
    fs.writeFileSync(file, String(await deadPid()))
    // A folder where the lock is moved aside to be judged: the move fails, as it does on another user's lock.
    fs.mkdirSync(path.join(`${file}.${process.pid}.stale`, 'in-the-way'), { recursive: true })
    expect(() => tryLock(file)).toThrow(`the lock file ${file} cannot be removed`)
  })

  // Root reads any file, so only another user can meet a lock it may not read.
  it.skipIf(root)(`fails on a lock file it may not read, instead of trying again for ever${root ? ' (skipped: root may read any file)' : ''}`, () => {
    fs.writeFileSync(file, '12345')
    fs.chmodSync(file, 0o000)
    expect(() => tryLock(file)).toThrow(/EACCES/)
    fs.chmodSync(file, 0o644)
  })
})
