// The `ncu` command's parts that need no GPU: ncu's rows grouped into calls and cases, the harness's medians read
// from a results file, the table, the option that puts timed calls into NVTX ranges, and the command's usage errors.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ncuDurations } from '../../src/cli/ncu.js'
import { harnessTimesByCase, ncuComparisonTable, ncuTimesByCase, UNDER_NCU_ENV } from '../../src/cli/ncu-bench.js'
import { measureOptionsFromEnv, resolveMeasureOptions } from '../../src/spec/options.js'
import type { ResultsFile } from '../../src/report/json.js'
import { runCli } from '../helpers/cli.js'
import { scratchFolder } from '../helpers/scratch.js'

describe("ncu's rows per case", () => {
  it("sums each call's kernels, takes the median over the calls, and leaves out kernels outside the ranges", () => {
    // As ncu --print-nvtx-rename kernel names them: the inner range, then the kernel.
    const rows: Array<[string, number]> = [
      ['add · n=1 #0/vectorAdd4(const float4 *, const float4 *, float4 *, unsigned long)', 10_000],
      ['add · n=1 #1/vectorAdd4(const float4 *, const float4 *, float4 *, unsigned long)', 12_000],
      ['add · n=1 #2/vectorAdd4(const float4 *, const float4 *, float4 *, unsigned long)', 11_000],
      // two kernels in each call of a two-kernel solution
      ['gemm · 4096³ #0/gemm_main', 1_000_000],
      ['gemm · 4096³ #0/splitk_reduce', 500_000],
      ['gemm · 4096³ #1/gemm_main', 1_100_000],
      ['gemm · 4096³ #1/splitk_reduce', 400_000],
      ['gemm · 4096³ #2/gemm_main', 2_000_000],
      ['gemm · 4096³ #2/splitk_reduce', 100_000],
      ['vectorAdd(float const*, float const*, float*, int)', 99_000],
    ]
    const times = ncuTimesByCase(rows)
    expect([...times.keys()]).toEqual(['add · n=1', 'gemm · 4096³'])
    expect(times.get('add · n=1')).toEqual({ medianMs: 0.011, calls: 3 })
    expect(times.get('gemm · 4096³')).toEqual({ medianMs: 1.5, calls: 3 })
  })

  it("reads ncu's CSV with its NVTX columns (a row of an H100 run, 2026-11-26)", () => {
    const csv = [
      String.raw`"ID","Process ID","Process Name","Host Name","thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg","Id:Domain:Start/Stop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"`,
      String.raw`"27","1361","node","127.0.0.1","1361  ""<default domain>:kernel-bench:none:none:none:none:none:none""  ""<default domain>:vector add (float4) · n = 2^30 #3:none:none:none:none:none:none"" ","","vector add (float4) · n = 2^30 #3/vectorAdd4(const float4 *, const float4 *, float4 *, unsigned long)","1","7","(256, 1, 1)","(1048560, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","4,187,008"`,
    ].join('\n')
    const rows = ncuDurations(csv)
    expect(rows).toEqual([['vector add (float4) · n = 2^30 #3/vectorAdd4(const float4 *, const float4 *, float4 *, unsigned long)', 4_187_008]])
    expect(ncuTimesByCase(rows).get('vector add (float4) · n = 2^30')).toEqual({ medianMs: 4.187008, calls: 1 })
  })

  it('keeps a case whose name itself contains " #"', () => {
    expect(ncuTimesByCase([['bench #2 · case #1 #4/k', 2_000]]).get('bench #2 · case #1')).toEqual({ medianMs: 0.002, calls: 1 })
  })
})

describe('the comparison', () => {
  const results = {
    benches: [
      { file: 'a.bench.ts', name: 'add', result: { bench: 'add', cases: [{ name: 'n=1', summary: { median: 0.0121 } }, { name: 'n=2' }] } },
      { file: 'a.bench.ts', name: 'skipped' },
    ],
  } as unknown as ResultsFile

  it("reads the harness's median of every timed case, keyed as the NVTX ranges name it", () => {
    expect([...harnessTimesByCase(results)]).toEqual([['add · n=1', 0.0121]])
  })

  it('prints both medians and their ratio, and a dash where one side has no time', () => {
    const table = ncuComparisonTable(harnessTimesByCase(results), new Map([
      ['add · n=1', { medianMs: 0.011, calls: 10 }],
      ['add · n=3', { medianMs: 0.02, calls: 10 }],
    ]))
    expect(table[0]).toMatch(/^case\s+harness\s+ncu\s+harness \/ ncu\s+ncu calls$/)
    expect(table.find((l) => l.startsWith('add · n=1'))).toMatch(/12\.1 µs\s+11\.0 µs\s+1\.100\s+10$/)
    expect(table.find((l) => l.startsWith('add · n=3'))).toMatch(/—\s+20\.0 µs\s+—\s+10$/)
  })
})

