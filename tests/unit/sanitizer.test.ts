import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findSanitizer, firstSanitizerError } from '../../src/engine/worker/sanitizer.js'
import { makeScratch, removeScratch } from '../helpers/scratch.js'

// The shape of a memcheck log for an out-of-bounds write (compute-sanitizer 2025.x).
const LOG = `========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at writeEverywhere(float *, unsigned long)+0x80 in /work/tests/fixtures/solutions/illegal_address.cu:6
=========     by thread (31,0,0) in block (4095,0,0)
=========     Address 0x7f3a5c400000 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f3a58400000 of size 67,108,864 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2b1b] in libcuda.so.1
=========
========= Invalid __global__ write of size 4 bytes
=========     at writeEverywhere(float *, unsigned long)+0x80 in /work/tests/fixtures/solutions/illegal_address.cu:6
=========     by thread (0,0,0) in block (4096,0,0)
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaDeviceSynchronize.
=========
========= ERROR SUMMARY: 3 errors
`

describe('firstSanitizerError', () => {
  it('keeps the first error with its kernel, source line, thread and address, without host frames', () => {
    expect(firstSanitizerError(LOG)).toBe(
      [
        'Invalid __global__ write of size 4 bytes',
        '    at writeEverywhere(float *, unsigned long)+0x80 in /work/tests/fixtures/solutions/illegal_address.cu:6',
        '    by thread (31,0,0) in block (4095,0,0)',
        '    Address 0x7f3a5c400000 is out of bounds',
        '    and is 1 bytes after the nearest allocation at 0x7f3a58400000 of size 67,108,864 bytes',
      ].join('\n'),
    )
  })

  it('finds nothing in a clean log or in the program output around it', () => {
    expect(firstSanitizerError('========= COMPUTE-SANITIZER\nhello from the program\n========= ERROR SUMMARY: 0 errors\n')).toBeUndefined()
  })

  it('reports an API error when that is all there is', () => {
    const log = '========= COMPUTE-SANITIZER\n========= Program hit cudaErrorInvalidValue (error 1) due to "invalid argument" on CUDA API call to cudaMemcpy.\n=========     Saved host backtrace up to driver entry point\n'
    expect(firstSanitizerError(log)).toBe('Program hit cudaErrorInvalidValue (error 1) due to "invalid argument" on CUDA API call to cudaMemcpy.')
  })
})

describe('findSanitizer', () => {
  it('prefers KERNELBENCH_SANITIZER, then the one next to nvcc', () => {
    const dir = makeScratch('kb-sanitizer-')
    const tool = path.join(dir, 'compute-sanitizer')
    fs.writeFileSync(tool, '')
    expect(findSanitizer(undefined, { KERNELBENCH_SANITIZER: tool, PATH: '' })).toBe(tool)
    expect(findSanitizer(path.join(dir, 'nvcc'), { PATH: '' })).toBe(tool)
    removeScratch(dir)
  })

  it('says where it looked when there is none', () => {
    expect(() => findSanitizer('/nowhere/bin/nvcc', { PATH: '/also/nowhere' })).toThrow(
      /compute-sanitizer was not found \(looked in: \/nowhere\/bin\/compute-sanitizer, \/also\/nowhere\/compute-sanitizer/,
    )
  })
})
