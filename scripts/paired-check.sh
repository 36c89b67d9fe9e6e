#!/usr/bin/env bash
# Paired A/B on a GPU host (docs/ci-gate.md, "Paired A/B"), from the repository root of a clean tree:
#   bash scripts/paired-check.sh <out-dir> [timing mode, default cupti]
# 1. same     the example suite against itself (KERNELBENCH_COMPARE_REF=HEAD): every regression or improvement is a
#             false alarm                                                          -> same.json, same.log
# 2. planted  the example float4 add against really slower adds (tests/fixtures/solutions/vector_add_redo.cu, a share
#             of the vector added again: 2% and 5% more traffic)               -> planted.json, planted.log
# The tolerance is KB_TOLERANCE (default: the plugin's, 0.02); each run is killed after KB_RUN_LIMIT_S seconds (default 300).
# A copy of the repository without .git (the GPU host's) gets a repository of its own, so that HEAD is the tree.
set -uo pipefail
out=$(realpath -m "${1:?usage: scripts/paired-check.sh <out-dir> [timing mode]}")
cd "$(dirname "$0")/.."
mkdir -p "$out"
export NO_COLOR=1 CI=1 KERNELBENCH_DEVICES=0 KERNELBENCH_TIMING=${2:-cupti} KERNELBENCH_COMPARE_TOLERANCE=${KB_TOLERANCE:-}
unset GITHUB_STEP_SUMMARY
vitest=(node node_modules/vitest/vitest.mjs)
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git init -q . && git add -A && git -c user.name=kernelbench -c user.email=kernelbench@localhost commit -qm snapshot
fi

run() {
  local name=$1
  shift
  local start=$SECONDS
  timeout -k 5 "${KB_RUN_LIMIT_S:-300}" env KERNELBENCH_JSON="$out/$name.json" "$@" >"$out/$name.log" 2>&1
  echo "$name: exit $?, $((SECONDS - start)) s" | tee -a "$out/walls.txt"
}

run same env KERNELBENCH_COMPARE_REF=HEAD "${vitest[@]}" bench --run

planted=bench/zz-planted.bench.ts
cat >"$planted" <<'EOF'
import { kernelBench } from 'vitest-kernel-bench'
import { vectorAddition } from 'vitest-kernel-bench/problems'

for (const permille of [20, 50]) {
  kernelBench(`planted ${permille / 10}%`, {
    problem: vectorAddition,
    solution: '../tests/fixtures/solutions/vector_add_redo.cu',
    build: { defines: { REDO_PERMILLE: permille } },
    compareWith: '../problems/vector-addition/solutions/vector_add.cu',
  })
}
EOF
run planted "${vitest[@]}" bench --run "$planted"
rm -f "$planted"
