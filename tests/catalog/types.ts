// The repository's example and planted solutions, one list per problem family, shared by the CI compile test
// (tests/unit/problem-sources.test.ts) and the GPU test (tests/gpu/problems.test.ts).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Dtype } from '../../src/spec/dtype.js'
import type { Problem } from '../../src/spec/problem.js'

export interface Example {
  problem: Problem
  /** Absolute path of the .cu file. */
  solution: string
  dtype: Dtype
}

/** A wrong solution that verification must reject with a message matching `message`. */
export interface Planted extends Example {
  message: RegExp
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** problems/<problem>/solutions/<file> */
export const exampleFile = (problem: string, file: string) => path.join(root, 'problems', problem, 'solutions', file)
/** tests/fixtures/solutions/<file> */
export const fixtureFile = (file: string) => path.join(root, 'tests/fixtures/solutions', file)
