// Runs the package's CLI from source, as `npx tsx src/cli/cli.ts` would, without npx's own start-up (about 0.7 s a
// run on a busy 2-core machine).
import { spawnSync } from 'node:child_process'
import { tsxExecArgv } from '../../src/engine/worker/process-entry.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'

export function runCli(...args: string[]) {
  return spawnSync(process.execPath, [...tsxExecArgv(), 'src/cli/cli.ts', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' })
}
