#!/usr/bin/env bash
# Records the fixture of tests/unit/shard-merge.test.ts: the bench files of tests/shards/ run whole and as two
# shards. On a GPU host, from the repository root:
#
#   bash scripts/record-shard-blobs.sh tests/fixtures/shard-blobs
#
# Five runs of `vitest bench --run`, with this repository's Vitest (a blob merges only into the Vitest version that
# wrote it, so record again after changing it):
#   1. the two shards under -u, with the blob reporter: the baselines go to <out-dir>/baselines, the blobs to
#      <out-dir>/blobs-update/
#   2. the whole run, judged against those baselines: its JSON results, <out-dir>/single.json
#   3. the two shards, judged against them: <out-dir>/blobs/blob-1-2.json and blob-2-2.json, and each shard's own
#      JSON results, <out-dir>/shard-1.json and shard-2.json
# <out-dir>/exit-codes.json keeps the exit code of every run. On a GPU the run and the shard that time
# tests/shards/relu.bench.ts exit 1 (a floor no GPU meets); without one every bench is compiled and then skipped.
set -uo pipefail
out=${1:?usage: scripts/record-shard-blobs.sh <out-dir>}
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
export NO_COLOR=1 CI=1 KERNELBENCH_SHARD_BASELINES="$out/baselines"
unset KERNELBENCH_JSON GITHUB_STEP_SUMMARY

bench() {
  node node_modules/vitest/vitest.mjs bench --run --config tests/shards/vitest.config.ts "$@"
}

codes=()
for i in 1 2; do
  bench -u --shard="$i/2" --reporter=blob --outputFile="$out/blobs-update/blob-$i-2.json"
  codes+=("\"update-$i\": $?")
done
KERNELBENCH_JSON="$out/single.json" bench
codes+=("\"single\": $?")
for i in 1 2; do
  KERNELBENCH_JSON="$out/shard-$i.json" bench --shard="$i/2" --reporter=blob --outputFile="$out/blobs/blob-$i-2.json"
  codes+=("\"shard-$i\": $?")
done
(IFS=,; echo "{${codes[*]}}") | node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0, "utf8")), null, 2) + "\n")' >"$out/exit-codes.json"
echo "recorded in $out:"
ls -R "$out"
cat "$out/exit-codes.json"
