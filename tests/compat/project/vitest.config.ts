// The README's quick start, as a fresh project has it: .ci/compat copies this folder next to an install of the
// packed package and of one Vitest major. The README shows this file and kernels/sgemm.bench.ts as they are, below
// this comment (tests/unit/readme.test.ts).
import { defineConfig } from 'vitest/config'
import { kernelBenchPlugin } from 'vitest-kernel-bench/plugin'

export default defineConfig({
  plugins: [kernelBenchPlugin({ targetCv: 0.01 })],
  // `vitest bench` finds *.bench.ts by default; `vitest run` (correctness only) needs them in test.include.
  test: { include: ['**/*.bench.ts', '**/*.test.ts'] },
})
