#!/usr/bin/env bash
# Times the inputs issue 17 found quadratic (bench/gen_hostile.py) with the
# release build: one line of 60,000 statements against the same statements
# on separate lines, a 1.4 MB sibling pair, a 100 KB include glob. Prints a
# Markdown table (median of RUNS runs: wall, user, peak RSS, exit code).
#
#   bench/hostile.sh   # BENCH_DIR (default /tmp/platcheck-hostile), RUNS (default 3), PLATCHECK_BIN
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/platcheck-hostile}
RUNS=${RUNS:-3}
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
# PLATCHECK_BIN: an already built binary (skips the release build).
if [ -z "${PLATCHECK_BIN:-}" ]; then
  (cd "$REPO" && cargo build --release -q)
fi
BIN=${PLATCHECK_BIN:-${CARGO_TARGET_DIR:-$REPO/target}/release/platcheck}
python3 "$HERE/gen_hostile.py" "$BENCH_DIR"

echo "| input | wall s | user s | peak RSS MB | exit | command (in \$BENCH_DIR/<input>) |"
echo "|---|---:|---:|---:|---:|---|"
measure() {
  local dir=$1 cmd=$2 i rows=()
  for ((i = 0; i < RUNS; i++)); do
    (cd "$BENCH_DIR/$dir" && /usr/bin/time -f "%e %U %M %x" -o "$BENCH_DIR/time.txt" bash -c "$cmd" >/dev/null 2>&1) || true
    rows+=("$(tail -1 "$BENCH_DIR/time.txt")")
  done
  read -r w u r x <<<"$(printf '%s\n' "${rows[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")"
  printf '| %s | %s | %s | %.1f | %s | `%s` |\n' "$dir" "$w" "$u" "$(echo "$r / 1024" | bc -l)" "$x" "$cmd"
}
measure many-lines "$BIN check --format json m.sql"
measure one-line "$BIN check --format json m.sql"
measure drift "$BIN check --format json docs"
measure glob "$BIN check --format json ."
