// The bench-mode reporter: Vitest's default output (files, failures, summary) plus a kernel table per bench, and
// after `vitest bench -u` the baseline files written.
import path from 'node:path'
import pc from 'picocolors'
import type { TestModule } from 'vitest/node'
import { DefaultReporter } from 'vitest/node'
import { renderDeviceHeader, renderKernelResult } from './report/kernel-table.js'

export class KernelBenchReporter extends DefaultReporter {
  private headerPrinted = false

  protected override printTestModule(testModule: TestModule): void {
    super.printTestModule(testModule)
    const written = new Set<string>()
    for (const test of testModule.children.allTests()) {
      const result = test.meta().kernelBench
      if (!result) continue
      if (result.baseline?.written) written.add(result.baseline.file)
      if (!this.headerPrinted && result.device && result.arch) {
        this.log(`\n${renderDeviceHeader(result.device, result.arch)}`)
        this.headerPrinted = true
      }
      this.log(`\n${renderKernelResult(result)}`)
    }
    // Every kernelBench of a module shares one baseline file: name it once.
    for (const file of written) this.log(pc.dim(`\nbaseline written: ${path.relative(this.ctx.config.root, file)}`))
  }
}
