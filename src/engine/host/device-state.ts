// The device state the harness's protocol relies on, which a solution (or its library, when it is loaded) could
// change to move its own number: read absolutely, and compared with the harness's own state, read when the session
// opened, before any solution was loaded. Everything else a solution can change in its CUDA context (limits, cache
// configuration, memory left allocated, work left running) dies with its device host: each solution library has a
// process of its own (client.ts), so no solution ever runs in a context another one has touched.
import * as cuda from '../../native/cuda.js'
import { contextOnThread } from '../../native/driver.js'

export interface HarnessState {
  /** cudaGetDevice: where the harness's runtime calls go. */
  device: number
  /** cuCtxGetCurrent: the context the harness's buffers, events and kernels live in. */
  context: bigint
  /** The scheduling bits of cudaGetDeviceFlags (spin, yield or block): how the harness's synchronizations wait. */
  scheduleFlags: number
  /** cudaLimitPersistingL2CacheSize: L2 whose lines survive the flush between timed calls. */
  persistingL2Bytes: number
  /** cudaGetLastError: an error a call left behind, which the harness's next call would otherwise report as its own. */
  lastError: string | undefined
}

/** A solution changed the state the harness measures in; the device host is replaced after reporting it. */
export class DeviceStateChanged extends Error {
  override name = 'DeviceStateChanged'
}

export function readState(): HarnessState {
  const lastError = cuda.takeLastError()
  return {
    device: cuda.currentDevice(),
    context: contextOnThread(),
    // The other bits are the runtime's own business: capturing a CUDA graph sets cudaDeviceLmemResizeToMax.
    scheduleFlags: cuda.deviceFlags() & SCHEDULE_MASK,
    persistingL2Bytes: cuda.persistingL2Bytes(),
    lastError: lastError === 0 ? undefined : cuda.errorName(lastError),
  }
}

/** cudaDeviceScheduleMask from driver_types.h. */
const SCHEDULE_MASK = 0x07
const SCHEDULES: Record<number, string> = { 0: 'cudaDeviceScheduleAuto', 1: 'cudaDeviceScheduleSpin', 2: 'cudaDeviceScheduleYield', 4: 'cudaDeviceScheduleBlockingSync' }
const schedule = (flags: number) => SCHEDULES[flags] ?? `0x${flags.toString(16)}`

/** What differs between the harness's state and `now`, each as a sentence that says how to avoid it. */
export function stateChanges(harness: HarnessState, now: HarnessState): string[] {
  const changes: string[] = []
  if (now.lastError !== undefined) {
    changes.push(
      `a CUDA call failed with ${now.lastError} and its error was left unread: check the status of every CUDA call ` +
        '(and cudaGetLastError() after each launch)',
    )
  }
  if (now.device !== harness.device) {
    changes.push(`the current device is ${now.device}, not ${harness.device}: do not call cudaSetDevice (the harness picks the GPU)`)
  }
  if (now.context !== harness.context) {
    changes.push(
      'the current CUDA context was replaced (cuCtxCreate, cuCtxPushCurrent or cuCtxSetCurrent left another one ' +
        "current): pop or restore it before returning; the harness's buffers and events live in the runtime's primary context",
    )
  }
  if (now.scheduleFlags !== harness.scheduleFlags) {
    changes.push(
      `the device flags ask for ${schedule(now.scheduleFlags)}, not ${schedule(harness.scheduleFlags)} (cudaSetDeviceFlags): ` +
        "they change how the harness's synchronizations wait; leave them alone",
    )
  }
  if (now.persistingL2Bytes !== harness.persistingL2Bytes) {
    changes.push(
      `${now.persistingL2Bytes} bytes of L2 are set aside for persisting accesses (cudaLimitPersistingL2CacheSize; the ` +
        `harness runs with ${harness.persistingL2Bytes}): persisting lines survive the L2 flush between timed calls, so ` +
        'every call would start on a warm cache. Remove the access-policy window and the carve-out ' +
        `(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, ${harness.persistingL2Bytes}) and cudaCtxResetPersistingL2Cache())`,
    )
  }
  return changes
}

/**
 * Throws DeviceStateChanged when the state differs from the harness's; `when` says at which point of the case it
 * was found, `who` what ran since the last check (e.g. "solution()", "the library libfoo.so when it was loaded").
 */
export function checkState(harness: HarnessState, who: string, when: string): void {
  const changes = stateChanges(harness, readState())
  if (changes.length === 0) return
  throw new DeviceStateChanged(`${who} changed the device state the harness measures in (found ${when}):\n- ${changes.join('\n- ')}`)
}
