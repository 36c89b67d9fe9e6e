// koffi bindings to NVML: the SM clock around the samples and the reasons it is held down. NVML is optional:
// without it the clocks are reported as unknown and no sample is dropped for throttling.
import { cString } from './cuda.js'
import { NvmlError } from './errors.js'
import { loadLibrary, type LibrarySpec } from './library.js'

export const NVML: LibrarySpec = { title: 'NVML', files: ['libnvidia-ml.so.1', 'libnvidia-ml.so'], fromDriver: true }

const CLOCK_SM = 1

function bind() {
  const lib = loadLibrary(NVML)
  return {
    init: lib.func('int nvmlInit_v2()'),
    errorString: lib.func('const char *nvmlErrorString(int result)'),
    handleByPciBusId: lib.func('int nvmlDeviceGetHandleByPciBusId_v2(const char *busId, _Out_ void **device)'),
    clockInfo: lib.func('int nvmlDeviceGetClockInfo(void *device, int type, _Out_ unsigned int *mhz)'),
    maxClockInfo: lib.func('int nvmlDeviceGetMaxClockInfo(void *device, int type, _Out_ unsigned int *mhz)'),
    driverVersion: lib.func('int nvmlSystemGetDriverVersion(_Out_ uint8_t *version, unsigned int length)'),
  }
}

type Bindings = ReturnType<typeof bind>

function check(api: Bindings, status: number, call: string): void {
  if (status !== 0) throw new NvmlError(call, status, api.errorString(status) as string)
}

/** One GPU as NVML sees it, found by PCI bus id so that it is the same GPU as the CUDA device. */
export class NvmlDevice {
  private constructor(
    private readonly api: Bindings,
    private readonly handle: bigint,
  ) {}

  static open(pciBusId: string): NvmlDevice {
    const api = bind()
    check(api, api.init(), 'nvmlInit')
    const slot = [0n]
    check(api, api.handleByPciBusId(pciBusId, slot), `nvmlDeviceGetHandleByPciBusId(${pciBusId})`)
    return new NvmlDevice(api, slot[0] as bigint)
  }

  private read(call: (slot: number[]) => number, name: string): number {
    const slot = [0]
    check(this.api, call(slot), name)
    return Number(slot[0])
  }

  smClockMHz(): number {
    return this.read((s) => this.api.clockInfo(this.handle, CLOCK_SM, s), 'nvmlDeviceGetClockInfo')
  }

  maxSmClockMHz(): number {
    return this.read((s) => this.api.maxClockInfo(this.handle, CLOCK_SM, s), 'nvmlDeviceGetMaxClockInfo')
  }

  driverVersion(): string {
    const buffer = Buffer.alloc(96)
    check(this.api, this.api.driverVersion(buffer, buffer.length), 'nvmlSystemGetDriverVersion')
    return cString(buffer)
  }
}
