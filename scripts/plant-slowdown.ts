// Plants a real, proportional slowdown in every CUDA solution under problems/ (for scripts/paired-check.sh's `plant`
// stages; it rewrites the files in place, so run it in a clean tree and reset afterwards):
//   npx tsx scripts/plant-slowdown.ts <permille> [--gated]
// Each file's `solution` is renamed and wrapped: a one-thread kernel reads %globaltimer before the solution's work, and
// one after it spins for `permille`/1000 of the time since then, so every call really takes about that share longer on
// the GPU, whatever its size (more where the solution's host code leaves gaps between its launches: they count in the
// share but not in `cupti` timing). Both kernels run at 0 too: a planted-0 base against a planted-N head differs only
// by the spin.
// --gated: the GPU waits, on the call's stream, for a value the host writes once it has launched the marker, the
// solution and the spin, so that they run back to back and the share is of the GPU's work alone: without it, how fast
// a process's host launches moved the planted change of a 20–50 µs kernel by ±0.4% (docs/measurements.md). The wait
// (cuStreamWaitValue32, reached through the runtime) is no kernel, copy or memset: `cupti` timing does not count it.
// Unproven: on its first try on an H100 (docs/measurements.md, "Paired A/B stopping on a decided verdict"), a gated
// bench file printed nothing in 110 s.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const SIGNATURE = /extern\s+"C"\s+void\s+solution\s*\(([^)]*)\)/

/** The argument names of a C parameter list (`const float* __restrict__ a, size_t n` gives `a, n`). */
export function argumentNames(parameters: string): string[] {
  return parameters
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '' && p !== 'void')
    .map((p) => {
      const name = /([A-Za-z_]\w*)\s*(\[[^\]]*\])?$/.exec(p)?.[1]
      if (!name) throw new Error(`no argument name in '${p}'`)
      return name
    })
}

/** The host side of --gated: a mapped counter the call's stream waits on until the host has launched the call's work. */
const GATE = `#include <cuda.h>
#include <cstdio>
#include <cstdlib>
typedef CUresult (*kb_planted_wait_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
static volatile cuuint32_t* kb_planted_gate;
static CUdeviceptr kb_planted_gate_device;
static kb_planted_wait_fn kb_planted_wait;
static cuuint32_t kb_planted_calls;
static void kb_planted_gate_setup() {
  if (kb_planted_wait) return;
  void* device = nullptr;
  cudaHostAlloc((void**)&kb_planted_gate, sizeof(cuuint32_t), cudaHostAllocMapped);
  *kb_planted_gate = 0;
  cudaHostGetDevicePointer(&device, (void*)kb_planted_gate, 0);
  kb_planted_gate_device = (CUdeviceptr)device;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", (void**)&kb_planted_wait, 12000, cudaEnableDefault, &found) != cudaSuccess || !kb_planted_wait) {
    fprintf(stderr, "plant-slowdown --gated: cuStreamWaitValue32 is not available from this driver\\n");
    abort();
  }
}
`

/**
 * The solution source with its `solution` wrapped in the planted slowdown, or undefined if it has none. `gated`: the
 * call's work is held on the GPU until all of it is launched (see --gated above).
 */
export function plantedSource(source: string, permille: number, gated = false): string | undefined {
  const parameters = SIGNATURE.exec(source)?.[1]
  if (parameters === undefined) return undefined
  const args = argumentNames(parameters).join(', ')
  const open = gated
    ? `  kb_planted_gate_setup();
  const cuuint32_t call = ++kb_planted_calls;
  kb_planted_wait(CU_STREAM_LEGACY, kb_planted_gate_device, call, CU_STREAM_WAIT_VALUE_GEQ);
`
    : ''
  const release = gated ? '  *kb_planted_gate = call;\n' : ''
  return `#define solution kb_planted_solution
${source}
#undef solution
${gated ? GATE : ''}__device__ unsigned long long kb_planted_start;
__device__ __forceinline__ unsigned long long kb_planted_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void kb_planted_mark() { kb_planted_start = kb_planted_now(); }
// %globaltimer can step by a whole µs, too coarse for 2% of a short kernel: the spin counts SM cycles, at a rate
// read off the timer over 1 µs from one of its edges (at every permille, so the base's kernel takes as long).
__global__ void kb_planted_spin(unsigned long long permille) {
  const unsigned long long before = kb_planted_now();
  unsigned long long edge, later;
  do edge = kb_planted_now(); while (edge == before);
  const long long edgeCycles = clock64();
  do later = kb_planted_now(); while (later < edge + 1000);
  const double cyclesPerNs = double(clock64() - edgeCycles) / double(later - edge);
  const long long spin = (long long)(double(edge - kb_planted_start) * permille / 1000 * cyclesPerNs);
  for (const long long start = clock64(); clock64() - start < spin;) {
  }
}
extern "C" void solution(${parameters}) {
${open}  kb_planted_mark<<<1, 1>>>();
  kb_planted_solution(${args});
  kb_planted_spin<<<1, 1>>>(${permille});
${release}}
`
}

function main(): void {
  const permille = Number(process.argv[2])
  const gated = process.argv.slice(3).includes('--gated')
  if (!Number.isInteger(permille) || permille < 0) throw new Error('usage: npx tsx scripts/plant-slowdown.ts <permille, a whole number >= 0> [--gated]')
  let planted = 0
  for (const problem of readdirSync('problems', { withFileTypes: true })) {
    const dir = join('problems', problem.name, 'solutions')
    if (!problem.isDirectory() || !existsSync(dir)) continue
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cu'))) {
      const path = join(dir, file)
      const source = plantedSource(readFileSync(path, 'utf8'), permille, gated)
      if (source === undefined) continue
      writeFileSync(path, source)
      planted++
    }
  }
  console.log(`planted ${permille / 10}%${gated ? ', gated,' : ''} in ${planted} solutions`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
