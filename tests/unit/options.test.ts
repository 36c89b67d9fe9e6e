import { describe, expect, it } from 'vitest'
import { booleanFromEnv, DEFAULT_MEASURE_OPTIONS, measureOptionsFromEnv, resolveMeasureOptions, type MeasureOptions } from '../../src/spec/options.js'

describe('resolveMeasureOptions: defaults', () => {
  it('returns the protocol defaults (docs/protocol.md) with no layers', () => {
    expect(resolveMeasureOptions()).toEqual({
      minIterations: 5,
      maxIterations: 10_000,
      targetCv: 0.01,
      minTimeMs: 50,
      longKernelMinTimeMs: 250,
      maxTimeMs: 10_000,
      globalWarmupCount: 10,
      globalWarmupSize: 5000,
      warmupRuns: 3,
      flush: 'read',
      flushFactor: 2,
      padding: 'matmul',
      paddingSize: 1024,
      throttleFraction: 0.75,
      caseTimeoutMs: 120_000,
      skipVerification: false,
      disableTiming: false,
      timing: 'events',
      graphBatch: 20,
      auditStreams: true,
      counters: false,
      nvtxRanges: false,
    })
  })

  it('returns a copy: changing the result leaves the defaults alone', () => {
    const options = resolveMeasureOptions()
    options.targetCv = 0.5
    expect(DEFAULT_MEASURE_OPTIONS.targetCv).toBe(0.01)
    expect(resolveMeasureOptions().targetCv).toBe(0.01)
  })

  it('ignores undefined layers and undefined values', () => {
    expect(resolveMeasureOptions(undefined, { targetCv: undefined }, undefined)).toEqual(DEFAULT_MEASURE_OPTIONS)
  })
})

describe('resolveMeasureOptions: layering', () => {
  it('applies layers in order, the later winning key by key', () => {
    const plugin: Partial<MeasureOptions> = { targetCv: 0.02, flush: 'memset', maxIterations: 500 }
    const bench: Partial<MeasureOptions> = { targetCv: 0.005, padding: 'spin' }
    const options = resolveMeasureOptions(plugin, bench)
    expect(options.targetCv).toBe(0.005)
    expect(options.flush).toBe('memset')
    expect(options.maxIterations).toBe(500)
    expect(options.padding).toBe('spin')
    expect(options.minIterations).toBe(5)
  })

  it('lets an undefined value in a later layer keep the earlier one', () => {
    expect(resolveMeasureOptions({ warmupRuns: 7 }, { warmupRuns: undefined }).warmupRuns).toBe(7)
  })

  it('validates the merged result, not each layer alone', () => {
    // maxIterations 3 < default minIterations 5 on its own, but the bench raises it back.
    expect(resolveMeasureOptions({ maxIterations: 3, minIterations: 2 }, { maxIterations: 10 }).maxIterations).toBe(10)
    expect(() => resolveMeasureOptions({ minIterations: 2 }, { maxIterations: 1 })).toThrow(
      'option minIterations (2) exceeds maxIterations (1)',
    )
  })
})

