// The bench-mode reporter: Vitest's default output (files, failures, summary) plus a kernel table per bench.
import type { TestModule } from 'vitest/node'
import { DefaultReporter } from 'vitest/node'
import { renderDeviceHeader, renderKernelResult } from './report/kernel-table.js'

export class KernelBenchReporter extends DefaultReporter {
  private headerPrinted = false

  protected override printTestModule(testModule: TestModule): void {
    super.printTestModule(testModule)
    for (const test of testModule.children.allTests()) {
      const result = test.meta().kernelBench
      if (!result) continue
      if (!this.headerPrinted && result.device && result.arch) {
        this.log(`\n${renderDeviceHeader(result.device, result.arch)}`)
        this.headerPrinted = true
      }
      this.log(`\n${renderKernelResult(result)}`)
    }
  }
}
