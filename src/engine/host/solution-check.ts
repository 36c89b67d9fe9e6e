// Without a GPU, the Vitest worker has a TypeScript/JavaScript solution imported here, in a process of its own: the
// module imports the solution API, whose bindings load koffi, which the worker must never load.
// Exits 0 when the module's default export is defineSolution(...); otherwise prints why on stderr and exits 1.
import { importSolution, TsSolutionError } from './ts-solution.js'

const file = process.argv[2]
try {
  if (file === undefined) throw new TsSolutionError('usage: solution-check <solution module>')
  await importSolution(file)
} catch (error) {
  // Our own errors say all there is; anything else (a throw or a syntax error at import) keeps its stack, which names the line.
  process.stderr.write(`${error instanceof TsSolutionError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
}
