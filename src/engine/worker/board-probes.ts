// The board probe's time (src/engine/host/board-probe.ts), measured once per board in a run and named with every case
// the board times: the first worker to time a case on a board measures it, under its claim of the GPU, and leaves it
// in the run's folder (host-registry.ts) for the run's other workers. Outside a run, once per worker.
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../../cache/atomic-write.js'
import type { BoardProbeOutcome } from '../../shared/messages.js'
import { RUN_DIR_ENV } from './host-registry.js'

const FOLDER = 'board-probes'

/** What the probe's file in a run's folder holds: its time, or none where it could not be kept (a throttled clock). */
interface ProbeFile {
  ms?: number
}

function probeFile(board: string): string | undefined {
  const runDir = process.env[RUN_DIR_ENV]
  return runDir ? path.join(runDir, FOLDER, `${board.replace(/[^\w.-]+/g, '_')}.json`) : undefined
}

function readProbe(file: string): ProbeFile | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ProbeFile
  } catch {
    return undefined
  }
}

const measured = new Map<string, Promise<number | undefined>>()

/**
 * The probe's time on `board` (its UUID) in this run, measured by `measure` where no worker has yet; undefined where it
 * could not be kept or the host failed to measure it (the gate then takes boards' kinds as unknown). Call it while the
 * GPU is claimed: the probe is GPU work.
 */
export function boardProbeMs(board: string, measure: () => Promise<BoardProbeOutcome>): Promise<number | undefined> {
  let probe = measured.get(board)
  if (probe === undefined) {
    probe = (async () => {
      const file = probeFile(board)
      const found = file === undefined ? undefined : readProbe(file)
      if (found) return found.ms
      const outcome = await measure()
      if (outcome.status !== 'ok') return undefined
      if (file !== undefined) writeFileAtomic(file, JSON.stringify({ ...(outcome.ms !== undefined && { ms: outcome.ms }) } satisfies ProbeFile))
      return outcome.ms
    })()
    measured.set(board, probe)
  }
  return probe
}
