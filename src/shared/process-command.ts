// A process named by its pid and command line, for messages about processes (who holds the GPU's lock, what a solution
// started).
import fs from 'node:fs'

/**
 * "1234 (sleep 100)": a pid with its command line, cut to 120 characters; "1234 (exited)" for a zombie, which has none;
 * the pid alone where the command line cannot be read (gone, or not ours).
 */
export function describePid(pid: number): string {
  let command: string
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
  } catch {
    return `${pid}`
  }
  if (command === '') return `${pid} (exited)`
  return `${pid} (${command.length > 120 ? `${command.slice(0, 117)}...` : command})`
}
