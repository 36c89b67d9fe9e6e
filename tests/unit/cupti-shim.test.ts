// The CUPTI shim against the real nvcc and libcupti on this machine (no GPU needed): it compiles and links, exports
// its entry points, finds CUPTI in each toolkit layout, joins records to pushed ids correctly, and its binding names
// CUPTI's errors.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileCuptiShim, cuptiFlags, CuptiNotFoundError, findCupti, toolkitRootOf } from '../../src/compile/cupti-shim.js'
import { findNvcc } from '../../src/compile/nvcc.js'
import { Cupti } from '../../src/native/cupti.js'
import { packagePath } from '../../src/spec/paths.js'
import { captureError } from '../helpers/capture-error.js'
import { expectCuptiError } from '../helpers/cupti.js'
import { dynamicSection, exportedEntryPoints } from '../helpers/symbols.js'
import { scratchFolder } from '../helpers/scratch.js'
import { gpu, withoutGpuTitle } from '../helpers/gpu.js'

const ENTRY_POINTS = ['kb_cupti_claim', 'kb_cupti_flush', 'kb_cupti_keep_launches', 'kb_cupti_launch', 'kb_cupti_launches', 'kb_cupti_lost', 'kb_cupti_pop', 'kb_cupti_probe', 'kb_cupti_push', 'kb_cupti_read', 'kb_cupti_release', 'kb_cupti_start', 'kb_cupti_stop', 'kb_cupti_timestamp', 'kb_cupti_untagged', 'kb_cupti_window']

const scratch = scratchFolder('kb-cupti-')
const cacheDir = path.join(scratch, 'cache')

const nvcc = () => findNvcc()
const cuptiHere = () => findCupti(toolkitRootOf(nvcc()))

describe('compileCuptiShim', () => {
  it(
    'compiles with nvcc, links libcupti with its folder as run path, exports every entry point, then comes from the cache',
    () => {
      const first = compileCuptiShim({ arch: 'sm_90a', cacheDir })
      expect(first.cached).toBe(false)
      expect(path.basename(first.path)).toMatch(/^cupti_shim_cpp-sm_90a-[0-9a-f]{24}\.so$/)
      expect(exportedEntryPoints(first.path)).toEqual(ENTRY_POINTS)
      const dynamic = dynamicSection(first.path)
      expect(dynamic).toMatch(/NEEDED.*\[libcupti\.so\.\d+\]/)
      expect(dynamic).toContain(`[${cuptiHere().libraryDir}]`)
      expect(compileCuptiShim({ arch: 'sm_90a', cacheDir })).toEqual({ path: first.path, cached: true })
    },
  )
})

