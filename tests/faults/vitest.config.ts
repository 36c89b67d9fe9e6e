// Runs only the fault demonstration bench, with the project's own configuration otherwise.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  // Replaces the include list (mergeConfig would append to it).
  test: { ...base.test, benchmark: { include: ['tests/faults/*.bench.ts'] } },
})
