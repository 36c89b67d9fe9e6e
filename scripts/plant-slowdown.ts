// Plants a real, proportional slowdown in every CUDA solution under problems/ (for scripts/paired-check.sh's `plant`
// stages; it rewrites the files in place, so run it in a clean tree and reset afterwards):
//   npx tsx scripts/plant-slowdown.ts <permille>
// Each file's `solution` is renamed and wrapped: a one-thread kernel reads %globaltimer before the solution's work, and
// one after it spins until `permille`/1000 of the time since then has passed again, so every call really takes that
// share longer on the GPU, whatever its size. Both kernels run at 0 too: a planted-0 base against a planted-N head
// differs only by the spin.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
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
__global__ void kb_planted_spin(unsigned long long permille) {
  const unsigned long long start = kb_planted_now();
  const unsigned long long until = start + (start - kb_planted_start) * permille / 1000;
  while (kb_planted_now() < until) {
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
    if (!problem.isDirectory()) continue
    let files: string[]
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.cu'))
    } catch {
      continue
    }
    for (const file of files) {
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
