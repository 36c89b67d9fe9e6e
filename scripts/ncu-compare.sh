#!/usr/bin/env bash
# Harness vs Nsight Compute on the GPU machine: bash scripts/ncu-compare.sh <output folder>
# ncu measures each solution kernel with its own cache flush and the clocks left alone; the harness times the
# same kernels in each of its modes; the report prints harness / ncu.
set -euo pipefail
out=${1:-.}
mkdir -p "$out"
npx tsx scripts/ncu-compare.ts harness "$out/harness.json"
# Reproducibility: five separate processes, in the events and profiler modes.
for i in 1 2 3 4 5; do npx tsx scripts/ncu-compare.ts harness "$out/repeat-$i.json" events,profiler > /dev/null; done
ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum --target-processes all \
  --kernel-name regex:'^(vectorAdd4|tiledKernel|wmmaKernel)' --csv --print-units base \
  npx tsx scripts/ncu-compare.ts launches > "$out/ncu.csv"
npx tsx scripts/ncu-compare.ts report "$out/harness.json" "$out/ncu.csv" "$out"/repeat-*.json | tee "$out/ratio.txt"
