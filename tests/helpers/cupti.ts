// The check the CUPTI bindings' tests share on a failed call: the error CUPTI's own name for the failure travels in.
import { expect } from 'vitest'
import { CuptiError } from '../../src/native/cupti.js'

/** `error` is a CuptiError from `call`, naming the failure as CUPTI does (CUPTI_ERROR_…). */
export function expectCuptiError(error: unknown, call: string): asserts error is CuptiError {
  expect(error).toBeInstanceOf(CuptiError)
  expect((error as CuptiError).call).toBe(call)
  expect((error as CuptiError).resultName).toMatch(/^CUPTI_ERROR_[A-Z_]+$/)
}