describe('resolveMeasureOptions: errors', () => {
  const resolve = (layer: Record<string, unknown>) => () => resolveMeasureOptions(layer as Partial<MeasureOptions>)

  it('names an unknown option, and the known one it is closest to', () => {
    expect(resolve({ targetCV: 0.01 })).toThrow("unknown option 'targetCV' (did you mean 'targetCv'?)")
    expect(resolve({ flsuh: 'read' })).toThrow("unknown option 'flsuh' (did you mean 'flush'?)")
  })

  it('lists every option where none is close to the unknown one', () => {
    const all = Object.keys(DEFAULT_MEASURE_OPTIONS)
    expect(resolve({ warmup: 5 })).toThrow(`unknown option 'warmup' (the options are: ${all.join(', ')})`)
    expect(resolve({ colour: 'red' })).toThrow(`unknown option 'colour' (the options are: ${all.join(', ')})`)
    expect(all).toContain('warmupRuns')
  })

  it("treats Object.prototype's names as unknown options too", () => {
    expect(resolve({ toString: 1 })).toThrow("unknown option 'toString'")
    expect(resolve({ constructor: 1 })).toThrow("unknown option 'constructor'")
  })

  it.each(['minIterations', 'maxIterations', 'targetCv', 'maxTimeMs', 'flushFactor', 'paddingSize', 'caseTimeoutMs', 'globalWarmupSize'])(
    '%s must be a positive number',
    (key) => {
      for (const bad of [0, -1, Number.NaN]) {
        expect(resolve({ [key]: bad, ...(key === 'maxIterations' ? { minIterations: 1 } : {}) })).toThrow(
          `option ${key} must be a positive number (got ${bad})`,
        )
      }
      expect(resolve({ [key]: '5' })).toThrow(`option ${key} must be a positive number (got 5)`)
    },
  )

  it.each(['minTimeMs', 'longKernelMinTimeMs', 'warmupRuns', 'globalWarmupCount'])('%s may be zero but not negative', (key) => {
    expect(resolveMeasureOptions({ [key]: 0 })[key as keyof MeasureOptions]).toBe(0)
    expect(resolve({ [key]: -1 })).toThrow(`option ${key} must be zero or more (got -1)`)
    expect(resolve({ [key]: Number.NaN })).toThrow(`option ${key} must be zero or more (got NaN)`)
  })

  it('throttleFraction must be in [0, 1)', () => {
    expect(resolveMeasureOptions({ throttleFraction: 0 }).throttleFraction).toBe(0)
    expect(resolveMeasureOptions({ throttleFraction: 0.99 }).throttleFraction).toBe(0.99)
    expect(resolve({ throttleFraction: 1 })).toThrow('option throttleFraction must be in [0, 1) (got 1)')
    expect(resolve({ throttleFraction: -0.1 })).toThrow('option throttleFraction must be in [0, 1) (got -0.1)')
  })

  it('flush must be read, memset or none', () => {
    for (const flush of ['read', 'memset', 'none'] as const) expect(resolveMeasureOptions({ flush }).flush).toBe(flush)
    expect(resolve({ flush: 'write' })).toThrow("option flush must be one of read, memset, none (got 'write')")
  })

  it('padding must be matmul, spin or none', () => {
    for (const padding of ['matmul', 'spin', 'none'] as const) expect(resolveMeasureOptions({ padding }).padding).toBe(padding)
    expect(resolve({ padding: 'sleep' })).toThrow("option padding must be one of matmul, spin, none (got 'sleep')")
  })

  it('minIterations may equal maxIterations', () => {
    const options = resolveMeasureOptions({ minIterations: 7, maxIterations: 7 })
    expect([options.minIterations, options.maxIterations]).toEqual([7, 7])
  })

  it('timing must be events, cupti, profiler or graph', () => {
    for (const timing of ['events', 'cupti', 'profiler', 'graph'] as const) expect(resolveMeasureOptions({ timing }).timing).toBe(timing)
    expect(resolve({ timing: 'wallclock' })).toThrow(/^option timing must be one of events, cupti, profiler, graph \(got 'wallclock'\)$/)
    expect(resolve({ timing: 'cuptii' })).toThrow("option timing must be one of events, cupti, profiler, graph (got 'cuptii') (did you mean 'cupti'?)")
  })

  it('switches must be true or false', () => {
    for (const key of ['skipVerification', 'disableTiming', 'auditStreams', 'counters']) {
      expect(resolve({ [key]: 'yes' })).toThrow(`option ${key} must be true or false (got yes)`)
      expect(resolve({ [key]: 1 })).toThrow(`option ${key} must be true or false (got 1)`)
    }
  })

  it('counts must be whole numbers', () => {
    expect(resolve({ minIterations: 2.5 })).toThrow('option minIterations must be a whole number (got 2.5)')
    expect(resolve({ graphBatch: 0 })).toThrow('option graphBatch must be a positive number (got 0)')
  })
})

