// Named errors for every status code the native core can see.

/** A CUDA runtime call failed; `code` is the cudaError_t, `errorName` e.g. 'cudaErrorIllegalAddress'. */
export class CudaError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    readonly errorName: string,
    description: string,
  ) {
    super(`${call} failed: ${errorName} (${description})`)
    this.name = 'CudaError'
  }

  /** Errors after which the CUDA context is unusable and the process that owns it must be replaced. */
  get isSticky(): boolean {
    return this.stickyErrors.has(this.errorName)
  }

  protected get stickyErrors(): ReadonlySet<string> {
    return STICKY_ERRORS
  }
}

// From the CUDA runtime documentation: these leave the context in an inconsistent state.
const STICKY_ERRORS = new Set([
  'cudaErrorIllegalAddress',
  'cudaErrorLaunchFailure',
  'cudaErrorLaunchTimeout',
  'cudaErrorHardwareStackError',
  'cudaErrorIllegalInstruction',
  'cudaErrorMisalignedAddress',
  'cudaErrorInvalidAddressSpace',
  'cudaErrorInvalidPc',
  'cudaErrorAssert',
  'cudaErrorECCUncorrectable',
  'cudaErrorUnknown',
])

export class CublasError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    readonly statusName: string,
  ) {
    super(`${call} failed: ${statusName}`)
    this.name = 'CublasError'
  }
}

export class NvmlError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    description: string,
  ) {
    super(`${call} failed: NVML error ${code} (${description})`)
    this.name = 'NvmlError'
  }
}
