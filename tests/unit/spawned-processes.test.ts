// Processes a solution starts (src/engine/host/spawned-processes.ts), on real processes: in a process that is a child
// subreaper, as the device host is, a process orphaned below it becomes its child and the check names it, one waited for
// shows in the reaped children's usage, neither tsx's esbuild service nor the harness's own runs count, and every
// process below is killed. The probe runs in a process of its own, so that this test
// worker does not become a subreaper.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tsxExecArgv } from '../../src/engine/worker/process-entry.js'

const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/spawned-probe.ts')

describe('processes a solution starts', () => {
  it('are seen whether they stay (orphaned below the host) or are waited for, named in the refusal, and killed', () => {
    const seen = JSON.parse(execFileSync(process.execPath, [...tsxExecArgv(), probe], { encoding: 'utf8' })) as Record<string, unknown>
    expect(seen.subreaper).toBe('ok')
    // tsx's esbuild service, a child of the probe from its start, is the harness's own; so is what it runs and waits for.
    expect(seen.nothing).toBeUndefined()
    expect(seen.harnessOwn).toBeUndefined()
    expect(seen.waitedFor).toMatch(/^SpawnedProcess: the probe started a process and waited for it to end, found after its step\. A process of its own runs GPU work/)
    expect(seen.orphanAdopted).toBe(true)
    expect(seen.orphan).toMatch(/^SpawnedProcess: the probe started a process \(\d+ \(sleep 600\)\), found after its step\. A process of its own runs GPU work in a context/)
    expect(seen.sleeperAlive).toBe(false)
  })
})
