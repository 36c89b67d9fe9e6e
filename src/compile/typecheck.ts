// The GPU-less type check of a TypeScript solution, with the user's own TypeScript compiler: resolved from the bench
// file's project, so the package needs no compiler at run time and the check follows the user's tsconfig.
import { createRequire } from 'node:module'
import path from 'node:path'
import type * as TypeScript from 'typescript'
import { SourceError, type CompilerDiagnostic } from './nvcc.js'

export class TypeCheckError extends SourceError {
  constructor(readonly diagnostics: readonly CompilerDiagnostic[]) {
    const first = diagnostics[0]!
    super(`TypeScript found errors in ${first.file}:${first.line}\n${diagnostics.map((d) => `  ${d.file}:${d.line}: ${d.message}`).join('\n')}`)
  }
}

/**
 * Type-checks `file` with the `typescript` package that `fromFile`'s project resolves, under the tsconfig.json nearest
 * the file. Returns undefined when checked, or why it was not; throws TypeCheckError with each error's file and line.
 */
export function typeCheck(file: string, fromFile: string): string | undefined {
  let ts: typeof TypeScript
  try {
    ts = createRequire(fromFile)('typescript') as typeof TypeScript
  } catch {
    return `no 'typescript' package is installed for ${path.basename(fromFile)}`
  }
  const configFile = ts.findConfigFile(path.dirname(file), (f) => ts.sys.fileExists(f))
  // Where no tsconfig.json is above the solution: what the package's own examples assume.
  let options: TypeScript.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
  }
  if (configFile !== undefined) {
    const { config } = ts.readConfigFile(configFile, (f) => ts.sys.readFile(f))
    options = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile)).options
  }
  const program = ts.createProgram([file], { ...options, noEmit: true })
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d): CompilerDiagnostic => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n    ')
      if (d.file === undefined || d.start === undefined) return { file: configFile ?? file, line: 1, message: `TS${d.code}: ${message}` }
      return { file: d.file.fileName, line: d.file.getLineAndCharacterOfPosition(d.start).line + 1, message: `TS${d.code}: ${message}` }
    })
  if (diagnostics.length > 0) throw new TypeCheckError(diagnostics)
  return undefined
}
