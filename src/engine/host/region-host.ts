// The region host: the process that owns the memory both sides of a paired A/B case time in (docs/ci-gate.md, "Shared
// places"). The worker starts one per GPU (src/engine/worker/shared-regions.ts) and asks it to allocate a region when a
// pair of processes opens a case, and to free it once both sides have ended theirs; the sides open the region through
// its CUDA IPC handle. It runs no solution code, so no side owns memory that the other uses, and a side's fault leaves
// the region whole. Its CUDA context is made at its first region. Every allocation, free and the context's teardown are
// set-ups of the GPU's lock (gpu-lock.ts): never while anyone times.
import { acquireGpuSetup } from '../../cache/gpu-lock.js'
import * as cuda from '../../native/cuda.js'
import type { RegionReply, RegionRequest } from '../../shared/messages.js'
import { lockGpu } from './open-session.js'
import { dieWhenOrphaned } from './orphan-watch.js'

/** How long a region host whose worker is gone may go on: long enough to finish a teardown it had started. */
const ORPHAN_GRACE_MS = 10_000

const device = Number(process.argv[2])
const regions = new Map<string, cuda.DevicePtr>()
let pciBusId: string | undefined

function asSetUp<T>(work: () => T): T {
  pciBusId ??= cuda.gpuIdentity(device).pciBusId
  const release = lockGpu(pciBusId, device, acquireGpuSetup)
  try {
    return work()
  } finally {
    release()
  }
}

function answer(request: RegionRequest): RegionReply {
  try {
    if (request.type === 'region-alloc') {
      return asSetUp(() => {
        cuda.setDevice(device)
        const ptr = cuda.malloc(request.bytes)
        try {
          const handle = cuda.ipcHandle(ptr)
          regions.set(handle, ptr)
          return { id: request.id, handle }
        } catch (error) {
          cuda.free(ptr)
          throw error
        }
      })
    }
    const ptr = regions.get(request.handle)
    if (ptr !== undefined) {
      regions.delete(request.handle)
      asSetUp(() => cuda.free(ptr))
    }
    return { id: request.id }
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) }
  }
}

dieWhenOrphaned(ORPHAN_GRACE_MS)
process.on('message', (request: RegionRequest) => process.send?.(answer(request)))
const leave = () => {
  // Tearing the context down is GPU work too: as a set-up, once the worker has let go.
  if (pciBusId !== undefined) lockGpu(pciBusId, device, acquireGpuSetup)
  process.exit(0)
}
process.once('disconnect', leave)
if (!process.connected) leave()
