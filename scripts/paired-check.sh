#!/usr/bin/env bash
# Paired A/B on a GPU host (docs/ci-gate.md, "Paired A/B"), from the repository root:
#   bash scripts/paired-check.sh <out-dir> [timing mode, default cupti]
# Stages, those KB_STAGES names (default "same planted"):
#   same     the example suite against itself (KERNELBENCH_COMPARE_REF: a commit of the tree as it is): every
#            regression or improvement is a false alarm                           -> same.json, same.log
#   planted  the example float4 add against really slower adds (tests/fixtures/solutions/vector_add_redo.cu, a share
#            of the vector added again: 2% and 5% more traffic)               -> planted.json, planted.log
#   plant    every CUDA solution of the suite against itself made really slower (scripts/plant-slowdown.ts: a spin
#            after its work of KB_PLANTS permille of the solution's own GPU time, default "20 50"), the base planted at 0;
#            with KB_PLANT_AT_TIMES, slow at times: only in the first that many permille of each second
#                                                      -> plant-<permille>.json, .log (plant-<permille>-at-<share>.*)
#   rounds   ten cases of 3.7 µs to 8 ms against themselves (vector add, fp16 gelu, fp32 gemv, rms-norm, fp16 wmma and
#            tiled fp32 GEMMs), once for each round length of KB_ROUND_MS (default "2 5 20" ms): what a round's length
#            does to the noise of a block and to the cost (scripts/paired-cost.ts)  -> rounds-<ms>.json, rounds.txt
#   bias     small cases that read apart against themselves (rms-norm 1024², gemv 4096², two softmax shapes), each
#            run KB_BIAS_RUNS times (default 5) in fresh processes, and each run's change per case: whether the
#            difference between two processes keeps its sign from run to run             -> bias-<i>.json, bias.txt
#   plain    the example suite without a base, twice: in the paired rounds' timing mode and in each bench's own
#            (`events` unless it says otherwise); what a paired run costs against two benches of either
#            (scripts/paired-cost.ts <same.json> --plain <plain-….json>)       -> plain-<mode>.json, plain-own.json
# KB_BENCHES names the bench files `same` and `plant` run (default: every one).
# The tolerance is KB_TOLERANCE (default: the plugin's, 0.01), the pairs of processes KB_PAIRS (default: the plugin's,
# 1); each run is killed after KB_RUN_LIMIT_S seconds (default 300).
# The base of `same` and `plant` is a commit of the tree as it is, tracked or not (ignored files left out), made without
# touching HEAD, the index or the files: the GPU host's copy may have no .git, or one whose HEAD is older than its
# files. `plant` rewrites problems/ and puts it back as it was.
set -uo pipefail
out=$(realpath -m "${1:?usage: scripts/paired-check.sh <out-dir> [timing mode]}")
cd "$(dirname "$0")/.."
mkdir -p "$out"
export NO_COLOR=1 CI=1 KERNELBENCH_DEVICES=0 KERNELBENCH_TIMING=${2:-cupti} KERNELBENCH_COMPARE_TOLERANCE=${KB_TOLERANCE:-} KERNELBENCH_COMPARE_PAIRS=${KB_PAIRS:-}
unset GITHUB_STEP_SUMMARY
vitest=(node node_modules/vitest/vitest.mjs)
git rev-parse --git-dir >/dev/null 2>&1 || git init -q .

# snapshot MESSAGE: the tree as it is now, as a commit of its own; prints its id.
snapshot() {
  local index tree
  index=$(mktemp -u)
  GIT_INDEX_FILE=$index git add -A && tree=$(GIT_INDEX_FILE=$index git write-tree)
  rm -f "$index"
  git -c user.name=kernelbench -c user.email=kernelbench@localhost commit-tree -m "paired-check: $1" "${tree:?}"
}
tree_now=$(snapshot "the tree") || exit 1

run() {
  local name=$1
  shift
  local start=$SECONDS
  timeout -k 5 "${KB_RUN_LIMIT_S:-300}" env KERNELBENCH_JSON="$out/$name.json" "$@" >"$out/$name.log" 2>&1
  echo "$name: exit $?, $((SECONDS - start)) s" | tee -a "$out/walls.txt"
}

stages=${KB_STAGES:-same planted}

if [[ " $stages " == *" same "* ]]; then
  run same env KERNELBENCH_COMPARE_REF="$tree_now" "${vitest[@]}" bench --run ${KB_BENCHES:-}
fi

