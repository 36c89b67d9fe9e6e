#!/usr/bin/env bash
# Issue 7 on the GPU machine: the honest benches alone, then the same benches with every planted fault between
# them; each run writes its JSON results, and the last step prints the honest medians of both side by side.
# Then an interrupted run (SIGINT after 4 s, during the infinite loop's 5 s timeout) must still write the results of
# the benches that finished.
set -uo pipefail
out=${1:-.}
config=tests/faults/vitest.config.ts
KERNELBENCH_JSON=$out/clean.json npx vitest bench --run --config $config; echo "exit code: $?"
FAULTS=1 KERNELBENCH_JSON=$out/faults.json npx vitest bench --run --config $config; echo "exit code: $?"
npx tsx scripts/compare-medians.ts "$out/clean.json" "$out/faults.json"
FAULTS=1 KERNELBENCH_JSON=$out/interrupted.json timeout -s INT 4 npx vitest bench --run --config $config; echo "exit code: $?"
npx tsx scripts/compare-medians.ts "$out/clean.json" "$out/interrupted.json"
