// The Vitest config of the entries that ../glue.test.ts runs, lists and watches.
import { defineConfig } from 'vitest/config'
import { kernelBenchPlugin } from 'vitest-kernel-bench/plugin'

const include = ['**/*.kernel.ts']

export default defineConfig({
  plugins: [kernelBenchPlugin()],
  // allowOnly: the .only entries stay .only under CI, where Vitest would fail them instead.
  test: { include, benchmark: { include }, allowOnly: true },
})
