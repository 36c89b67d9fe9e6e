#!/usr/bin/env bash
# Stored baselines against really slower kernels (docs/ci-gate.md, "Against a stored baseline"), on a GPU host, from
# the repository root:
#   bash scripts/baseline-plant.sh <out-dir> <runs> <permille...>
# For each permille, every CUDA solution under problems/ is made that much slower (scripts/plant-slowdown.ts; 0 plants
# its timer kernels alone: the code to compare with), then the example suite runs <runs> times in `cupti` timing on
# GPU 0 -> <out-dir>/plant-<permille>-<i>.json. problems/ is put back as it was afterwards. Replay the files with
# scripts/baseline-replay.ts: record one board's plant-0 runs, then check another board's plant-0 runs (false alarms)
# and its planted runs (regressions caught), or judge several checked runs together with the `gate` command. With
# KB_UPDATE=1 each run records itself into the baselines (`vitest bench -u`), as a team records them on its runner.
# Each run is killed after KB_RUN_LIMIT_S seconds (default 300).
set -uo pipefail
out=$(realpath -m "${1:?usage: scripts/baseline-plant.sh <out-dir> <runs> <permille...>}")
runs=${2:?usage: scripts/baseline-plant.sh <out-dir> <runs> <permille...>}
shift 2
cd "$(dirname "$0")/.."
mkdir -p "$out"
export NO_COLOR=1 CI=1 KERNELBENCH_DEVICES=0 KERNELBENCH_TIMING=cupti
unset GITHUB_STEP_SUMMARY
pristine=$(mktemp -d)
cp -a problems "$pristine/"
restore() { rm -rf problems && cp -a "$pristine/problems" . ; }
trap 'restore; rm -rf "$pristine"' EXIT

for permille in "$@"; do
  restore
  npx tsx scripts/plant-slowdown.ts "$permille" || exit 1
  for ((i = 1; i <= runs; i++)); do
    start=$SECONDS
    timeout -k 5 "${KB_RUN_LIMIT_S:-300}" env KERNELBENCH_JSON="$out/plant-$permille-$i.json" node node_modules/vitest/vitest.mjs bench --run ${KB_UPDATE:+-u} >"$out/plant-$permille-$i.log" 2>&1
    echo "plant-$permille-$i: exit $?, $((SECONDS - start)) s" | tee -a "$out/walls.txt"
  done
done
