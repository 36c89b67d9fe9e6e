import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { kernelBenchPlugin } from './src/plugin.js'

const local = (path: string) => fileURLToPath(new URL(path, import.meta.url))
// .ci/run asks for Vitest's JSON report here, to print the pass/fail/skip counts.
const jsonReport = process.env.KERNELBENCH_TEST_REPORT

export default defineConfig({
  // Without a GPU the example benches and the GPU tests skip at once: tests/unit/problem-sources.test.ts compiles every
  // example solution and reference in a few batched nvcc runs, where compiling them here again, one nvcc each, was
  // half of `npm test`. The plugin's own compile-without-GPU path is tested on tests/cpu-only/ (default settings).
  plugins: [kernelBenchPlugin({ compileWithoutGpu: false })],
  // The examples import the package by name, as a user's project would.
  resolve: {
    alias: [
      { find: /^vitest-kernel-bench\/problems$/, replacement: local('./problems/index.ts') },
      { find: /^vitest-kernel-bench$/, replacement: local('./src/index.ts') },
    ],
  },
  test: {
    // The example benches are correctness tests under `vitest run` (each case verified, nothing timed).
    include: ['tests/**/*.test.ts', 'bench/**/*.bench.ts'],
    // A fresh project's files, run by .ci/compat against the packed package.
    exclude: [...configDefaults.exclude, 'tests/compat/**'],
    // No verdict may depend on how fast or loaded the machine is: a test's time limit is only a backstop against a
    // hang, far above what any test needs on a busy 2-core machine. The work that can hang has limits of its own,
    // counted from its own start (an nvcc run, a case on the GPU), never from the time it queued.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    // The slow test files wait on nvcc processes, not on Node: one worker per core keeps every core compiling
    // (Vitest's default, one worker fewer than the cores, is a single worker on CI's two).
    maxWorkers: availableParallelism(),
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})
