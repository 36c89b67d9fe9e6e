// Under Vitest 4.1, `vitest bench` knows only its benchmark reporters by name: any other built-in one (json, junit…)
// failed to load as a module named after it.
import { expect, it } from 'vitest'
import { JsonReporter, JUnitReporter } from 'vitest/node'
import { withTestReporters } from '../../src/vitest/bench-reporters.js'

it("replaces the names of Vitest's test reporters, keeping the benchmark ones, instances and modules", () => {
  const ours = {}
  const [json, junit, kept, verbose, module] = withTestReporters(['json', 'junit', ours, 'verbose', './my-reporter.ts'])
  expect(json).toBeInstanceOf(JsonReporter)
  expect(junit).toBeInstanceOf(JUnitReporter)
  expect(kept).toBe(ours)
  expect(verbose).toBe('verbose')
  expect(module).toBe('./my-reporter.ts')
})
