#!/usr/bin/env bash
# The chart images of docs/charts.md from real results: docs/images/roofline.svg (the first roofline of the report, as the
# `report` command draws it) and docs/images/roofline.png (the browser test's screenshot of that chart in Chromium).
#   scripts/readme-images.sh <results.json>…      e.g. the kernelbench.json of `npx vitest bench --run` on a GPU
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/readme-images.sh <results.json>…" >&2
  exit 2
fi
files=()
for f in "$@"; do files+=("$(realpath "$f")"); done
out=$(mktemp -d)
npx tsx src/cli/cli.ts report "${files[@]}" --html "$out/kernelbench.html" --svg "$out/svg"
first=$(grep -o 'id="roofline-[^"]*"' "$out/kernelbench.html" | head -1 | cut -d'"' -f2)
cp "$out/svg/$first.svg" docs/images/roofline.svg
KERNELBENCH_UPDATE_SCREENSHOT=1 KERNELBENCH_SCREENSHOT_RESULTS=$(IFS=,; echo "${files[*]}") npx vitest run tests/browser/html-report.test.ts
echo "written: docs/images/roofline.svg ($first), docs/images/roofline.png"
