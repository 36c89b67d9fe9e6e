#!/usr/bin/env bash
# The example suite on one GPU and on every GPU of the host, and as two shards merged: wall times, then whether the
# medians agree and the merged report has the single run's rows. On a GPU host, from the repository root:
#   bash scripts/multi-gpu-compare.sh <out-dir> [stage...]
# Stages, in the order given (default: all of them):
#   cold    every GPU, the compile cache emptied first                    -> cold.json
#   one     GPU 0 only, warm cache                                        -> one.json
#   all     every GPU, warm cache                                         -> all.json
#   all:N   every GPU, warm cache, N times in a row                       -> all-1.json … all-N.json
#   shards  two shards with the blob reporter, then --merge-reports       -> merged.json
#   compare medians of all.json against one.json; rows of merged.json against all.json
# Each run's output goes to <out-dir>/<stage>.log, its exit code and wall time to <out-dir>/walls.txt, with the
# vitest-kernel-bench processes still alive a second after it exited (none should be).
# A run that has not ended after KB_RUN_LIMIT_S seconds (default 300) is killed and counted as hung.
set -uo pipefail
out=$(realpath -m "${1:?usage: scripts/multi-gpu-compare.sh <out-dir> [stage...]}")
shift
stages=${*:-cold one all shards compare}
cd "$(dirname "$0")/.."
mkdir -p "$out"
export NO_COLOR=1 CI=1
# Vitest's own entry point: the GPU host may have node without npm.
vitest=(node node_modules/vitest/vitest.mjs)
unset GITHUB_STEP_SUMMARY

# timed NAME [VAR=value...] COMMAND...: runs the command under env, logging its output, exit code and wall time.
timed() {
  local name=$1
  shift
  local start code tenths
  start=$(date +%s%N)
  timeout -k 5 "${KB_RUN_LIMIT_S:-300}" env "$@" >"$out/$name.log" 2>&1
  code=$?
  tenths=$((($(date +%s%N) - start) / 100000000))
  sleep 1
  left=$(pgrep -fc 'src/engine/host/|vitest.mjs' || true)
  printf '%s: exit %d, %d.%d s, processes left %d\n' "$name" "$code" $((tenths / 10)) $((tenths % 10)) "$left" | tee -a "$out/walls.txt"
}

for stage in $stages; do
  case $stage in
    cold)
      rm -rf node_modules/.cache/vitest-kernel-bench
      timed cold KERNELBENCH_DEVICES=all KERNELBENCH_JSON="$out/cold.json" "${vitest[@]}" bench --run
      ;;
    one) timed one KERNELBENCH_DEVICES=0 KERNELBENCH_JSON="$out/one.json" "${vitest[@]}" bench --run ;;
    all) timed all KERNELBENCH_DEVICES=all KERNELBENCH_JSON="$out/all.json" "${vitest[@]}" bench --run ;;
    all:*)
      for ((i = 1; i <= ${stage#all:}; i++)); do
        timed "all-$i" KERNELBENCH_DEVICES=all KERNELBENCH_JSON="$out/all-$i.json" "${vitest[@]}" bench --run
      done
      ;;
    shards)
      rm -rf "$out/blobs"
      for i in 1 2; do
        timed "shard-$i" KERNELBENCH_DEVICES=all "${vitest[@]}" bench --run --shard="$i/2" --reporter=blob --outputFile="$out/blobs/blob-$i-2.json"
      done
      timed merge KERNELBENCH_JSON="$out/merged.json" "${vitest[@]}" bench --run --merge-reports="$out/blobs"
      ;;
    compare)
      npx tsx scripts/compare-medians.ts "$out/one.json" "$out/all.json" >"$out/compare.txt" 2>&1
      tail -n 12 "$out/compare.txt"
      npx tsx scripts/compare-rows.ts "$out/all.json" "$out/merged.json" | tee "$out/rows.txt"
      ;;
    *) echo "unknown stage: $stage" >&2 ;;
  esac
done
cat "$out/walls.txt"
