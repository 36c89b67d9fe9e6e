// Plants a real, proportional slowdown in every CUDA solution under problems/ (for scripts/paired-check.sh's `plant`
// stages; it rewrites the files in place, so run it in a clean tree and reset afterwards):
//   npx tsx scripts/plant-slowdown.ts <permille>
// Each file's `solution` is renamed and wrapped: a one-thread kernel reads %globaltimer before the solution's work, and
// one after it spins for `permille`/1000 of the time since then, so every call really takes about that share longer on
// the GPU, whatever its size (more where the solution's host code leaves gaps between its launches: they count in the
// share but not in `cupti` timing). Both kernels run at 0 too: a planted-0 base against a planted-N head differs only
// by the spin.
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

/** The solution source with its `solution` wrapped in the planted slowdown, or undefined if it has none. */
export function plantedSource(source: string, permille: number): string | undefined {
  const parameters = SIGNATURE.exec(source)?.[1]
  if (parameters === undefined) return undefined
  const args = argumentNames(parameters).join(', ')
  return `#define solution kb_planted_solution
${source}
#undef solution
__device__ unsigned long long kb_planted_start;
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
  kb_planted_mark<<<1, 1>>>();
  kb_planted_solution(${args});
  kb_planted_spin<<<1, 1>>>(${permille});
}
`
}

function main(): void {
  const permille = Number(process.argv[2])
  if (!Number.isInteger(permille) || permille < 0) throw new Error('usage: npx tsx scripts/plant-slowdown.ts <permille, a whole number >= 0>')
  let planted = 0
  for (const problem of readdirSync('problems', { withFileTypes: true })) {
    const dir = join('problems', problem.name, 'solutions')
    if (!problem.isDirectory() || !existsSync(dir)) continue
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cu'))) {
      const path = join(dir, file)
      const source = plantedSource(readFileSync(path, 'utf8'), permille)
      if (source === undefined) continue
      writeFileSync(path, source)
      planted++
    }
  }
  console.log(`planted ${permille / 10}% in ${planted} solutions`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
