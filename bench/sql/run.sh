#!/usr/bin/env bash
# Benchmark (not a test): platcheck vs squawk on 20k- and 100k-statement
# migrations. Needs a release build and squawk in a venv:
#   cargo build --release
#   python3 -m venv /tmp/squawk-venv && /tmp/squawk-venv/bin/pip install squawk-cli
# Usage: bench/sql/run.sh [PLATCHECK] [SQUAWK]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
platcheck="${1:-${CARGO_TARGET_DIR:-$here/../../target}/release/platcheck}"
squawk="${2:-/tmp/squawk-venv/bin/squawk}"
work="${BENCH_DIR:-/tmp/platcheck-bench}"
mkdir -p "$work"

# wall seconds and peak RSS (MB) of one command, output discarded
measure() {
  local log="$work/time.log"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || true
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$log")
  printf '%s\t%s MB' "$wall" "$rss"
}

printf 'statements\ttool\twall (m:ss)\tpeak RSS\n'
for n in 20000 100000; do
  dir="$work/$n"
  mkdir -p "$dir"
  # platcheck's default max_file_size is 10 MiB; say so explicitly.
  printf 'version: 1\ntoday: 2026-11-30\nmax_file_size: 64MiB\n' >"$dir/platcheck.yaml"
  python3 "$here/gen.py" "$n" "$dir/migration.sql"
  printf '%s\tplatcheck human\t%s\n' "$n" "$(measure "$platcheck" check "$dir" --color never)"
  printf '%s\tplatcheck json\t%s\n' "$n" "$(measure "$platcheck" check "$dir" --format json)"
  printf '%s\tsquawk json\t%s\n' "$n" "$(measure "$squawk" --reporter json "$dir/migration.sql")"
  if [ "$n" -le 20000 ] || [ -n "${SQUAWK_TTY_ALL:-}" ]; then
    printf '%s\tsquawk tty\t%s\n' "$n" "$(measure "$squawk" --reporter tty "$dir/migration.sql")"
  fi
done
