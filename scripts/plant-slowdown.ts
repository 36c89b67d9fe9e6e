// Plants a real, proportional slowdown in every CUDA solution under problems/ (for scripts/paired-check.sh's `plant`
// stages; it rewrites the files in place, so run it in a clean tree and reset afterwards):
//   npx tsx scripts/plant-slowdown.ts <permille> [<at-times permille>]
// Each file's `solution` is renamed and wrapped: after the solution's work, a one-thread kernel spins for `permille`/1000
// of the solution's own GPU time, so every call really takes that share longer on the GPU, whatever its size. The GPU
// time is measured once per process and set of arguments, on the first call with them (a case's first, verified call,
// or the priming call at a new place of its buffers; neither is timed): the least of five runs timed with events, each queued behind a 50 µs spin so
// that the host's launches are not in it. The earlier plant spun for a share of the time since a marker kernel, which
// counted the host's launch gaps that `cupti` timing leaves out: how fast a process's host launched moved the planted
// change of a 20–50 µs kernel from 1.2% to 3.4% for a nominal 2% (docs/measurements.md). The spin kernel runs at 0 too:
// a planted-0 base against a planted-N head differs only by the spin.
// With an at-times share, a kernel slow at times: the spin runs only in the first `atTimes`/1000 of each second of the
// host's steady clock, so that share of every stretch of rounds is slow and the rest is not.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const SIGNATURE = /extern\s+"C"\s+void\s+solution\s*\(([^)]*)\)/

/** The parameters of a C parameter list, each with its name and whether it is a pointer (`const float* a`: a, true). */
export function parameterList(parameters: string): { name: string; pointer: boolean }[] {
  return parameters
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '' && p !== 'void')
    .map((p) => {
      const match = /([A-Za-z_]\w*)\s*(\[[^\]]*\])?$/.exec(p)
      if (!match?.[1]) throw new Error(`no argument name in '${p}'`)
      return { name: match[1], pointer: p.includes('*') || match[2] !== undefined }
    })
}

/**
 * The solution source with its `solution` wrapped in the planted slowdown (in the first `atTimes` permille of each
 * second only, where given), or undefined if it has none.
 */
export function plantedSource(source: string, permille: number, atTimes?: number): string | undefined {
  const parameters = SIGNATURE.exec(source)?.[1]
  if (parameters === undefined) return undefined
  const list = parameterList(parameters)
  const args = list.map((p) => p.name).join(', ')
  const shape = list.map((p) => (p.pointer ? `(double)(uintptr_t)${p.name}` : `(double)${p.name}`)).join(', ')
  const slowNow =
    atTimes === undefined
      ? ''
      : `// 1 in the first ${atTimes} ms of each second of the steady clock, else 0.
static int kb_planted_slow_now() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return ms % 1000 < ${atTimes} ? 1 : 0;
}
`
  return `#define solution kb_planted_solution
${source}
#undef solution
#include <chrono>
#include <cstdint>
#include <map>
#include <vector>
__device__ __forceinline__ unsigned long long kb_planted_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// %globaltimer can step by a whole µs, too coarse for 2% of a short kernel: the spin counts SM cycles, at a rate
// read off the timer over 1 µs from one of its edges (at every permille, so the base's kernel takes as long).
__global__ void kb_planted_spin(double ns) {
  const unsigned long long before = kb_planted_now();
  unsigned long long edge, later;
  do edge = kb_planted_now(); while (edge == before);
  const long long edgeCycles = clock64();
  do later = kb_planted_now(); while (later < edge + 1000);
  const double cyclesPerNs = double(clock64() - edgeCycles) / double(later - edge);
  const long long spin = (long long)(ns * cyclesPerNs);
  for (const long long start = clock64(); clock64() - start < spin;) {
  }
}
// The solution's own GPU time for each set of arguments, in ns: the least of five runs, each queued behind a 50 µs
// spin. Pointers count (a shape may sit behind one), so it is measured again at each new place of the buffers, by the
// untimed call that primes it.
static std::map<std::vector<double>, double> kb_planted_ns;
${slowNow}extern "C" void solution(${parameters}) {
  const std::vector<double> kb_planted_args{${shape}};
  auto kb_known = kb_planted_ns.find(kb_planted_args);
  if (kb_known == kb_planted_ns.end()) {
    cudaEvent_t kb_start, kb_end;
    cudaEventCreate(&kb_start);
    cudaEventCreate(&kb_end);
    float kb_least = 1e30f;
    for (int kb_run = 0; kb_run < 5; kb_run++) {
      kb_planted_spin<<<1, 1>>>(50000.0);
      cudaEventRecord(kb_start);
      kb_planted_solution(${args});
      cudaEventRecord(kb_end);
      cudaEventSynchronize(kb_end);
      float kb_ms = 0;
      cudaEventElapsedTime(&kb_ms, kb_start, kb_end);
      if (kb_ms < kb_least) kb_least = kb_ms;
    }
    cudaEventDestroy(kb_start);
    cudaEventDestroy(kb_end);
    kb_known = kb_planted_ns.emplace(kb_planted_args, double(kb_least) * 1e6).first;
  }
  kb_planted_solution(${args});
  kb_planted_spin<<<1, 1>>>(kb_known->second * ${atTimes === undefined ? permille : `kb_planted_slow_now() * ${permille}`} / 1000);
}
`
}

function main(): void {
  const permille = Number(process.argv[2])
  const atTimes = process.argv[3] === undefined ? undefined : Number(process.argv[3])
  const whole = (x: number) => Number.isInteger(x) && x >= 0
  if (!whole(permille) || (atTimes !== undefined && !(whole(atTimes) && atTimes <= 1000))) {
    throw new Error('usage: npx tsx scripts/plant-slowdown.ts <permille, a whole number >= 0> [<at-times permille, 0..1000>]')
  }
  let planted = 0
  for (const problem of readdirSync('problems', { withFileTypes: true })) {
    const dir = join('problems', problem.name, 'solutions')
    if (!problem.isDirectory() || !existsSync(dir)) continue
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cu'))) {
      const path = join(dir, file)
      const source = plantedSource(readFileSync(path, 'utf8'), permille, atTimes)
      if (source === undefined) continue
      writeFileSync(path, source)
      planted++
    }
  }
  const when = atTimes === undefined ? '' : ` in ${atTimes / 10}% of each second`
  console.log(`planted ${permille / 10}%${when} in ${planted} solutions`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
