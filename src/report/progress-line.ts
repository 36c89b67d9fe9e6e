// The progress line of an interactive terminal while kernel benches run: the bench, its case and how long it has
// run, redrawn on the bottom line. It wraps process.stdout/stderr.write so that any other output clears it first.
import pc from 'picocolors'
import type { KernelBenchProgress } from '../shared/results.js'

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const CLEAR_LINE = '\r\x1b[2K'
const REDRAW_MS = 100

function formatElapsed(ms: number): string {
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`
}

/** A bench on the progress line: the case it runs, once the worker has said, and since when (performance.now()). */
export interface RunningBench {
  name: string
  /** The bench file, relative to the root. */
  file: string
  progress?: KernelBenchProgress
  since: number
}

/** The bench after the worker's latest word: the clock restarts when a new case begins, not when one is repeated. */
export function updateRunningBench(previous: RunningBench | undefined, next: Omit<RunningBench, 'since'>, now: number): RunningBench {
  const sameStep = previous !== undefined && previous.progress?.index === next.progress?.index
  return { ...next, since: sameStep ? previous.since : now }
}

/**
 * The text of the progress line: the first bench running, its case (`case 3/5 '4096x4096x4096'`) and how long that
 * case has run, or before its first case how long the bench has run; other benches running are counted. One
 * character short of `columns`, so the line never wraps and CLEAR_LINE always erases all of it.
 */
export function formatProgressLine(
  running: readonly RunningBench[],
  { now, frame, columns, colors = pc }: { now: number; frame: number; columns: number; colors?: Pick<typeof pc, 'cyan' | 'dim'> },
): string {
  const [first] = running
  if (!first) return ''
  const spinner = SPINNER[frame % SPINNER.length]!
  const tail = `${running.length > 1 ? ` (+${running.length - 1} more)` : ''}  ${formatElapsed(now - first.since)}`
  const step = first.progress ? ` · case ${first.progress.index + 1}/${first.progress.total} '${first.progress.case}'` : ''
  const full = `${first.name}${step} · ${first.file}`
  const room = columns - 1 - spinner.length - 1 - tail.length
  const label = full.length > room ? `${full.slice(0, Math.max(0, room - 1))}…` : full
  return `${colors.cyan(spinner)} ${label}${colors.dim(tail)}`
}

/**
 * The bottom line of an interactive terminal while benches run: which bench, which of its cases, and for how long.
 * Every other write to stdout or stderr clears it first; it comes back on the next tick, once that write has ended
 * its line.
 *
 * The reporter hears of a kernel bench when it starts (onTestCaseReady) and ends (onTestCaseResult). Under Vitest 4
 * the worker sends Vitest's 'test-prepare' event again before each case, with the case in the task's meta
 * (src/vitest/runner.ts), which reaches onTestCaseReady too; under Vitest 5 the bench records each case as an artifact of its
 * test (src/index.ts), which reaches onTestCaseArtifactRecord. No other channel from the worker is used.
 */
export class ProgressLine {
  private readonly running = new Map<string, RunningBench>()
  private timer?: NodeJS.Timeout
  private restoreStreams?: () => void
  private write: (text: string) => void = () => {}
  private shown = false
  /** The last write of someone else left the cursor mid-line: drawing now would erase its text. */
  private midLine = false
  private frame = 0

  /** A bench started, or told which case it runs now. */
  update(id: string, bench: Omit<RunningBench, 'since'>): void {
    this.running.set(id, updateRunningBench(this.running.get(id), bench, performance.now()))
    if (!this.timer) this.attach()
    this.draw()
  }

  finish(id: string): void {
    this.running.delete(id)
    if (this.running.size === 0) this.stop()
  }

  stop(): void {
    this.running.clear()
    if (!this.timer) return
    clearInterval(this.timer)
    this.timer = undefined
    this.clear()
    this.restoreStreams?.()
  }

  private attach(): void {
    const streams = [process.stdout, process.stderr]
    const originals = streams.map((stream) => stream.write)
    const writeStdout = originals[0]!.bind(process.stdout)
    this.write = (text) => void writeStdout(text)
    streams.forEach((stream, i) => {
      const original = originals[i]! as (...args: unknown[]) => boolean
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        this.clear()
        this.midLine = typeof chunk === 'string' ? !chunk.endsWith('\n') : chunk.at(-1) !== 0x0a
        return original.call(stream, chunk, ...rest)
      }) as typeof stream.write
    })
    this.restoreStreams = () => streams.forEach((stream, i) => (stream.write = originals[i]!))
    this.timer = setInterval(() => this.draw(), REDRAW_MS).unref()
  }

  private draw(): void {
    if (this.running.size === 0 || this.midLine) return
    const line = formatProgressLine([...this.running.values()], { now: performance.now(), frame: this.frame++, columns: process.stdout.columns || 80 })
    this.write(`${CLEAR_LINE}${line}`)
    this.shown = true
  }

  private clear(): void {
    if (!this.shown) return
    this.shown = false
    this.write(CLEAR_LINE)
  }
}
