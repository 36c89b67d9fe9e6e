// Device hosts whose processes are stand-ins (tests/fixtures/stand-in-host.ts) that speak the host's protocol without
// a GPU and misbehave as told, for the worker's side of the host (src/engine/worker/client.ts).
import path from 'node:path'
import { afterEach } from 'vitest'
import { DeviceHost } from '../../src/engine/worker/client.js'
import { tsxExecArgv } from '../../src/engine/worker/process-entry.js'
import type { CasePlan } from '../../src/shared/messages.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'

const standIn = { file: path.join(PACKAGE_ROOT, 'tests/fixtures/stand-in-host.ts'), execArgv: tsxExecArgv() }
const hosts: DeviceHost[] = []

afterEach(() => {
  for (const host of hosts.splice(0)) host.close()
  delete process.env.KB_STAND_IN
  delete process.env.KB_STAND_IN_OWNER
})

/**
 * A DeviceHost whose processes are stand-ins behaving as `behaviour` (the environment is read when one starts), closed
 * after the test.
 */
export function standInHost(behaviour: string, extra: Record<string, string> = {}): DeviceHost {
  Object.assign(process.env, { KB_STAND_IN: behaviour, ...extra })
  const host = new DeviceHost({ device: 0, cacheDir: '/nonexistent' }, standIn)
  hosts.push(host)
  return host
}

/** A case for a stand-in host: only its name, solution and time limit matter there. */
export function plan(caseName: string, caseTimeoutMs = 60_000): CasePlan {
  return {
    caseName,
    solution: { library: '/stand-in/solution.so', symbol: 'solution' },
    options: { ...DEFAULT_MEASURE_OPTIONS, caseTimeoutMs },
  } as unknown as CasePlan
}
