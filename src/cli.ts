#!/usr/bin/env node
// The `vitest-kernel-bench` command: `init <problem> [file.cu]` writes a starter solution and its bench file;
// `init --list` lists the problems.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as problems from '../problems/index.js'
import { listProblems, problemCatalog, starterFiles, type StarterFile } from './starter.js'

const USAGE = `Usage:
  vitest-kernel-bench init <problem> [file.cu] [--dtype <dtype>]   write a starter solution and its .bench.ts
  vitest-kernel-bench init --list                                 list the problems
`

class UsageError extends Error {}

/** Writes every file or none: an existing file is never overwritten. */
function writeNewFiles(files: readonly StarterFile[]): void {
  const existing = files.filter((f) => fs.existsSync(f.path))
  if (existing.length > 0) {
    throw new Error(`refusing to overwrite ${existing.map((f) => f.path).join(' and ')}: choose another file name, or remove it first`)
  }
  for (const file of files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, file.content, { flag: 'wx' })
  }
}

function main(argv: readonly string[]): void {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { dtype: { type: 'string' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const [command, problem, file, ...extra] = positionals
  if (command !== 'init') throw new UsageError(command ? `unknown command '${command}'` : 'no command given')
  const catalog = problemCatalog(problems)
  if (values.list) {
    process.stdout.write(listProblems(catalog))
    return
  }
  if (!problem) throw new UsageError('init needs a problem name (see `vitest-kernel-bench init --list`)')
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`)

  const files = starterFiles(catalog, { problem, file, dtype: values.dtype, cwd: process.cwd() })
  writeNewFiles(files)
  for (const f of files) process.stdout.write(`created ${path.relative(process.cwd(), f.path)}\n`)
  process.stdout.write(`run it: npx vitest bench --run ${path.relative(process.cwd(), files[1]!.path)}\n`)
}

try {
  main(process.argv.slice(2))
} catch (error) {
  process.stderr.write(`vitest-kernel-bench: ${(error as Error).message}\n`)
  if (error instanceof UsageError) process.stderr.write(USAGE)
  process.exitCode = error instanceof UsageError ? 2 : 1
}
