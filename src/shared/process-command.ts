// A process's command line, for messages that name a process by its pid (who holds the GPU's lock, what a solution
// started).
import fs from 'node:fs'

/** The command line of process `pid`, cut to 120 characters; undefined where it cannot be read (gone, or not ours). */
export function commandOf(pid: number): string | undefined {
  try {
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
    return command.length > 120 ? `${command.slice(0, 117)}...` : command
  } catch {
    return undefined
  }
}
