// Sanitize mode: a device host run under compute-sanitizer's memcheck, whose log is turned into the first bad
// access it found (kernel, source line, thread, address), the part of the report a user acts on.
import fs from 'node:fs'
import path from 'node:path'

const PREFIX = /^========= ?/

/** The first error compute-sanitizer reported, without host backtraces; undefined when there was none. */
export function firstSanitizerError(log: string): string | undefined {
  const lines = log.split('\n').filter((line) => PREFIX.test(line)).map((line) => line.replace(PREFIX, ''))
  // An error starts at an unindented line that is neither the banner nor the summary.
  const start = lines.findIndex((line) => line.trim() !== '' && !line.startsWith(' ') && !/^(COMPUTE-SANITIZER|ERROR SUMMARY)/.test(line))
  if (start < 0) return undefined
  const block: string[] = []
  for (const line of lines.slice(start)) {
    if (block.length > 0 && (line.trim() === '' || !line.startsWith(' ') || /Saved host backtrace/.test(line))) break
    block.push(line.trimEnd())
  }
  return block.join('\n')
}

/** Where compute-sanitizer lives: $KERNELBENCH_SANITIZER, next to nvcc, or on PATH. */
export function findSanitizer(nvcc: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const candidates = [
    env.KERNELBENCH_SANITIZER,
    nvcc ? path.join(path.dirname(nvcc), 'compute-sanitizer') : undefined,
    ...(env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'compute-sanitizer')),
  ].filter((c): c is string => Boolean(c))
  const found = candidates.find((c) => fs.existsSync(c))
  if (!found) {
    throw new Error(`sanitize: compute-sanitizer was not found (looked in: ${candidates.join(', ')}); set KERNELBENCH_SANITIZER to its path`)
  }
  return found
}
