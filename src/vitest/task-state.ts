// What a kernelBench's result makes of the Vitest task that ran it, the same under both Vitest majors: skipped with
// the reason where nothing could run, failed with failureMessage where a case or the guard failed, else passed.
// Vitest 4's benchmark runner writes it into the task (src/vitest/runner.ts); a test function (src/index.ts,
// measureKernel) ends with it (settleTest).
import type { TestContext } from 'vitest'
import { failureMessage, type KernelBenchResult } from '../shared/results.js'

export type TaskState = { state: 'skip'; reason: string } | { state: 'fail'; message: string } | { state: 'pass' }

export function taskState(result: KernelBenchResult): TaskState {
  if (result.skipped) return { state: 'skip', reason: result.skipped }
  const failure = failureMessage(result)
  return failure ? { state: 'fail', message: failure } : { state: 'pass' }
}

/** Ends a test function as its kernelBench result says: skips the test with the reason, or fails it with the message. */
export function settleTest(context: TestContext, result: KernelBenchResult): void {
  const state = taskState(result)
  if (state.state === 'skip') context.skip(state.reason)
  if (state.state === 'fail') throw new Error(state.message)
}
