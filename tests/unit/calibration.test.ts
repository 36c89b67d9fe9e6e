// Self-calibration without a GPU: the offset and ratio arithmetic, the calibration in words (the header line, the
// CLI's tables), the mark and the note on cases whose median is a few times their mode's offset, the per-GPU cache,
// the cases that call the harness's calibration kernels as solutions, ncu's CSV and a stand-in ncu, the plugin option
// and the CLI's arguments.
import fs from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { describeMeasuringCommand } from '../helpers/measuring-cli.js'
import { CALIBRATION, findCalibration } from '../../src/cache/calibration-cache.js'
import { calibrationPlan } from '../../src/engine/host/calibration.js'
import { CALIBRATION_KERNELS } from '../../src/shared/calibration-kernels.js'
import type { DeviceSession } from '../../src/engine/host/device-session.js'
import type { Calibration, CalibrationOutcome, TimerCalibration } from '../../src/shared/messages.js'
import { readCachedRecord, recordFile } from '../../src/cache/gpu-cache.js'
import { durationsPerKernel, ncuDurations } from '../../src/cli/ncu.js'
import { NCU_LAUNCHES, ncuCalibration } from '../../src/cli/ncu-calibration.js'
import { DEFAULT_MEASURE_OPTIONS, type TimingMode } from '../../src/spec/options.js'
import { calibrationLine, describeCalibration, heldReadings, memoryReadings, timerOffsetMs } from '../../src/report/calibration.js'
import {
  OFFSET_MARK,
  caseCells,
  isLargeOffset,
  largeOffsetNote,
  renderDeviceHeader,
  renderKernelResult,
} from '../../src/report/kernel-table.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import type { KernelBenchResult } from '../../src/shared/results.js'
import { loadFixture } from '../fixtures/results/index.js'
import { useScratch } from '../helpers/scratch.js'

const plain = (text: string) => stripVTControlCharacters(text)

const fixture = loadFixture('calibration-offsets')
const calibrated = fixture.result!
const calibration = calibrated.calibration!
const H100 = calibrated.device!

/** The fixture's calibration with one timer replaced. */
function withTimer(timer: TimerCalibration): Calibration {
  return { ...calibration, timers: calibration.timers.map((t) => (t.timer === timer.timer ? timer : t)) }
}

const PROFILER_UNAVAILABLE: TimerCalibration = {
  timer: 'profiler',
  readings: [],
  unavailable: "held 5 µs: ProfilerUnavailable: timing 'profiler' cannot run here (…): profiling is restricted to admin users …",
}

describe('offsets and ratios', () => {
  it('reads each held kernel as median − held and median / held', () => {
    const events = heldReadings(calibration, 'events')
    expect(events.map((r) => r.kernel.name)).toEqual(['held 5 µs', 'held 20 µs', 'held 100 µs'])
    // 7.0812 µs for 5 µs, 22.059 µs for 20 µs, 102.103 µs for 100 µs
    expect(events.map((r) => r.offsetMs * 1e3)).toEqual([expect.closeTo(2.0812, 9), expect.closeTo(2.059, 9), expect.closeTo(2.103, 9)])
    expect(events.map((r) => r.ratio)).toEqual([expect.closeTo(1.41624, 9), expect.closeTo(1.10295, 9), expect.closeTo(1.02103, 9)])
  })

  it("takes a timer's offset as the median of its offsets on the held kernels", () => {
    expect(timerOffsetMs(calibration, 'events')! * 1e3).toBeCloseTo(2.0812, 9)
    expect(timerOffsetMs(calibration, 'cupti')! * 1e3).toBeCloseTo(0.023, 9)
    // Two held kernels: the mean of both offsets.
    const two: Calibration = { ...calibration, kernels: calibration.kernels.filter((k) => k.name !== 'held 100 µs') }
    expect(timerOffsetMs(two, 'events')! * 1e3).toBeCloseTo((2.0812 + 2.059) / 2, 9)
  })

  it('has no offset for a timer that could not run, or one not measured', () => {
    expect(timerOffsetMs(withTimer(PROFILER_UNAVAILABLE), 'profiler')).toBeUndefined()
    const noNcu: Calibration = { ...calibration, timers: calibration.timers.filter((t) => t.timer !== 'ncu') }
    expect(timerOffsetMs(noNcu, 'ncu')).toBeUndefined()
  })

  it("reads the memory-bound kernels against the profiler's and ncu's medians", () => {
    const readings = memoryReadings(calibration)
    expect(readings.map((r) => `${r.kernel} ${r.timer}`).slice(0, 5)).toEqual([
      'add 64 Ki floats events',
      'add 64 Ki floats cupti',
      'add 64 Ki floats profiler',
      'add 64 Ki floats graph',
      'add 64 Ki floats ncu',
    ])
    const events = readings[0]!
    expect(events.toProfiler).toBeCloseTo(0.004379 / 0.002371, 12)
    expect(events.toNcu).toBeCloseTo(0.004379 / 0.00238, 12)
    expect(readings[2]!.toProfiler).toBe(1)
    const withoutProfiler = memoryReadings(withTimer(PROFILER_UNAVAILABLE))
    expect(withoutProfiler.map((r) => r.timer)).not.toContain('profiler')
    expect(withoutProfiler.every((r) => r.toProfiler === undefined && r.toNcu !== undefined)).toBe(true)
  })
})

