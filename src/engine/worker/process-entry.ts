// The engine's modules that run as processes of their own, on the device host's side (src/engine/host/): the device
// host, the region host (the memory both sides of a paired case share), the launcher of the calibration kernels that
// Nsight Compute watches, and the GPU-less import check of a TypeScript solution. Running from TypeScript sources (this
// repository) they need tsx; the published build is plain JS.
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export type EngineProcess = 'host' | 'region-host' | 'calibration-launches' | 'solution-check'

/** The module's file, and the arguments Node needs before it. */
export function engineProcess(name: EngineProcess): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url)
  const file = path.join(path.dirname(self), '..', 'host', `${name}${path.extname(self)}`)
  return { file, execArgv: self.endsWith('.js') ? [] : tsxExecArgv() }
}

/** What Node needs before the path of a TypeScript module to run it: tsx's loader. */
export function tsxExecArgv(): string[] {
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href]
}
