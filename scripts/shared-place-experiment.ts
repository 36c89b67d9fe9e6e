// Reads the CSV of scripts/shared-place-experiment.cu: per kernel, how far its places differ (the spread over offsets
// of each offset's mean over every sweep), how far one sweep differs from that mean offset by offset, each process's
// mean difference from it (P the parent that allocated the region, C1... the processes that opened it), and the spread
// of the processes' means beyond what two sweeps of one process differ by. With sweeps R-a and R-b (`realloc` mode):
// the correlation of their offsets, whether a spacer of the same size finds the same place again.
//   npx tsx scripts/shared-place-experiment.ts <place.csv> [...]
import fs from 'node:fs'

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const sd = (xs: readonly number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1))
const pct = (x: number) => `${(100 * x).toFixed(2)}%`
function correlation(x: readonly number[], y: readonly number[]): number {
  const [mx, my] = [mean(x), mean(y)]
  let [sxy, sxx, syy] = [0, 0, 0]
  x.forEach((xi, i) => {
    sxy += (xi - mx) * (y[i]! - my)
    sxx += (xi - mx) ** 2
    syy += (y[i]! - my) ** 2
  })
  return sxy / Math.sqrt(sxx * syy)
}

for (const file of process.argv.slice(2)) {
  /** Log median by kernel, sweep and offset. */
  const logs = new Map<string, Map<string, number[]>>()
  for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
    const [sweep, kernel, offset, ns] = line.split(',')
    const sweeps = logs.get(kernel!) ?? logs.set(kernel!, new Map()).get(kernel!)!
    const offsets = sweeps.get(sweep!) ?? sweeps.set(sweep!, []).get(sweep!)!
    offsets[Number(offset)] = Math.log(Number(ns))
  }
  console.log(file)
  for (const [kernel, sweeps] of logs) {
    const realloc = ['R-a', 'R-b'].every((name) => sweeps.has(name))
    if (realloc) {
      console.log(`  ${kernel}: a new allocation behind the same spacer, two sweeps: correlation ${correlation(sweeps.get('R-a')!, sweeps.get('R-b')!).toFixed(2)}`)
      continue
    }
    const all = [...sweeps.values()]
    const place = all[0]!.map((_, i) => mean(all.map((sweep) => sweep[i]!)))
    const byProcess = new Map<string, number[]>()
    const residuals: number[] = []
    for (const [name, sweep] of sweeps) {
      const diff = sweep.map((x, i) => x - place[i]!)
      residuals.push(sd(diff))
      const process = name.split('-')[0]!
      byProcess.set(process, [...(byProcess.get(process) ?? []), mean(diff)])
    }
    const twice = [...byProcess.values()].filter((means) => means.length === 2).map(([a, b]) => (a! - b!) ** 2 / 2)
    const processMeans = [...byProcess.values()].map(mean)
    const beyond = Math.sqrt(Math.max(0, sd(processMeans) ** 2 - mean(twice) / 2))
    console.log(
      `  ${kernel}: places ${pct(sd(place))} apart; a sweep off its offsets' mean by ${pct(mean(residuals))}; ` +
        `process means ${[...byProcess].map(([name, means]) => `${name} ${pct(mean(means))}`).join(' ')}; processes apart beyond their sweeps ${pct(beyond)}`,
    )
  }
}