describe('the calibration in words', () => {
  it('sums up every timer’s offset in one line for the device header', () => {
    expect(calibrationLine(calibration)).toBe(
      'timing offsets on kernels held 5/20/100 µs (calibrated 2026-11-23, %globaltimer in 32 ns steps): ' +
        'events +2.08 µs  ·  cupti +0.02 µs  ·  profiler +0.99 µs  ·  graph +0.63 µs  ·  ncu +1.01 µs',
    )
    const restricted = { ...withTimer(PROFILER_UNAVAILABLE), globalTimerStepNs: 0 }
    expect(calibrationLine(restricted)).toBe(
      'timing offsets on kernels held 5/20/100 µs (calibrated 2026-11-23, %globaltimer in steps of unknown size): ' +
        'events +2.08 µs  ·  cupti +0.02 µs  ·  profiler unavailable  ·  graph +0.63 µs  ·  ncu +1.01 µs',
    )
  })

  it('prints the held and memory-bound kernels per timer, and why a timer could not run (the CLI)', async () => {
    const text = [...describeCalibration(calibration), '', ...describeCalibration(withTimer(PROFILER_UNAVAILABLE))].join('\n')
    await expect(`${text}\n`).toMatchFileSnapshot('./__golden__/calibration-cli.txt')
    const lines = describeCalibration(calibration)
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}held 5 µs +events +7\.08 µs +\+2\.08 µs +1\.416$/))
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}add 64 Ki floats +events +4\.38 µs +1\.85 +1\.84$/))
  })

  it('shows the line under the device line, in the terminal and in Markdown', () => {
    expect(plain(renderDeviceHeader(H100, 'sm_90a', calibrated)).split('\n')[1]).toBe(calibrationLine(calibration))
    expect(renderMarkdown([fixture])).toContain(`\n\ntiming offsets on kernels held 5/20/100 µs`)
  })
})

