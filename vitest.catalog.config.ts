// The whole catalogue: the example benches of bench/ (the main job) and those of catalog/, every problem's example
// solution verified and timed. `npx vitest bench --run --config vitest.catalog.config.ts`.
import { defineConfig, mergeConfig } from 'vitest/config'
import main from './vitest.config.js'

export default mergeConfig(main, defineConfig({ test: { benchmark: { include: ['catalog/**/*.bench.ts'] } } }))
