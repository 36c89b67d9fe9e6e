// The order in which the waiting workers of one run take a GPU that comes free: most GPU work left first. Without it
// the worker that polls first takes the GPU, every bench file gets about an equal share of the GPUs, and the file
// with the most work left (many small benches, which run one after another) ends the run alone on one GPU while
// the others stand idle. A waiter enters the GPU time its bench file is expected to need still in a folder of the
// run, and leaves a free GPU to any live waiter with more that would take that GPU at once.
import fs from 'node:fs'
import path from 'node:path'
import { isLive } from '../../cache/lock-file.js'

/** A place in the queue, held while a case waits for a GPU. */
export interface QueueTicket {
  /** The GPUs that a live waiter with more work left would take at once, looked up now. */
  outrankedOn(): Set<number>
  leave(): void
}

/** A waiter's entry, parsed from its file name: `<work left, ms>_<pid>_<sequence>_<GPU>.<GPU>…`. */
interface Entry {
  workLeftMs: number
  pid: number
  gpus: number[]
}

let sequence = 0

function parseEntry(name: string): Entry | undefined {
  const [work, pid, , gpus] = name.split('_')
  const entry = { workLeftMs: Number(work), pid: Number(pid), gpus: (gpus ?? '').split('.').filter(Boolean).map(Number) }
  const valid = Number.isFinite(entry.workLeftMs) && Number.isInteger(entry.pid) && entry.gpus.every(Number.isInteger)
  return valid ? entry : undefined
}

/** The ticket of a waiter that is in no queue: it outranks nobody and nobody outranks it. */
const NO_QUEUE: QueueTicket = { outrankedOn: () => new Set(), leave: () => undefined }

/**
 * Enters a waiter in the queue folder `dir` (made inside the run's folder, which must exist) with `workLeftMs`, for
 * the GPUs it would take as soon as they are free (`eagerFor`: not those it yields to other benches, see gpu-pool.ts).
 * Waiters with equal work take GPUs as they come. Once the run's folder is gone (the run is ending), nobody queues.
 */
export function joinQueue(dir: string, workLeftMs: number, eagerFor: readonly number[]): QueueTicket {
  const mine = Math.round(workLeftMs)
  const file = path.join(dir, `${mine}_${process.pid}_${sequence++}_${eagerFor.join('.')}`)
  try {
    fs.mkdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return NO_QUEUE
  }
  try {
    fs.writeFileSync(file, '')
  } catch {
    return NO_QUEUE
  }
  return {
    outrankedOn() {
      const gpus = new Set<number>()
      let names: string[]
      try {
        names = fs.readdirSync(dir)
      } catch {
        return gpus // the run is ending: its folder is gone
      }
      for (const other of names) {
        const entry = parseEntry(other)
        // A waiter killed while it waited left its entry: only a live one counts.
        if (!entry || entry.workLeftMs <= mine || !isLive(entry.pid)) continue
        for (const gpu of entry.gpus) gpus.add(gpu)
      }
      return gpus
    },
    leave() {
      fs.rmSync(file, { force: true })
    },
  }
}
