#!/usr/bin/env bash
# Self-calibration on the GPU machine: bash scripts/calibrate-smoke.sh <output folder>
# 1. `calibrate --force`: times the calibration kernels in every timing mode (and under ncu where it is on PATH) into
#    the project's cache, printing the held kernels' offsets and ratios and the memory-bound kernels' ratios;
#    calibrate.log keeps the output and the cached record is copied next to it.
# 2. The calibration GPU test: the 100 µs held kernel within 1% in 'cupti', within 3% in 'profiler' (which counts
#    the launch's front end, as ncu does) and 80 µs more than the 20 µs one within 1%, within a few µs in 'events'
#    and 'graph', and a bench run that uses the cached record (gpu-test.log).
# Each step's exit code and wall time end its log (summary.txt has both). Well under two minutes with a warm compile
# cache; a cold one adds the nvcc builds of the harness and both CUPTI shims (twice: the test has a cache of its own).
set -uo pipefail
out=$(realpath -m "${1:?usage: bash scripts/calibrate-smoke.sh <output folder>}")
mkdir -p "$out"
cd "$(dirname "$0")/.."
export NO_COLOR=1
failed=0

# step NAME COMMAND...: runs the command, its output to the terminal and NAME.log, and notes its exit code and time.
step() {
  local name=$1
  shift
  SECONDS=0
  "$@" 2>&1 | tee "$out/$name.log"
  local code=${PIPESTATUS[0]}
  echo "$name: exit $code, ${SECONDS} s" | tee -a "$out/$name.log" "$out/summary.txt"
  [[ $code -eq 0 ]] || failed=1
}

step calibrate npx tsx src/cli/cli.ts calibrate --force
cp node_modules/.cache/vitest-kernel-bench/calibration/*.json "$out/" 2>/dev/null
step gpu-test npx vitest run tests/gpu/calibration.test.ts
exit $failed
