#!/usr/bin/env bash
# The CI guard on the GPU machine: record a baseline from the tiled sgemm, bench the naive sgemm under the same
# name (must fail, exit non-zero), then the tiled one again (must pass). Starts from no baseline.
set -uo pipefail
config=tests/guard/vitest.config.ts
rm -f __kernelbench__/tests__guard__sgemm-guard.bench.ts.json
run() { SGEMM_SOLUTION=$1 npx vitest bench --run --config $config "${@:2}"; echo "exit code: $?"; }
echo "== record the baseline from the tiled sgemm (-u)"; run tiled -u
echo "== the naive sgemm under the same name"; run naive
echo "== the tiled sgemm again"; run tiled
