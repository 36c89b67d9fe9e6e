// Runs the package's CLI from source, as the CLI tests do.
import { spawnSync } from 'node:child_process'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'

export function runCli(...args: string[]) {
  return spawnSync('npx', ['tsx', 'src/cli/cli.ts', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' })
}
