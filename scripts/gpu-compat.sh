#!/usr/bin/env bash
# The README's first benchmark in a fresh project with the packed package, on a GPU host that has no package
# registry: `pack` installs the project here (one Vitest major) and archives it; `run` unpacks it on the GPU host
# and runs `vitest run` (correctness), `vitest bench --run -u` (records the baseline), then the CI guard on a
# planted regression (the solution launches its kernel three times: exit 1 expected) and after undoing it (exit 0),
# and the package's `gate` command over each of those two runs' results files (exit 1, then 0).
# usage: scripts/gpu-compat.sh pack OUT_DIR VITEST_RANGE [NODE_BINARY]   (here, after npm pack)
#        scripts/gpu-compat.sh run ARCHIVE LOG_DIR                          (GPU host, with node on PATH)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

pack() {
  local out=$1 vitest=$2 node=${3:-$(command -v node)}
  mkdir -p "$out"
  local tarball
  tarball=$(cd "$repo" && npm pack --silent --pack-destination "$out" | tail -1)
  local project
  project=$(mktemp -d)/project
  mkdir -p "$project"
  cp -r "$repo/tests/compat/project/." "$project"
  cp "$repo/problems/matrix-multiplication/solutions/sgemm_naive.cu" "$project/kernels/sgemm.cu"
  (
    export PATH="$(dirname "$(realpath "$node")"):$PATH"
    cd "$project"
    npm init -y >/dev/null
    npm pkg set type=module
    npm install -D --no-audit --no-fund --loglevel=error "vitest@$vitest" "$out/$tarball"
  )
  local name="vitest${vitest//[^0-9]/}"
  name=${name:0:7}
  tar -C "$(dirname "$project")" -cJf "$out/$name.tar.xz" project
  rm "$out/$tarball"
  echo "$out/$name.tar.xz"
}

# Runs one step, logging its output and exit code; the script goes on whatever the code.
step() {
  local log=$1
  shift
  set +e
  "$@" >"$log" 2>&1
  local code=$?
  set -e
  echo "exit $code: $*" | tee -a "$log"
  return 0
}

# Vitest's own entry point: the GPU host may have node without npm (and so without npx).
vitest() {
  node node_modules/vitest/vitest.mjs "$@"
}

run() {
  local archive=$1 logs=$2
  mkdir -p "$logs"
  local work
  work=$(mktemp -d)
  tar -C "$work" -xJf "$archive"
  cd "$work/project"
  export NO_COLOR=1 CI=1
  echo "node $(node --version), vitest $(node -p 'require("vitest/package.json").version')" | tee "$logs/versions.txt"
  step "$logs/1-run.log" vitest run
  step "$logs/2-bench-record.log" vitest bench --run -u
  cp kernels/sgemm.cu /tmp/sgemm.cu.orig
  # The planted regression: the same kernel, launched three times per call.
  sed -i 's/^\(\s*\)\(.*<<<.*;\)$/\1\2 \2 \2/' kernels/sgemm.cu
  grep -c '<<<' kernels/sgemm.cu >"$logs/planted-launch-lines.txt"
  diff /tmp/sgemm.cu.orig kernels/sgemm.cu >"$logs/planted.diff" || true
  step "$logs/3-bench-regression.log" env KERNELBENCH_JSON=kb-regression.json node node_modules/vitest/vitest.mjs bench --run
  cp /tmp/sgemm.cu.orig kernels/sgemm.cu
  step "$logs/4-bench-restored.log" env KERNELBENCH_JSON=kb-restored.json node node_modules/vitest/vitest.mjs bench --run
  step "$logs/5-gate-regression.log" node_modules/.bin/vitest-kernel-bench gate kb-regression.json
  step "$logs/6-gate-restored.log" node_modules/.bin/vitest-kernel-bench gate kb-restored.json
  grep -h '^exit' "$logs"/[1-6]-*.log
}

"$@"
