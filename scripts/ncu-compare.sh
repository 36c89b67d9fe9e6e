#!/usr/bin/env bash
# Harness vs Nsight Compute on the GPU machine: bash scripts/ncu-compare.sh <output folder>
# ncu measures each solution kernel with its own cache flush and the clocks left alone, in five processes; the
# harness times the same kernels in each of its modes; the report prints harness / ncu (ncu's median process).
# Then the counters (the `counters` option) beside ncu's SpeedOfLight and Occupancy sections: counters.txt.
# Then the calibration kernels (held for 5, 20 and 100 µs; memory-bound adds) in every mode and under ncu, through
# the calibrate command: calibration.txt.
set -euo pipefail
out=${1:-.}
mkdir -p "$out"
npx tsx scripts/ncu-compare.ts harness "$out/harness.json"
# Reproducibility: five separate processes, in the events and profiler modes.
for i in 1 2 3 4 5; do npx tsx scripts/ncu-compare.ts harness "$out/repeat-$i.json" events,profiler > /dev/null; done
# ncu in five processes too: its own spread says how close two readings of a µs kernel can be.
for i in 1 2 3 4 5; do npx tsx scripts/ncu-compare.ts ncu "$out/ncu-$i.json"; done
npx tsx scripts/ncu-compare.ts report "$out/harness.json" "$(printf '%s,' "$out"/ncu-*.json | sed 's/,$//')" "$out"/repeat-*.json |
  tee "$out/ratio.txt"
npx tsx scripts/ncu-compare.ts counters "$out/counters.json"
npx tsx scripts/ncu-compare.ts ncu-counters "$out/ncu-counters.json"
npx tsx scripts/ncu-compare.ts counters-report "$out/counters.json" "$out/ncu-counters.json" | tee "$out/counters.txt"
npx tsx src/cli/cli.ts calibrate --force | tee "$out/calibration.txt"
