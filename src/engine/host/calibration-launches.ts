// A process that launches each calibration kernel a given number of times and exits, for Nsight Compute to measure
// (the worker runs it under ncu: src/cli/ncu-calibration.ts): the device host's kernels, with its arguments, on the GPU
// it names.
// Usage: calibration-launches <HostConfig as JSON> <launches per kernel>
import { launchCalibrationKernels } from './calibration.js'
import type { HostConfig } from '../../shared/messages.js'
import { lockGpu, openSession, prepareSession } from './open-session.js'

const config = JSON.parse(process.argv[2] ?? '{}') as HostConfig
const { session } = openSession(prepareSession(config), false)
// Held to the end, as the device host holds it when it exits: tearing the context down is GPU work too (a lock
// whose owner has exited is taken over).
lockGpu(session.info.pciBusId, config.device)
launchCalibrationKernels(session, Number(process.argv[3]))
