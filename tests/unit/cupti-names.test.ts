// A solution library that names CUPTI is refused before it is loaded, saying which names; one that hides them is not
// (at run time its subscription fails: tests/gpu/integrity.test.ts). Compiled with the real nvcc; no GPU needed.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import { cuptiNamesIn } from '../../src/compile/cupti-names.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { solutionTarget } from '../../src/vitest/compile-bench.js'
import { buildSettings, type PluginSettings } from '../../src/vitest/plugin-settings.js'
import { resolveSpec } from '../../src/vitest/resolve-spec.js'
import { scratchFolder } from '../helpers/scratch.js'

const scratch = scratchFolder('kb-cupti-names-')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(scratch, 'cache'), measure: {} }
const hostile = (name: string) => path.join(PACKAGE_ROOT, 'tests/fixtures/solutions/hostile', name)

/** Builds `file` as the vector add's solution, as a bench does. */
function build(file: string) {
  const spec = resolveSpec({ problem: vectorAddition, solution: file }, settings, 'cupti-names')
  return solutionTarget(spec, { file, includeDirs: [], sources: [] }, settings, buildSettings(settings, 'sm_90a'))
}

describe('a solution that reaches for CUPTI', { timeout: 240_000 }, () => {
  it('is refused before it is loaded, with the CUPTI names its library holds', async () => {
    const file = hostile('cupti_rewrite_timer.cu')
    const refusal = build(file)
    await expect(refusal).rejects.toThrow(
      `the library built from ${file} names CUPTI (cuptiEnableCallback, cuptiSubscribe, libcupti.so, libcupti.so.12, ` +
        'libcupti.so.13): CUPTI belongs to the harness',
    )
    await expect(refusal).rejects.toHaveProperty('name', 'SolutionUsesCupti')
  })

  it('is not refused by name when its library hides the names, nor is an honest solution', async () => {
    const hidden = await build(hostile('cupti_rewrite_timer_hidden.cu'))
    expect('library' in hidden && cuptiNamesIn(hidden.library)).toEqual([])
    const honest = await build(path.join(PACKAGE_ROOT, 'problems/vector-addition/solutions/vector_add.cu'))
    expect('library' in honest && cuptiNamesIn(honest.library)).toEqual([])
  })
})