describe('finding CUPTI', () => {
  it("asks nvcc for its toolkit, so that a wrapper script on PATH still leads to the toolkit's CUPTI", () => {
    const root = toolkitRootOf(nvcc())
    expect(fs.existsSync(path.join(root, 'bin', 'nvcc'))).toBe(true)
    const wrapper = path.join(scratch, 'wrapper-bin', 'nvcc')
    fs.mkdirSync(path.dirname(wrapper), { recursive: true })
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(path.join(root, 'bin', 'nvcc'))} "$@"\n`, { mode: 0o755 })
    expect(toolkitRootOf(wrapper)).toBe(root)
    expect(fs.existsSync(path.join(cuptiHere().includeDir, 'cupti.h'))).toBe(true)
  })

  it('finds the extras/CUPTI layout of older and cluster toolkits', () => {
    const root = path.join(scratch, 'toolkit-extras')
    for (const file of ['extras/CUPTI/include/cupti.h', 'extras/CUPTI/lib64/libcupti.so']) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      fs.writeFileSync(path.join(root, file), '')
    }
    expect(findCupti(root)).toEqual({ includeDir: path.join(root, 'extras/CUPTI/include'), libraryDir: path.join(root, 'extras/CUPTI/lib64') })
  })

  it('names every place it looked when the toolkit has no CUPTI', () => {
    const root = path.join(scratch, 'toolkit-without-cupti')
    fs.mkdirSync(path.join(root, 'include'), { recursive: true })
    fs.writeFileSync(path.join(root, 'include', 'cupti.h'), '')
    const error = captureError(() => findCupti(root))
    expect(error).toBeInstanceOf(CuptiNotFoundError)
    expect((error as Error).message).toContain(`CUPTI not found in the CUDA toolkit at ${root}`)
    expect((error as Error).message).toContain(`  - ${path.join(root, 'extras/CUPTI/lib64/libcupti.so')}`)
  })
})

// Feeds hand-made activity records to the shim's record handler (a test program that includes the shim's source),
// then reads the spans back through the exported entry points, as the binding does.
const JOIN_PROGRAM = `
#include ${JSON.stringify(packagePath('cuda/cupti_shim.cpp'))}
#include <cstdio>

static void kernelRecord(uint32_t correlationId, uint64_t start, uint64_t end) {
  CUpti_ActivityKernel10 r{};
  r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  r.correlationId = correlationId; r.start = start; r.end = end;
  addRecord(reinterpret_cast<CUpti_Activity*>(&r));
}
static void memsetRecord(uint32_t correlationId, uint64_t start, uint64_t end) {
  CUpti_ActivityMemset4 r{};
  r.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  r.correlationId = correlationId; r.start = start; r.end = end;
  addRecord(reinterpret_cast<CUpti_Activity*>(&r));
}
static void copyRecord(uint32_t correlationId, uint64_t start, uint64_t end, CUpti_ActivityMemcpyKind copyKind) {
  CUpti_ActivityMemcpy6 r{};
  r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  r.copyKind = copyKind; r.correlationId = correlationId; r.start = start; r.end = end;
  addRecord(reinterpret_cast<CUpti_Activity*>(&r));
}
static void tagRecord(uint32_t correlationId, uint64_t id, CUpti_ExternalCorrelationKind kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) {
  CUpti_ActivityExternalCorrelation r{};
  r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  r.externalKind = kind; r.correlationId = correlationId; r.externalId = id;
  addRecord(reinterpret_cast<CUpti_Activity*>(&r));
}
static void readSpans(size_t capacity) {
  uint64_t ids[8], starts[8], ends[8], busy[8], offDevice[8];
  size_t count = 99;
  int status = kb_cupti_read(ids, starts, ends, busy, offDevice, capacity, &count);
  std::printf("read %d", status);
  for (size_t i = 0; i < count; i++) {
    std::printf(" %llu:%llu-%llu/%llu", (unsigned long long)ids[i], (unsigned long long)starts[i], (unsigned long long)ends[i], (unsigned long long)busy[i]);
    if (offDevice[i] > 0) std::printf("+%llu", (unsigned long long)offDevice[i]);
  }
  std::printf("\\n");
}

static void readUntagged(size_t capacity) {
  uint64_t starts[8], ends[8];
  size_t count = 99;
  int status = kb_cupti_untagged(starts, ends, capacity, &count);
  std::printf("untagged %d", status);
  for (size_t i = 0; i < count; i++) std::printf(" %llu-%llu", (unsigned long long)starts[i], (unsigned long long)ends[i]);
  std::printf("\\n");
}

static void readLost() {
  uint64_t lost = 99;
  int status = kb_cupti_lost(&lost);
  std::printf("lost %d %llu\\n", status, (unsigned long long)lost);
}

static void printLaunches(uint64_t id) {
  size_t count = 99;
  std::printf("launches %d", kb_cupti_launches(id, &count));
  for (size_t i = 0; i < count; i++) {
    int32_t kind = -1, config[9];
    const char* name = nullptr;
    kb_cupti_launch(i, &kind, config, &name);
    std::printf(" %d", kind);
  }
  std::printf("\\n");
}

int main() {
  tagRecord(100, 7); kernelRecord(100, 1000, 1500);   // tag before its kernel
  memsetRecord(101, 1600, 1700); tagRecord(101, 7);   // tag after its memset, same iteration
  kernelRecord(102, 1800, 1900);                // launched outside push/pop: no tag
  kernelRecord(103, 2000, 2100); tagRecord(103, 8);   // one call, two kernels (a graph launch)
  kernelRecord(103, 2050, 2300);
  tagRecord(103, 99, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);  // another tool's id on the same call
  tagRecord(104, 9);                            // a call inside push/pop that launched nothing
  tagRecord(105, 10); kernelRecord(105, 0, 0);        // no timestamps
  tagRecord(106, 11); kernelRecord(106, 3000, 3100);
  readSpans(2);
  readSpans(8);
  readSpans(8);
  readLost();
  readLost();
  kb_cupti_keep_launches(1);   // the counters' pass: kernels, memsets and copies, in the order they ran
  tagRecord(200, 20); kernelRecord(200, 5200, 5300);
  tagRecord(201, 20); memsetRecord(201, 5000, 5100);
  kernelRecord(202, 5400, 5500);                // outside push/pop: not the pass's
  printLaunches(20);
  printLaunches(20);
  kb_cupti_keep_launches(0);
  // Calls' windows: untagged work in a window (another host thread's launch) is that call's, and nothing else is.
  kb_cupti_window(30, 6000, 7000);
  tagRecord(300, 30); kernelRecord(300, 6100, 6200);   // the calling thread's kernel
  kernelRecord(301, 6300, 6500);                       // another thread's, inside window 30
  kernelRecord(302, 7100, 7200);                       // untagged between the windows: the harness's, nobody's
  kb_cupti_window(31, 8000, 9000);
  kernelRecord(303, 8100, 8400);                       // a call whose only work came from another thread
  kernelRecord(305, 9100, 9200);                       // untagged after the windows
  readSpans(8);
  readUntagged(1);                                     // the untagged work no window claimed, for the stream audit
  readUntagged(8);
  readUntagged(8);
  kernelRecord(304, 6300, 6500);                       // windows end with the read that used them
  readSpans(8);
  readUntagged(8);
  // Copies: to or from the host (or another GPU) counted apart, within the GPU not; another thread's too.
  tagRecord(400, 40); kernelRecord(400, 10000, 10100);
  tagRecord(401, 40); copyRecord(401, 10200, 10260, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH);
  tagRecord(402, 40); copyRecord(402, 10300, 10340, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD);
  kb_cupti_window(41, 11000, 12000);
  tagRecord(403, 41); copyRecord(403, 11100, 11150, CUPTI_ACTIVITY_MEMCPY_KIND_PTOP);
  copyRecord(404, 11200, 11230, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);   // another thread's, inside window 41
  readSpans(8);
}
`

describe('joining records to pushed ids', () => {
  it(
    'spans every tagged kernel and memset of an id, in either record order, and untagged work only inside a call\'s window (the rest read apart); busy time counts overlaps once and gaps not at all, and copies off the device apart; kept launches come in the order they ran, memsets included',
    () => {
      const source = path.join(scratch, 'join.cu')
      const program = path.join(scratch, 'join')
      fs.writeFileSync(source, JOIN_PROGRAM)
      const build = spawnSync(nvcc(), [...cuptiFlags(cuptiHere()), '-o', program, source], { encoding: 'utf8' })
      expect(build.status, build.stderr).toBe(0)
      const output = execFileSync(program, { encoding: 'utf8' }).trim().split('\n')
      expect(output).toEqual([
        // Capacity 2: the first two ids in order, the rest kept for the next read. Id 7 is busy 500 + 100 ns of its
        // 700 (a gap between its kernel and memset); id 8's two kernels overlap: busy 300 ns, not 350.
        'read 0 7:1000-1700/600 8:2000-2300/300',
        'read 0 11:3000-3100/100',
        'read 0',
        'lost 0 1',
        'lost 0 0',
        // Kept launches of id 20: its memset (kind 1) ran before its kernel (kind 0); read once, then forgotten.
        'launches 0 1 0',
        'launches 0',
        // Id 20's spans (unread until now); id 30: its own kernel and the other thread's, busy 100 + 200 ns; id 31:
        // the other thread's alone.
        'read 0 20:5000-5300/200 30:6100-6500/300 31:8100-8400/300',
        // The untagged work in no window, in the order it started, a capacity at a time, then forgotten.
        'untagged 0 7100-7200',
        'untagged 0 9100-9200',
        'untagged 0',
        // Without windows, every untagged piece is in none: no span, but kept for the audit.
        'read 0',
        'untagged 0 6300-6500',
        // Id 40: busy 100 + 60 + 40 ns, of which the copy to the host's 60; id 41: a copy to another GPU and another
        // thread's from the host, 50 + 30 ns, both off the device.
        'read 0 40:10000-10340/200+60 41:11100-11230/80+80',
      ])
    },
  )
})

describe.skipIf(gpu.available)(withoutGpuTitle('the binding without a GPU'), () => {
  it(
    "reads nothing, and start() throws a CuptiError with CUPTI's name for the failure",
    () => {
      const cupti = new Cupti(compileCuptiShim({ arch: 'sm_90a', cacheDir }).path)
      expect(cupti.read()).toEqual([])
      expect(cupti.untagged()).toEqual([])
      expect(cupti.lostRecords()).toBe(0)
      const error = captureError(() => cupti.start())
      expectCuptiError(error, 'kb_cupti_start')
      expect(error.message).toBe(`kb_cupti_start failed: ${error.resultName}`)
    },
  )
})