if [[ " $stages " == *" plain "* ]]; then
  run "plain-$KERNELBENCH_TIMING" "${vitest[@]}" bench --run
  run plain-own env -u KERNELBENCH_TIMING "${vitest[@]}" bench --run
fi

if [[ " $stages " == *" planted "* ]]; then
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
fi

if [[ " $stages " == *" plant "* ]]; then
  npx tsx scripts/plant-slowdown.ts 0 && base=$(snapshot "planted 0") || exit 1
  at=${KB_PLANT_AT_TIMES:-}
  for permille in ${KB_PLANTS:-20 50}; do
    git restore -q --source="$tree_now" --worktree -- problems && npx tsx scripts/plant-slowdown.ts "$permille" $at
    run "plant-$permille${at:+-at-$at}" env KERNELBENCH_COMPARE_REF="$base" "${vitest[@]}" bench --run ${KB_BENCHES:-}
  done
  git restore -q --source="$tree_now" --worktree -- problems
fi

if [[ " $stages " == *" rounds "* ]]; then
  rounds=bench/zz-rounds.bench.ts
  cat >"$rounds" <<'EOF'
import { kernelBench } from 'vitest-kernel-bench'
import { gelu, matmul, matrixVector, rmsNorm, squareMatmul, vectorAddition } from 'vitest-kernel-bench/problems'

const same = (file: string) => ({ solution: file, compareWith: file })
kernelBench('vector add', { problem: vectorAddition, ...same('../problems/vector-addition/solutions/vector_add.cu'), cases: (c) => c.name === 'n = 2^22' || c.name === 'n = 2^25' })
kernelBench('gelu f16', { problem: gelu, dtype: 'float16', ...same('../problems/gelu/solutions/gelu_f16.cu'), cases: (c) => c.name === '4096x4096' || c.name === '8192x8192' })
kernelBench('gemv', { problem: matrixVector, ...same('../problems/matrix-vector/solutions/gemv_f32.cu'), cases: (c) => c.name.startsWith('M=4096') || c.name.startsWith('M=9216') })
kernelBench('rms-norm', { problem: rmsNorm, ...same('../problems/rms-norm/solutions/rms_norm.cu'), cases: (c) => c.name === '1024x1024' || c.name === '2048x8192' })
kernelBench('wmma f16', { problem: squareMatmul, dtype: 'float16', ...same('../problems/square-matmul/solutions/gemm_wmma_f16.cu'), cases: (c) => c.name === '4096x4096' })
kernelBench('tiled sgemm', { problem: matmul, ...same('../problems/matrix-multiplication/solutions/sgemm_tiled.cu'), cases: (c) => c.name === '4096x4096x4096' })
EOF
  for ms in ${KB_ROUND_MS:-2 5 20}; do
    run "rounds-$ms" env KERNELBENCH_COMPARE_ROUND_MS="$ms" "${vitest[@]}" bench --run "$rounds"
    echo "== roundMs $ms" >>"$out/rounds.txt"
    npx tsx scripts/paired-cost.ts "$out/rounds-$ms.json" >>"$out/rounds.txt"
  done
  rm -f "$rounds"
  cat "$out/rounds.txt"
fi

if [[ " $stages " == *" bias "* ]]; then
  bias=bench/zz-bias.bench.ts
  cat >"$bias" <<'EOF'
import { kernelBench } from 'vitest-kernel-bench'
import { matrixVector, rmsNorm, softmax } from 'vitest-kernel-bench/problems'

const same = (file: string) => ({ solution: file, compareWith: file })
kernelBench('rms-norm', { problem: rmsNorm, ...same('../problems/rms-norm/solutions/rms_norm.cu'), cases: (c) => c.name === '1024x1024' || c.name === '1024x4096' })
kernelBench('gemv', { problem: matrixVector, ...same('../problems/matrix-vector/solutions/gemv_f32.cu'), cases: (c) => c.name.startsWith('M=4096') })
kernelBench('softmax', { problem: softmax, ...same('../problems/softmax/solutions/softmax.cu'), cases: (c) => c.name.startsWith('128x10') || c.name.startsWith('256x50') })
EOF
  runs=${KB_BIAS_RUNS:-5}
  for ((i = 1; i <= runs; i++)); do run "bias-$i" "${vitest[@]}" bench --run "$bias"; done
  rm -f "$bias"
  # Each case's change in each run, side by side.
  npx tsx scripts/change-table.ts $(for ((i = 1; i <= runs; i++)); do echo "$out/bias-$i.json"; done) | tee "$out/bias.txt"
fi