describe('measureOptionsFromEnv', () => {
  it('reads each knob with its type', () => {
    expect(
      measureOptionsFromEnv({
        KERNELBENCH_WARMUP: '7',
        KERNELBENCH_MIN_ITERATIONS: '3',
        KERNELBENCH_MAX_ITERATIONS: '40',
        KERNELBENCH_TARGET_CV: '0.02',
        KERNELBENCH_MAX_TIME_MS: '2000',
        KERNELBENCH_MIN_TIME_MS: '20',
        KERNELBENCH_LONG_KERNEL_MIN_TIME_MS: '250',
        KERNELBENCH_TIMING: 'cupti',
        KERNELBENCH_DISABLE_TIMING: '1',
        KERNELBENCH_SKIP_VERIFICATION: 'false',
        KERNELBENCH_COUNTERS: 'true',
      }),
    ).toEqual({
      warmupRuns: 7,
      minIterations: 3,
      maxIterations: 40,
      targetCv: 0.02,
      maxTimeMs: 2000,
      minTimeMs: 20,
      longKernelMinTimeMs: 250,
      timing: 'cupti',
      disableTiming: true,
      skipVerification: false,
      counters: true,
    })
  })

  it('ignores unset and empty variables and other names', () => {
    expect(measureOptionsFromEnv({ KERNELBENCH_WARMUP: '', KERNELBENCH_MIN_ITERATIONS: '  ', PATH: '/bin' })).toEqual({})
  })

  it('names the variable of a bad value', () => {
    expect(() => measureOptionsFromEnv({ KERNELBENCH_WARMUP: 'many' })).toThrow("KERNELBENCH_WARMUP must be a number (got 'many')")
    expect(() => measureOptionsFromEnv({ KERNELBENCH_SKIP_VERIFICATION: 'yes' })).toThrow("KERNELBENCH_SKIP_VERIFICATION must be 1 or 0 (got 'yes')")
  })

  it('checks every value under its variable, not the option it sets', () => {
    expect(() => measureOptionsFromEnv({ KERNELBENCH_TIMING: 'foo' })).toThrow("KERNELBENCH_TIMING must be one of events, cupti, profiler, graph (got 'foo')")
    expect(() => measureOptionsFromEnv({ KERNELBENCH_TIMING: 'grpah' })).toThrow("KERNELBENCH_TIMING must be one of events, cupti, profiler, graph (got 'grpah') (did you mean 'graph'?)")
    expect(() => measureOptionsFromEnv({ KERNELBENCH_WARMUP: '-1' })).toThrow('KERNELBENCH_WARMUP must be zero or more (got -1)')
    expect(() => measureOptionsFromEnv({ KERNELBENCH_MIN_ITERATIONS: '2.5' })).toThrow('KERNELBENCH_MIN_ITERATIONS must be a whole number (got 2.5)')
    expect(() => measureOptionsFromEnv({ KERNELBENCH_TARGET_CV: '0' })).toThrow('KERNELBENCH_TARGET_CV must be a positive number (got 0)')
  })

  it('reads a switch as 1/true or 0/false, naming the variable of anything else', () => {
    expect([booleanFromEnv({ X: '1' }, 'X'), booleanFromEnv({ X: 'false' }, 'X'), booleanFromEnv({ X: ' ' }, 'X'), booleanFromEnv({}, 'X')]).toEqual([true, false, undefined, undefined])
    expect(() => booleanFromEnv({ KERNELBENCH_SANITIZE: 'yes' }, 'KERNELBENCH_SANITIZE')).toThrow("KERNELBENCH_SANITIZE must be 1 or 0 (got 'yes')")
  })
})
