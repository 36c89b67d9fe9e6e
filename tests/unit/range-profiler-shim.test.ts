// The range-profiler shim against the real nvcc, libcupti and libnvperf_host on this machine (no GPU needed): it
// compiles and links, depends on libnvperf_host through its run path, exports its entry points; and the binding
// turns CUPTI's refusals into messages that say why profiling cannot run and how to allow it.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileRangeProfilerShim, CuptiNotFoundError, findCupti, findNvperfHost, rangeProfilerFlags, toolkitRootOf } from '../../src/compile/cupti-shim.js'
import { findNvcc } from '../../src/compile/nvcc.js'
import { CuptiError } from '../../src/native/cupti.js'
import { asUnavailable, ProfilerUnavailableError, RangeProfiler, unavailableReason, unsupportedAspects } from '../../src/native/range-profiler.js'
import { captureError } from '../helpers/capture-error.js'
import { expectCuptiError } from '../helpers/cupti.js'
import { dynamicSection, exportedEntryPoints } from '../helpers/symbols.js'
import { scratchFolder } from '../helpers/scratch.js'
import { gpu, withoutGpuTitle } from '../helpers/gpu.js'

const ENTRY_POINTS = ['kb_prof_counters_decode', 'kb_prof_counters_enable', 'kb_prof_counters_end_pass', 'kb_prof_counters_read', 'kb_prof_disable', 'kb_prof_enable', 'kb_prof_start', 'kb_prof_stop', 'kb_prof_support']

const scratch = scratchFolder('kb-range-profiler-')
const cacheDir = path.join(scratch, 'cache')

const toolkitRoot = () => toolkitRootOf(findNvcc())

describe('compileRangeProfilerShim', () => {
  it(
    'compiles with nvcc, needs libcupti and libnvperf_host with their folder as run path, exports every entry point, then comes from the cache',
    () => {
      const first = compileRangeProfilerShim({ arch: 'sm_90a', cacheDir })
      expect(first.cached).toBe(false)
      expect(path.basename(first.path)).toMatch(/^range_profiler_shim_cpp-sm_90a-[0-9a-f]{24}\.so$/)
      expect(exportedEntryPoints(first.path)).toEqual(ENTRY_POINTS)
      const dynamic = dynamicSection(first.path)
      expect(dynamic).toMatch(/NEEDED.*\[libcupti\.so\.\d+\]/)
      expect(dynamic).toMatch(/NEEDED.*\[libnvperf_host\.so\]/)
      expect(dynamic).toContain(`[${findNvperfHost(toolkitRoot())}]`)
      expect(compileRangeProfilerShim({ arch: 'sm_90a', cacheDir })).toEqual({ path: first.path, cached: true })
    },
  )

  it('adds a run path for libnvperf_host only where it is not beside libcupti', () => {
    const cupti = { includeDir: '/t/include', libraryDir: '/t/lib64' }
    expect(rangeProfilerFlags(cupti, '/t/lib64').filter((flag) => flag.startsWith('-rpath'))).toEqual(['-rpath,/t/lib64'])
    expect(rangeProfilerFlags(cupti, '/t/nvperf').filter((flag) => flag.startsWith('-rpath'))).toEqual(['-rpath,/t/lib64', '-rpath,/t/nvperf'])
    expect(rangeProfilerFlags(cupti, '/t/lib64')).toContain('-lnvperf_host')
  })

  it('finds libnvperf_host beside libcupti here, and names every place it looked where a toolkit has none', () => {
    expect(findNvperfHost(toolkitRoot())).toBe(findCupti(toolkitRoot()).libraryDir)
    const root = path.join(scratch, 'toolkit-without-nvperf')
    fs.mkdirSync(path.join(root, 'lib64'), { recursive: true })
    fs.writeFileSync(path.join(root, 'lib64', 'libcupti.so'), '')
    const error = captureError(() => findNvperfHost(root))
    expect(error).toBeInstanceOf(CuptiNotFoundError)
    expect((error as Error).message).toContain(`CUPTI's profiler host library (libnvperf_host.so) not found in the CUDA toolkit at ${root}`)
    expect((error as Error).message).toContain(`  - ${path.join(root, 'extras/CUPTI/lib64/libnvperf_host.so')}`)
  })
})

