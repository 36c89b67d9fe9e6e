// Command-line arguments of the replay scripts (baseline-replay.ts, paired-replay.ts).

/** The arguments after `flag`, up to the next flag; empty when the flag is not given. */
export function argList(flag: string): string[] {
  const start = process.argv.indexOf(flag)
  if (start < 0) return []
  const end = process.argv.findIndex((arg, i) => i > start && arg.startsWith('--'))
  return process.argv.slice(start + 1, end < 0 ? undefined : end)
}