describe('the mark on a median that is a few times its mode’s offset', () => {
  const median = (result: KernelBenchResult, index: number) => {
    const cells = caseCells(result, result.cases[index]!)
    if ('status' in cells) throw new Error('not timed')
    return cells.figures.median
  }

  it('marks medians within 3× the offset, and says why under the table', () => {
    // events offset +2.08 µs: 4.38 and 5.61 µs are within 6.24 µs, 67.5 µs is not.
    expect([0, 1, 2].map((i) => median(calibrated, i))).toEqual([
      { text: `4.38 µs ${OFFSET_MARK}`, tone: 'warn' },
      { text: `5.61 µs ${OFFSET_MARK}`, tone: 'warn' },
      { text: '67.5 µs', tone: 'plain' },
    ])
    expect(largeOffsetNote(calibrated)).toBe(
      "‡ n = 2^16, n = 2^18: the mode's offset ('events', +2.08 µs on this GPU) is a large share of these numbers: " +
        "use timing 'profiler' (or compare within one mode)",
    )
    expect(plain(renderKernelResult(calibrated))).toContain(`\n  ${largeOffsetNote(calibrated)}`)
  })

  it("uses the result's own timing mode, and in 'profiler' timing only says to compare within it", () => {
    const profiled: KernelBenchResult = { ...calibrated, options: { ...calibrated.options, timing: 'profiler' }, cases: [calibrated.cases[0]!] }
    // profiler offset +0.99 µs: 4.38 µs is more than 2.97 µs.
    expect(median(profiled, 0).text).toBe('4.38 µs')
    const small = { ...calibrated.cases[0]!, summary: { ...calibrated.cases[0]!.summary!, median: 0.00237 } }
    const tiny: KernelBenchResult = { ...profiled, cases: [small] }
    expect(largeOffsetNote(tiny)).toBe(
      "‡ n = 2^16: the mode's offset ('profiler', +0.99 µs on this GPU) is a large share of this number: compare within one mode",
    )
  })

  it('marks nothing without a calibration, or for a mode the calibration could not time', () => {
    const bare: KernelBenchResult = { ...calibrated, calibration: undefined }
    expect(median(bare, 0)).toEqual({ text: '4.38 µs', tone: 'plain' })
    expect(largeOffsetNote(bare)).toBeUndefined()
    const restricted: KernelBenchResult = {
      ...calibrated,
      options: { ...calibrated.options, timing: 'profiler' },
      calibration: withTimer(PROFILER_UNAVAILABLE),
    }
    expect(largeOffsetNote(restricted)).toBeUndefined()
  })

  it('puts both marks on a row that also fell back from spin padding', () => {
    const c = calibrated.cases[0]!
    if (c.outcome.status !== 'ok') throw new Error('not ok')
    const fellBack = { ...c, outcome: { ...c.outcome, timing: { ...c.outcome.timing!, paddingFallback: 'the spin kernel timed out' } } }
    expect(median({ ...calibrated, cases: [fellBack] }, 0).text).toBe(`4.38 µs † ${OFFSET_MARK}`)
  })

  it.each([
    [0.002, 0.006, true],
    [0.002, 0.00601, false],
    [-0.002, 0.005, true],
    [0, 0.000001, false],
    [undefined, 0.000001, false],
  ])('offset %s ms against a median of %s ms: marked %s', (offset, medianMs, marked) => {
    expect(isLargeOffset(offset, medianMs)).toBe(marked)
  })
})