describe('nvtxRanges', () => {
  it('is off by default, set by KERNELBENCH_NVTX_RANGES, and the run under ncu turns the stream audit off', () => {
    expect(resolveMeasureOptions().nvtxRanges).toBe(false)
    const options = resolveMeasureOptions(measureOptionsFromEnv(UNDER_NCU_ENV))
    expect(options).toMatchObject({ nvtxRanges: true, auditStreams: false, timing: 'events', minIterations: 10, maxIterations: 10 })
  })

  it("needs events timing: the other modes use CUPTI, which ncu holds", () => {
    expect(() => resolveMeasureOptions({ nvtxRanges: true, timing: 'cupti' })).toThrow(
      "option nvtxRanges needs timing 'events' (got 'cupti', which uses CUPTI, and a profiler attached to the process holds CUPTI)",
    )
  })
})

describe('the ncu command (npx tsx src/cli/cli.ts ncu)', () => {
  it('takes one bench file', { timeout: 60_000 }, () => {
    const none = runCli('ncu')
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('vitest-kernel-bench: ncu takes one bench file\n')
  })

  it('says where to get ncu when it is not on PATH', { timeout: 60_000 }, () => {
    const result = runCli('ncu', 'bench/vector-addition.bench.ts', '--ncu', '')
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('ncu is not on PATH: install Nsight Compute')
  })

  // A stand-in for ncu that runs nothing: it records how it was called and writes two calls' rows to its log file, so
  // that the command's own part (the flags, the run's environment, reading the log, the table) is checked without a
  // GPU. What ncu measures on a GPU is in docs/measurements.md.
  it('runs the file, then ncu with the NVTX flags and the environment of a run under ncu, and prints ncu\'s medians', { timeout: 300_000 }, () => {
    const dir = scratchFolder('kernel-bench-fake-ncu-')
    const ncu = path.join(dir, 'ncu')
    fs.writeFileSync(
      ncu,
      [
        '#!/bin/sh',
        'log=""; prev=""',
        'for a in "$@"; do [ "$prev" = "--log-file" ] && log="$a"; prev="$a"; done',
        `printf '%s\\n' "$@" > '${dir}/argv'`,
        `env | grep '^KERNELBENCH_' > '${dir}/env'`,
        `printf '"ID","Kernel Name","Metric Unit","Metric Value"\\n"0","vector add (float4) · n = 2^20 #0/vectorAdd4(float4 const*)","ns","6,000"\\n"1","vector add (float4) · n = 2^20 #1/vectorAdd4(float4 const*)","ns","6,200"\\n' > "$log"`,
      ].join('\n'),
      { mode: 0o755 },
    )
    const result = runCli('ncu', 'bench/vector-addition.bench.ts', '--ncu', ncu)
    expect(result.status, result.stderr).toBe(0)
    const argv = fs.readFileSync(path.join(dir, 'argv'), 'utf8').split('\n')
    expect(argv.slice(0, 16)).toEqual([
      ...['--clock-control', 'none', '--cache-control', 'all', '--metrics', 'gpu__time_duration.sum', '--csv', '--print-units', 'base'],
      ...['--target-processes', 'all', '--nvtx', '--nvtx-include', 'kernel-bench/', '--print-nvtx-rename', 'kernel'],
    ])
    expect(argv.slice(18)).toEqual(expect.arrayContaining(['bench', '--run', 'bench/vector-addition.bench.ts']))
    const env = fs.readFileSync(path.join(dir, 'env'), 'utf8')
    for (const [name, value] of Object.entries(UNDER_NCU_ENV)) expect(env).toContain(`${name}=${value}\n`)
    expect(result.stdout).toMatch(/vector add \(float4\) · n = 2\^20\s+—\s+6\.10 µs\s+—\s+2\n/)
  })
})
