// The calibration kernels under Nsight Compute (the `calibrate` command, where ncu is on PATH): a process of their
// own launches each NCU_LAUNCHES times (src/engine/host/calibration-launches.ts), and ncu reads every launch's
// gpu__time_duration.sum with its own cache flush and the clocks left alone, as scripts/ncu-compare.sh does for
// solutions. The result is the calibration's 'ncu' timer.
import { CALIBRATION_KERNEL_FUNCTIONS, CALIBRATION_KERNELS } from '../shared/calibration-kernels.js'
import type { HostConfig, TimerCalibration } from '../shared/messages.js'
import { engineProcess } from '../engine/worker/process-entry.js'
import { summarize } from '../shared/stats.js'
import { durationsPerKernel, runUnderNcu } from './ncu.js'

/**
 * Launches of each kernel (odd, so the median is one of them); the reading is their median. Many, because one
 * cold-L2 launch of a µs kernel moves by up to 20% (2.85–3.49 µs for the 64 Ki add on an H100): with 5, ncu's
 * reading of it was 10% above the profiler's median of hundreds of samples in one calibration.
 */
export const NCU_LAUNCHES = 21
/** Compiles are cached by then (the device host compiled the harness); ncu's own start and replay take seconds. */
const NCU_TIMEOUT_MS = 300_000

/** Nsight Compute's reading of every calibration kernel on the GPU `config` names, or why there is none. */
export function ncuCalibration(ncu: string, config: HostConfig): TimerCalibration {
  const { file, execArgv } = engineProcess('calibration-launches')
  const command = [process.execPath, ...execArgv, file, JSON.stringify(config), String(NCU_LAUNCHES)]
  try {
    const { rows, said } = runUnderNcu(ncu, `regex:^(${Object.values(CALIBRATION_KERNEL_FUNCTIONS).join('|')})`, command, NCU_TIMEOUT_MS)
    if (rows.length === 0) return { timer: 'ncu', readings: [], unavailable: `ncu measured no kernel${said.length > 0 ? `: ${said.join(' ')}` : ''}` }
    const kernels = CALIBRATION_KERNELS.map((k) => ({ label: k.name, ncuName: CALIBRATION_KERNEL_FUNCTIONS[k.kind] }))
    const readings = durationsPerKernel(rows, kernels, NCU_LAUNCHES).map((ms, i) => {
      const { median, cv, n } = summarize(ms)
      return { kernel: kernels[i]!.label, medianMs: median, cv, samples: n }
    })
    return { timer: 'ncu', readings }
  } catch (error) {
    return { timer: 'ncu', readings: [], unavailable: (error as Error).message }
  }
}