describe('why profiling cannot run', () => {
  it('restricted counters: says how to allow every user (modprobe option) or to run as root / with CAP_SYS_ADMIN', () => {
    const reason = unavailableReason('CUPTI_ERROR_INSUFFICIENT_PRIVILEGES')
    expect(reason).toMatch(/restricted to admin users/)
    expect(reason).toContain('options nvidia NVreg_RestrictProfilingToAdminUsers=0')
    expect(reason).toContain('/etc/modprobe.d/')
    expect(reason).toMatch(/as root or with CAP_SYS_ADMIN/)
  })

  it('a refusal becomes a ProfilerUnavailable error that names the failing call, says why, and points to the other modes', () => {
    const error = asUnavailable(new CuptiError('kb_prof_enable', 35, 'CUPTI_ERROR_INSUFFICIENT_PRIVILEGES'))
    expect(error).toBeInstanceOf(ProfilerUnavailableError)
    expect(error!.name).toBe('ProfilerUnavailable')
    expect(error!.message).toMatch(
      /^timing 'profiler' cannot run here \(kb_prof_enable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\): profiling is restricted to admin users .* Timing 'cupti' and 'events' need no access to the performance counters\.$/,
    )
    expect(error!.cause).toBeInstanceOf(CuptiError)
    expect(asUnavailable(new CuptiError('kb_prof_start', 7, 'CUPTI_ERROR_INVALID_OPERATION'))).toBeUndefined()
  })

  it('for the counters, the same refusal says that the case is timed all the same', () => {
    const error = asUnavailable(new CuptiError('kb_prof_counters_enable', 35, 'CUPTI_ERROR_INSUFFICIENT_PRIVILEGES'), 'counters')
    expect(error).toBeInstanceOf(ProfilerUnavailableError)
    expect(error!.message).toMatch(
      /^the performance counters cannot be read here \(kb_prof_counters_enable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\): profiling is restricted to admin users .* The case is timed all the same; only its counters are missing\.$/,
    )
  })

  it('unsupported GPUs and drivers say so; other failures are not reasons', () => {
    for (const name of ['CUPTI_ERROR_NOT_SUPPORTED', 'CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED', 'CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED']) {
      expect(unavailableReason(name)).toMatch(/does not support CUPTI range profiling/)
    }
    expect(unavailableReason('CUPTI_ERROR_NOT_COMPATIBLE')).toMatch(/does not support this GPU or driver: a newer CUDA toolkit/)
    expect(unavailableReason('CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED')).toMatch(/MIG/)
    expect(unavailableReason('CUPTI_ERROR_HARDWARE_BUSY')).toMatch(/in use by another profiler/)
    expect(unavailableReason('CUPTI_ERROR_INVALID_PARAMETER')).toBeUndefined()
  })

  it("names the aspects CUPTI's device check does not call supported", () => {
    expect(unsupportedAspects([3, 3, 3, 3, 3, 3, 3])).toBeUndefined()
    expect(unsupportedAspects([1, 3, 3, 2, 3, 3, 1])).toBe(
      'CUPTI reports that this GPU cannot be range-profiled (vGPU: disabled by the system; WSL: unsupported).',
    )
  })
})

describe.skipIf(gpu.available)(withoutGpuTitle('the binding without a GPU'), () => {
  it(
    "loads, and enable() fails in CUPTI's device check with CUPTI's name for the failure",
    () => {
      const profiler = new RangeProfiler(compileRangeProfilerShim({ arch: 'sm_90a', cacheDir }).path)
      const error = captureError(() => profiler.enable(0))
      const cupti = error instanceof ProfilerUnavailableError ? error.cause : error
      expectCuptiError(cupti, 'kb_prof_support')
    },
  )
})
