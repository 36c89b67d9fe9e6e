// What a paired run of the `plant` stage of scripts/paired-check.sh caught: every CUDA solution (a .cu file, the ones
// scripts/plant-slowdown.ts makes slower) is a planted case; it is caught when its verdict is a regression. Counts the
// planted cases of LONG_US or more (the kernel time is the base side's median round) and those under, then lists
// each planted case not caught, and the verdicts of all cases.
//   tsx scripts/plant-caught.ts <plant.json> [...]
import fs from 'node:fs'
import type { CaseResult } from '../src/shared/results.js'
import { summarize } from '../src/shared/stats.js'
import { LONG_US } from './paired-cost.js'

interface PlantResults {
  benches: Array<{ name: string; result?: { solution?: string; cases: CaseResult[] } }>
}

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: tsx scripts/plant-caught.ts <plant.json> [...]')
  process.exit(2)
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)}%`

for (const file of files) {
  const results = JSON.parse(fs.readFileSync(file, 'utf8')) as PlantResults
  const kinds = new Map<string, number>()
  const tally = { long: { planted: 0, caught: 0 }, short: { planted: 0, caught: 0 } }
  const misses: string[] = []
  for (const bench of results.benches) {
    const planted = bench.result?.solution?.endsWith('.cu') ?? false
    for (const c of bench.result?.cases ?? []) {
      const kind = c.verdict?.kind ?? c.outcome.status
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      const rounds = c.paired?.rounds
      if (!planted || !rounds) continue
      const us = summarize(rounds.base).median * 1000
      const band = us >= LONG_US ? tally.long : tally.short
      band.planted++
      if (kind === 'regression') band.caught++
      else {
        const verdict = c.verdict
        const reading = verdict?.change !== undefined && verdict.interval ? `${signed(verdict.change)} [${signed(verdict.interval.low)}, ${signed(verdict.interval.high)}]` : ''
        misses.push(`  ${bench.name} · ${c.name} (${us.toFixed(1)} µs): ${kind} ${reading}`)
      }
    }
  }
  const { long, short } = tally
  console.log(`${file}: ${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ')}`)
  console.log(`  planted cases of ${LONG_US} µs or more caught: ${long.caught} of ${long.planted} (${pct(long.caught / long.planted)}); under ${LONG_US} µs: ${short.caught} of ${short.planted}`)
  for (const line of misses) console.log(line)
}