describe('the calibration cache', () => {
  const dir = useScratch('kb-calibration-')

  const measured = (record: Calibration) => vi.fn(async (): Promise<CalibrationOutcome> => ({ status: 'ok', record }))

  it('keeps one file per GPU and driver, beside the ceilings', () => {
    expect(path.relative(dir(), recordFile(dir(), CALIBRATION, H100))).toBe('calibration/NVIDIA_H100_80GB_HBM3__00000000_1B_00.0__580.95.05.json')
  })

  it('measures once when asked, writes the file, later reads it; --force measures again', async () => {
    const warn = vi.fn()
    const measure = measured(calibration)
    expect(await findCalibration({ cacheDir: dir(), device: H100, warn })).toBeUndefined()
    const first = await findCalibration({ cacheDir: dir(), device: H100, measure, warn })
    expect(first).toEqual({ record: calibration, file: recordFile(dir(), CALIBRATION, H100), source: 'measured' })
    expect(JSON.parse(fs.readFileSync(first!.file, 'utf8'))).toEqual(calibration)
    expect((await findCalibration({ cacheDir: dir(), device: H100, warn }))?.source).toBe('cache')
    expect((await findCalibration({ cacheDir: dir(), device: H100, measure, force: true, warn }))?.source).toBe('measured')
    expect(measure).toHaveBeenCalledTimes(2)
    expect(warn).not.toHaveBeenCalled()
  })

  it('warns and caches nothing when the measurement fails', async () => {
    const warn = vi.fn()
    const measure = async (): Promise<CalibrationOutcome> => ({ status: 'error', errorName: 'Timeout', message: 'the calibration did not finish' })
    expect(await findCalibration({ cacheDir: dir(), device: H100, measure, warn })).toBeUndefined()
    expect(warn).toHaveBeenCalledWith('could not measure the calibration of NVIDIA H100 80GB HBM3: Timeout: the calibration did not finish')
    expect(fs.existsSync(recordFile(dir(), CALIBRATION, H100))).toBe(false)
  })

  it.each([
    ['another version', { ...calibration, version: 2 }, 'version 2, expected 1'],
    ['another driver', { ...calibration, gpu: { ...calibration.gpu, driverRelease: '590.1' } }, 'measured on another GPU or driver'],
    ['no kernels', { ...calibration, kernels: [] }, "'kernels' is not a list of named kernels"],
    ['no timers', { ...calibration, timers: [] }, "'timers' is missing"],
    ['a timer without readings', { ...calibration, timers: [{ timer: 'events' }] }, "'timers' is not a list of timers with readings"],
    [
      'a reading of an unknown kernel',
      withTimer({ timer: 'cupti', readings: [{ kernel: 'held 7 µs', medianMs: 0.007, cv: 0, samples: 1 }] }),
      "timer 'cupti' has a reading of no known kernel or without a median",
    ],
    ['no timer step', { ...calibration, globalTimerStepNs: undefined }, "'globalTimerStepNs' is missing"],
  ])('ignores a file with %s, saying why', (_, record, why) => {
    const file = path.join(dir(), 'bad.json')
    fs.writeFileSync(file, JSON.stringify(record))
    const warn = vi.fn()
    expect(readCachedRecord(CALIBRATION, file, H100, warn)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^ignoring the cached calibration in ${file}: .*${why.replace(/[()]/g, '\\$&')}`)))
  })
})

describe('the cases that time the calibration kernels', () => {
  const session = { harness: { library: '/cache/harness.so' } } as unknown as DeviceSession
  const [held5, , , add64Ki] = CALIBRATION_KERNELS

  it("call the harness's entry points as solutions, with nothing to verify against", () => {
    const plan = calibrationPlan(session, held5!, { ...DEFAULT_MEASURE_OPTIONS, timing: 'cupti' })
    expect(plan.solution).toEqual({ library: '/cache/harness.so', entry: 'kb_calibration_hold', params: ['size_t', 'int'] })
    expect(plan.args).toEqual([
      { kind: 'scalar', ctype: 'size_t', value: 5000 },
      { kind: 'scalar', ctype: 'int', value: 0 },
    ])
    expect(plan).toMatchObject({ caseName: 'held 5 µs', mode: 'bench', reference: { kind: 'none' } })
    expect(plan.options).toEqual({ ...DEFAULT_MEASURE_OPTIONS, timing: 'cupti', skipVerification: true })
  })

  it('give the add its buffers, and launch on the per-thread default stream in graph timing only', () => {
    const timings: TimingMode[] = ['events', 'cupti', 'profiler', 'graph']
    const plans = timings.map((timing) => calibrationPlan(session, add64Ki!, { ...DEFAULT_MEASURE_OPTIONS, timing }))
    expect(plans[0]!.solution.params).toEqual(['void *', 'void *', 'void *', 'size_t', 'int'])
    expect(plans[0]!.args.slice(0, 4)).toEqual([
      { kind: 'input', name: 'a', dtype: 'float32', count: 65536, range: [-1, 1] },
      { kind: 'input', name: 'b', dtype: 'float32', count: 65536, range: [-1, 1] },
      { kind: 'output', name: 'c', dtype: 'float32', count: 65536 },
      { kind: 'scalar', ctype: 'size_t', value: 65536 },
    ])
    expect(plans.map((p) => p.args.at(-1))).toEqual([0, 0, 0, 1].map((value) => ({ kind: 'scalar', ctype: 'int', value })))
  })
})

/** ncu's CSV for the calibration kernels: `launches` rows per kernel, at `ns` each. */
function ncuCsv(launches: number, ns: (kernel: number, launch: number) => number): string {
  const header = '"ID","Process ID","Process Name","Kernel Name","Block Size","Metric Name","Metric Unit","Metric Value"'
  const rows = CALIBRATION_KERNELS.flatMap((k, i) =>
    Array.from({ length: launches }, (_, j) => {
      const name = k.kind === 'held' ? 'calibrationHoldKernel(unsigned long)' : 'calibrationAddKernel(const float *, const float *, float *, unsigned long)'
      return `"${i * launches + j}","4242","node","${name}","(1, 1, 1)","gpu__time_duration.sum","ns","${ns(i, j).toLocaleString('en-US')}"`
    }),
  )
  return ['==PROF== Connected to process 4242 (node)', header, ...rows, '==PROF== Disconnected from process 4242'].join('\n')
}

describe("ncu's CSV", () => {
  it('gives the durations in launch order, in ns, whatever the unit', () => {
    const csv = ['==PROF== Connected', '"Kernel Name","Metric Unit","Metric Value"', '"a(int)","ns","1,234"', '"b","usecond","2.5"', '"c","msecond","0.5"'].join('\n')
    expect(ncuDurations(csv)).toEqual([
      ['a(int)', 1234],
      ['b', 2500],
      ['c', 500_000],
    ])
  })

  it('groups the launches per kernel in ms, and refuses rows out of step with the kernels', () => {
    const kernels = [
      { label: 'first', ncuName: 'alpha' },
      { label: 'second', ncuName: 'beta' },
    ]
    const rows: Array<[string, number]> = [
      ['alpha(int)', 1000],
      ['alpha(int)', 1100],
      ['beta(int)', 2000],
      ['beta(int)', 2100],
    ]
    expect(durationsPerKernel(rows, kernels, 2)).toEqual([
      [0.001, 0.0011],
      [0.002, 0.0021],
    ])
    expect(() => durationsPerKernel([rows[0]!, rows[2]!, rows[1]!, rows[3]!], kernels, 2)).toThrow(/^ncu launches out of step at first: /)
    expect(() => durationsPerKernel(rows.slice(1), kernels, 2)).toThrow('ncu measured 3 launches, expected 2 kernels × 2')
  })
})

describe('the calibration kernels under a stand-in for ncu', () => {
  const dir = useScratch('kb-fake-ncu-')

  /** An executable that records its arguments, prints `stdout` and exits with `status`. */
  function fakeNcu(stdout: string, status = 0): string {
    const file = path.join(dir(), 'ncu')
    fs.writeFileSync(path.join(dir(), 'out.txt'), stdout)
    fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir()}/args.txt'\ncat '${dir()}/out.txt'\nexit ${status}\n`, { mode: 0o755 })
    return file
  }

  const config = { device: 0, cacheDir: '/cache' }

  it("reads the median of each kernel's launches, measuring only the calibration kernels", () => {
    // Launch j of kernel i takes (i + 1) µs + j ns.
    const ncu = fakeNcu(ncuCsv(NCU_LAUNCHES, (i, j) => (i + 1) * 1000 + j))
    const timer = ncuCalibration(ncu, config)
    expect(timer.unavailable).toBeUndefined()
    expect(timer.readings.map((r) => [r.kernel, r.medianMs, r.samples])).toEqual(
      CALIBRATION_KERNELS.map((k, i) => [k.name, ((i + 1) * 1000 + (NCU_LAUNCHES - 1) / 2) / 1e6, NCU_LAUNCHES]),
    )
    const args = fs.readFileSync(path.join(dir(), 'args.txt'), 'utf8').split('\n')
    expect(args.slice(0, 9)).toEqual(['--clock-control', 'none', '--cache-control', 'all', '--metrics', 'gpu__time_duration.sum', '--csv', '--print-units', 'base'])
    expect(args).toContain('regex:^(calibrationHoldKernel|calibrationAddKernel)')
    expect(args).toContain(JSON.stringify(config))
    expect(args.some((a) => /calibration-launches\.(ts|js)$/.test(a))).toBe(true)
  })

  it('says why when ncu measured nothing, failed, or saw other launches', () => {
    const refused = ncuCalibration(fakeNcu('==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters'), config)
    expect(refused).toEqual({
      timer: 'ncu',
      readings: [],
      unavailable: 'ncu measured no kernel: ==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters',
    })
    expect(ncuCalibration(fakeNcu('==ERROR== The application returned an error code (1).', 1), config).unavailable).toBe(
      `${path.join(dir(), 'ncu')} exited with 1: ==ERROR== The application returned an error code (1).`,
    )
    expect(ncuCalibration(fakeNcu(ncuCsv(NCU_LAUNCHES - 1, () => 1000)), config).unavailable).toBe(
      `ncu measured ${5 * (NCU_LAUNCHES - 1)} launches, expected 5 kernels × ${NCU_LAUNCHES}`,
    )
  })
})

describeMeasuringCommand('calibrate', {
  refusals: [
    [['calibrate', '--dtype', 'float16'], 'calibrate does not take --dtype'],
    [['calibrate', '--html', 'x.html'], 'calibrate does not take --html'],
    [['calibrate', '--device', '1.5'], "--device must be a CUDA device index (got '1.5')"],
    [['calibrate', 'now'], 'unexpected arguments: now'],
  ],
  withoutGpu: 'says why there is nothing to calibrate without a GPU',
  args: (cacheDir) => ['calibrate', '--force', '--cache-dir', cacheDir],
})
