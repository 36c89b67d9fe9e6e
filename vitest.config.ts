import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { kernelBenchPlugin } from './src/plugin.js'

const local = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  plugins: [kernelBenchPlugin()],
  // The examples import the package by name, as a user's project would.
  resolve: {
    alias: [
      { find: /^vitest-kernel-bench\/problems$/, replacement: local('./problems/index.ts') },
      { find: /^vitest-kernel-bench$/, replacement: local('./src/index.ts') },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts'],
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})
