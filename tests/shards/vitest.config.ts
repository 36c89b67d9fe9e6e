// The sharded-run fixture: two small bench files that scripts/record-shard-blobs.sh runs whole and as two shards,
// and tests/unit/shard-merge.test.ts merges. The project's configuration otherwise. Baselines go where
// KERNELBENCH_SHARD_BASELINES says (the script keeps them next to the blobs), with a tolerance wide enough that the
// noise between the recorded runs never reads as a regression.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'
import { kernelBenchPlugin } from '../../src/plugin.js'

const benches = ['tests/shards/*.bench.ts']

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  plugins: [kernelBenchPlugin({ baseline: { dir: process.env.KERNELBENCH_SHARD_BASELINES || 'tests/shards/__kernelbench__', tolerance: 1 } })],
  // Replaces the include lists (mergeConfig would append to them).
  test: { ...base.test, include: benches, benchmark: { include: benches } },
})
