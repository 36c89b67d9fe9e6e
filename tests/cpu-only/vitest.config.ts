// CPU-only CI on purpose-broken benches: tests/unit/cpu-only.test.ts runs `vitest run` and `vitest bench` with this
// configuration on a machine with nvcc and no GPU. The project's configuration otherwise, with the plugin's defaults.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'
import { kernelBenchPlugin } from '../../src/plugin.js'

const benches = ['tests/cpu-only/*.bench.ts']

export default defineConfig({
  ...base,
  // The plugin's defaults: the project's own configuration turns the compile checks without a GPU off.
  plugins: [kernelBenchPlugin()],
  root: fileURLToPath(new URL('../..', import.meta.url)),
  // Replaces the include lists (mergeConfig would append to them).
  test: { ...base.test, include: benches, reporters: ['default'], benchmark: { include: benches } },
})
