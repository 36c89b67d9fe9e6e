#!/usr/bin/env bash
# Timing 'profiler' at a glance, on the GPU machine: bash scripts/profiler-smoke.sh <output folder>
# Times the vector add (64 Ki, 1 Mi, 16 Mi floats) and the 1024³ tiled sgemm in the events, cupti and profiler
# modes (median, CV, samples, stop reason and wall time of each case), then, where ncu is on PATH, measures the same
# kernels under ncu and prints each mode / ncu. Every step's output stays in the folder. With a warm compile cache it
# takes well under a minute; a cold one adds the nvcc builds of the harness, both CUPTI shims and the solutions.
set -euo pipefail
out=${1:?usage: bash scripts/profiler-smoke.sh <output folder>}
mkdir -p "$out"
export NCU_COMPARE_KERNELS='vector add 64 Ki floats,vector add 1 Mi floats,vector add 16 Mi floats,sgemm tiled 1024³'
SECONDS=0
npx tsx scripts/ncu-compare.ts harness "$out/harness.json" events,cupti,profiler 2>&1 | tee "$out/harness.log"
echo "harness: ${SECONDS} s, compiles included" | tee -a "$out/harness.log"
if ! command -v ncu > /dev/null; then
  echo 'ncu is not on PATH: no ncu column (the medians are in harness.log)' | tee "$out/ratio.txt"
  exit 0
fi
SECONDS=0
npx tsx scripts/ncu-compare.ts ncu "$out/ncu.json" 2> "$out/ncu.log"
echo "ncu: ${SECONDS} s" | tee -a "$out/ncu.log"
npx tsx scripts/ncu-compare.ts report "$out/harness.json" "$out/ncu.json" | tee "$out/ratio.txt"
