// Vitest 4's `vitest bench` ends with a summary of the plain bench() tasks ranked first in their group; kernel
// benches carry no rank, so a run of kernel benches only would end with the summary's heading alone.
import { afterEach, expect, it, vi } from 'vitest'
import { DefaultReporter } from 'vitest/node'
import { KernelBenchReporter } from '../../src/reporter.js'

/** A file holding, in a describe block, one bench whose Vitest benchmark result has this rank (0: a kernel bench). */
const file = (rank: number) => ({ type: 'suite', tasks: [{ type: 'suite', tasks: [{ type: 'test', result: { state: 'pass', benchmark: { rank } } }] }] }) as never

afterEach(() => {
  vi.restoreAllMocks()
})

it("prints Vitest's bench summary only when a plain bench() is ranked in it", () => {
  const summary = vi.spyOn(DefaultReporter.prototype, 'reportBenchmarkSummary').mockImplementation(() => {})
  const reporter = new KernelBenchReporter({ progress: false })
  reporter.reportBenchmarkSummary([file(0), file(0)])
  expect(summary).not.toHaveBeenCalled()
  reporter.reportBenchmarkSummary([file(0), file(1)])
  expect(summary).toHaveBeenCalledTimes(1)
})
