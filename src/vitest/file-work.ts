// How much GPU time a bench file still needs in this run, so that the run's workers waiting for a GPU serve the file
// with the most left first (src/engine/worker/claim-queue.ts): the time its cases held a GPU in the file's last run,
// less what they have held in this run so far. Kept per file and mode in the cache directory. A file with no earlier
// run has no estimate, and its cases take GPUs as they come. An estimate only orders the waits: no result depends on it.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../cache/atomic-write.js'

/** What the cache keeps of a file's last run. */
interface StoredWork {
  file: string
  mode: string
  claimedMs: number
}

export class FileWork {
  private heldMs = 0

  constructor(
    private readonly store: string,
    private readonly stored: Omit<StoredWork, 'claimedMs'>,
    private readonly expectedMs: number | undefined,
  ) {}

  /** The GPU time the file is expected to hold still; undefined when it has no earlier run. */
  leftMs(): number | undefined {
    return this.expectedMs === undefined ? undefined : Math.max(0, this.expectedMs - this.heldMs)
  }

  /** Counts the time a case of the file held its GPU. */
  add(claimedMs: number): void {
    this.heldMs += claimedMs
  }

  /** Keeps what the file's cases have held so far as the next run's estimate (a bench at a time). */
  save(): void {
    try {
      writeFileAtomic(this.store, JSON.stringify({ ...this.stored, claimedMs: this.heldMs } satisfies StoredWork))
    } catch {
      // An estimate not kept costs the next run its order of waits, nothing else.
    }
  }
}

/** The stored GPU time of the file's last run in `mode`, or undefined when none is kept (or it cannot be read). */
function readStored(store: string, file: string, mode: string): number | undefined {
  try {
    const stored = JSON.parse(fs.readFileSync(store, 'utf8')) as Partial<StoredWork>
    const usable = stored.file === file && stored.mode === mode && typeof stored.claimedMs === 'number' && stored.claimedMs > 0
    return usable ? stored.claimedMs : undefined
  } catch {
    return undefined
  }
}

const works = new Map<string, FileWork>()

/**
 * The file's work in this process (one per file and mode: every bench of the file adds to it). `mode`: what its cases
 * do ('bench', 'verify', 'bench+compare'), which sets how long they hold a GPU.
 */
export function fileWork(cacheDir: string, file: string, mode: string): FileWork {
  const key = `${cacheDir}\0${mode}\0${file}`
  let work = works.get(key)
  if (!work) {
    const store = path.join(cacheDir, 'file-work', `${createHash('sha256').update(`${mode}\0${file}`).digest('hex').slice(0, 24)}.json`)
    work = new FileWork(store, { file, mode }, readStored(store, file, mode))
    works.set(key, work)
  }
  return work
}
