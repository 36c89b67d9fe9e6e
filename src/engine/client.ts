// The worker's side of the device host: starts it, sends it cases, and replaces it when it dies (a CUDA fault,
// a crash in a solution's host code) or hangs (killed after the case timeout). One host per worker and GPU.
import { fork, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { HostConfig } from './host.js'
import type { CaseOutcome, CasePlan, DeviceReport, HostMessage } from './protocol.js'

export type HostStatus = { available: true; device: DeviceReport; arch: string } | { available: false; reason: string; noGpu: boolean }

interface Pending {
  id: number
  caseName: string
  /** The host the case was sent to: only its death fails the case. */
  child: ChildProcess
  resolve: (outcome: CaseOutcome) => void
  timer: NodeJS.Timeout
}

/** Running from TypeScript sources (this repository) the host needs tsx; the published build is plain JS. */
function hostEntry(): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url)
  if (self.endsWith('.js')) return { file: self.replace(/client\.js$/, 'host.js'), execArgv: [] }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href
  return { file: self.replace(/client\.ts$/, 'host.ts'), execArgv: ['--import', tsx] }
}

export class DeviceHost {
  private child?: ChildProcess
  private status?: Promise<HostStatus>
  private pending?: Pending
  private nextId = 1

  constructor(readonly config: HostConfig) {}

  /** Starts the host if needed and says whether a GPU is usable, and which. */
  ready(): Promise<HostStatus> {
    this.status ??= this.spawn()
    return this.status
  }

  private spawn(): Promise<HostStatus> {
    const { file, execArgv } = hostEntry()
    const child = fork(file, [JSON.stringify(this.config)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    this.child = child
    return new Promise<HostStatus>((resolve) => {
      child.on('message', (message: HostMessage) => {
        if (message.type === 'ready') resolve({ available: true, device: message.device, arch: message.arch })
        else if (message.type === 'init-failed') resolve({ available: false, reason: message.reason, noGpu: message.noGpu })
        else if (message.type === 'result' && this.pending?.id === message.id) this.settle(message.outcome)
      })
      child.on('exit', (code, signal) => {
        this.detach(child)
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
        resolve({ available: false, reason: `the device host ${how} while starting`, noGpu: false })
        if (this.pending?.child === child) {
          this.settle({
            status: 'error',
            errorName: 'DeviceHostDied',
            message:
              `the process that owns the GPU ${how} during case '${this.pending.caseName}'` +
              (signal === 'SIGSEGV' || signal === 'SIGBUS' || signal === 'SIGABRT'
                ? ' (a crash in the solution\'s host code?)'
                : '') +
              '; a fresh one runs the next case',
          })
        }
      })
    })
  }

  private settle(outcome: CaseOutcome): void {
    const pending = this.pending
    if (!pending) return
    this.pending = undefined
    clearTimeout(pending.timer)
    pending.resolve(outcome)
  }

  /** Runs one case; never rejects: faults, crashes and timeouts come back as error outcomes. */
  async run(plan: CasePlan): Promise<CaseOutcome> {
    const status = await this.ready()
    if (!status.available) return { status: 'error', errorName: 'NoGpu', message: status.reason }
    const child = this.child
    if (!child) return this.run(plan)
    const id = this.nextId++
    return new Promise<CaseOutcome>((resolve) => {
      const timeoutMs = plan.options.caseTimeoutMs
      const timer = setTimeout(() => {
        const caseName = plan.caseName
        this.settle({
          status: 'error',
          errorName: 'Timeout',
          message: `case '${caseName}' did not finish within ${(timeoutMs / 1000).toFixed(0)} s (a kernel that never ends?); the device host was killed and a fresh one runs the next case`,
        })
        this.detach(child)
        child.kill('SIGKILL')
      }, timeoutMs)
      this.pending = { id, caseName: plan.caseName, child, resolve, timer }
      child.send({ type: 'run', id, plan })
    })
  }

  /** Forgets a host so the next case starts a fresh one, without waiting for the old one's exit. */
  private detach(child: ChildProcess): void {
    if (this.child !== child) return
    this.child = undefined
    this.status = undefined
  }

  close(): void {
    this.child?.kill()
    if (this.child) this.detach(this.child)
  }
}

const HOSTS = Symbol.for('vitest-kernel-bench.device-hosts')
type Registry = Map<string, DeviceHost>

/** The host for this worker and configuration, shared by every bench the worker runs. */
export function deviceHost(config: HostConfig): DeviceHost {
  const global = globalThis as typeof globalThis & { [HOSTS]?: Registry }
  let registry = global[HOSTS]
  if (!registry) {
    const created: Registry = new Map()
    registry = created
    global[HOSTS] = created
    process.once('exit', () => created.forEach((host) => host.close()))
  }
  const key = JSON.stringify(config)
  let host = registry.get(key)
  if (!host) {
    host = new DeviceHost(config)
    registry.set(key, host)
  }
  return host
}
