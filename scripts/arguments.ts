// Command-line arguments of the replay and simulation scripts (baseline-replay.ts, paired-replay.ts, …).

/** The arguments after `flag`, up to the next flag; empty when the flag is not given. */
export function argList(flag: string): string[] {
  const start = process.argv.indexOf(flag)
  if (start < 0) return []
  const end = process.argv.findIndex((arg, i) => i > start && arg.startsWith('--'))
  return process.argv.slice(start + 1, end < 0 ? undefined : end)
}

/** The arguments before the first flag: the results files a script reads. */
export function leadingArgs(): string[] {
  const firstFlag = process.argv.findIndex((arg, i) => i > 1 && arg.startsWith('--'))
  return process.argv.slice(2, firstFlag < 0 ? undefined : firstFlag)
}
