// Whether this machine has a usable GPU, and suite titles that say why a suite is skipped where it runs not.
import { probeGpu } from '../../src/native/cuda.js'

export const gpu = probeGpu()

/** The title of a suite that needs a GPU, with the reason it is skipped where none is usable. */
export const onGpuTitle = (title: string): string => (gpu.available ? title : `${title} (skipped: ${gpu.reason})`)

/** The title of a suite that runs only without a GPU, with why there is none (or that one is present). */
export const withoutGpuTitle = (title: string): string => `${title} (${gpu.available ? 'a GPU is present' : gpu.reason})`
