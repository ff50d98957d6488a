#!/usr/bin/env bash
# Benchmark (not a test): one figure per target row of issue 21 ("Fast where
# people feel it"), each beside its peer, as a Markdown table.
#
#   bench/targets.sh [ROW...]
#   rows: human20k json20k files500 rss100k repo repo-rss onefile (default: all)
#
# CPU is user+sys, wall is elapsed, both the median of RUNS runs (default 5)
# under /usr/bin/time; RSS is that run's peak. With CALLGRIND=1 (default) each
# platcheck and squawk command is also run once under
# `valgrind --tool=callgrind` and its instruction count (Ir, all threads) is
# given: on a shared 2-core machine the times are noisy, the counts are not,
# so ratios between builds are quoted from the counts.
#
# Environment: PLATCHECK (default $CARGO_TARGET_DIR/release/platcheck, or
# target/release/platcheck), BENCH_OUT (default target/bench: inputs, the
# squawk venv, callgrind files), RUNS, CALLGRIND. Needs python3, Debian `time`
# and valgrind; squawk-cli is pip-installed into a venv under BENCH_OUT.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
OUT=${BENCH_OUT:-$REPO/target/bench}
BIN=${PLATCHECK:-${CARGO_TARGET_DIR:-$REPO/target}/release/platcheck}
RUNS=${RUNS:-5}
CALLGRIND=${CALLGRIND:-1}
ROWS=("$@")
[ ${#ROWS[@]} -gt 0 ] || ROWS=(human20k json20k files500 rss100k repo repo-rss onefile)
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
BIN=$(realpath "$BIN")

VENV=$OUT/venv
[ -x "$VENV/bin/squawk" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q squawk-cli; }
SQUAWK=$VENV/bin/squawk

# Inputs: bench/sql/gen.py files (with run.sh's config) and the 1× repo.
sql_dir() {
  local n=$1 dir=$OUT/sql-$1
  if [ ! -f "$dir/migration.sql" ]; then
    mkdir -p "$dir"
    printf 'version: 1\ntoday: 2026-11-30\nmax_file_size: 64MiB\n' >"$dir/platcheck.yaml"
    python3 "$HERE/sql/gen.py" "$n" "$dir/migration.sql"
  fi
  echo "$dir"
}
REPO1=$OUT/repo-1
[ -f "$REPO1/platcheck.yaml" ] || python3 "$HERE/gen.py" "$REPO1" --scale 1 >/dev/null

# cpu CMD: "wall cpu rss" of the median run (by CPU) of RUNS runs of the
# shell string CMD. The last line of time's output: a failing command (and
# platcheck fails when it finds something) gets an "exited with" line first.
cpu() {
  local i rows=()
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$OUT/time.txt" bash -c "$1" >/dev/null 2>&1 || true
    rows+=("$(tail -n 1 "$OUT/time.txt" | awk '{ printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024 }')")
  done
  printf '%s\n' "${rows[@]}" | sort -k2 -n | sed -n "$(((RUNS + 1) / 2))p"
}
# wallmed CMD: as cpu, the median by wall time.
wallmed() {
  local i rows=()
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$OUT/time.txt" bash -c "$1" >/dev/null 2>&1 || true
    rows+=("$(tail -n 1 "$OUT/time.txt" | awk '{ printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024 }')")
  done
  printf '%s\n' "${rows[@]}" | sort -k1 -n | sed -n "$(((RUNS + 1) / 2))p"
}
# ir CMD: instructions executed by the shell string CMD (callgrind, all threads).
ir() {
  [ "$CALLGRIND" = 1 ] || { echo "-"; return; }
  rm -f "$OUT"/cg.out.*
  bash -c "valgrind --tool=callgrind --trace-children=no --callgrind-out-file=$OUT/cg.out.%p $1" >/dev/null 2>&1 || true
  awk '/^summary:/ { s += $2 } END { printf "%d\n", s }' "$OUT"/cg.out.*
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "-" }'; }

echo "platcheck: $("$BIN" --version) ($BIN); $("$SQUAWK" --version); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| row | platcheck | peer | ratio | platcheck Ir | peer Ir | Ir ratio | commands |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"

# row LABEL METRIC(cpu|wall|rss) DIR PLATCHECK_CMD PEER_CMD
row() {
  local label=$1 metric=$2 dir=$3 pc=$4 peer=$5 a b ia ib
  cd "$dir"
  case $metric in
    cpu) a=$(cpu "$pc" | cut -d' ' -f2); b=$(cpu "$peer" | cut -d' ' -f2); unit=s ;;
    wall) a=$(wallmed "$pc" | cut -d' ' -f1); b=$(wallmed "$peer" | cut -d' ' -f1); unit=s ;;
  esac
  ia=$(ir "$pc")
  ib=-
  case $peer in "$SQUAWK"*) ib=$(ir "$peer") ;; esac
  echo "| $label | $a $unit | $b $unit | $(ratio "$a" "$b") | $ia | $ib | $(ratio "$ia" "$ib") | \`${pc//|/\\|}\` vs \`${peer//|/\\|}\` (in \`${dir#"$OUT"/}\`) |"
}

for r in "${ROWS[@]}"; do
  case $r in
    human20k)
      d=$(sql_dir 20000)
      row "20k statements, human vs squawk JSON (CPU)" cpu "$d" \
        "$BIN check . --color never" "$SQUAWK --reporter json migration.sql" ;;
    json20k)
      d=$(sql_dir 20000)
      row "20k statements, JSON vs squawk JSON (CPU)" cpu "$d" \
        "$BIN check . --format json" "$SQUAWK --reporter json migration.sql" ;;
    files500)
      row "500 files × 200 statements, JSON vs squawk JSON (wall)" wall "$REPO1" \
        "$BIN check --format json migrations" "$SQUAWK --pg-version 16 --reporter json migrations/*/*.sql" ;;
    rss100k)
      d=$(sql_dir 100000)
      cd "$d"
      for fmt in "--format json" "--color never"; do
        m=$(cpu "$BIN check . $fmt")
        echo "| 100k statements, peak RSS ($fmt) | ${m##* } MB | - | - | - | - | - | \`$BIN check . $fmt\` (in \`sql-100000\`) |"
      done ;;
    repo)
      row "repo 1×, whole repo JSON vs cat (CPU)" cpu "$REPO1" \
        "$BIN check --format json ." "find . -type f -print0 | xargs -0 cat > /dev/null" ;;
    repo-rss)
      cd "$REPO1"
      m=$(cpu "$BIN check --format json .")
      echo "| repo 1×, peak RSS (JSON) | ${m##* } MB | - | - | - | - | - | \`$BIN check --format json .\` (in \`repo-1\`) |" ;;
    onefile)
      # Too short for time's 10 ms resolution: instructions, peak RSS, and a
      # hyperfine mean when hyperfine is installed.
      cd "$REPO1"
      for f in contracts/clusters/orders-db-0000.yaml contracts/events/order-confirmed-0000.yaml \
        "migrations/orders-db-0000/$(ls migrations/orders-db-0000 | head -1)" \
        docs/architecture/python/read-model-sync-000.md; do
        m=$(cpu "$BIN check $f")
        mean=-
        if command -v hyperfine >/dev/null; then
          hyperfine -N -i --warmup 3 --runs 30 --style none --export-json "$OUT/hf.json" "$BIN check $f" >/dev/null 2>&1
          mean=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ms (user %.1f ms)" % (r["mean"]*1000, r["user"]*1000))' "$OUT/hf.json")
        fi
        echo "| one-file run, $f (wall mean, user; peak RSS ${m##* } MB) | $mean | - | - | $(ir "$BIN check $f") | - | - | \`$BIN check $f\` (in \`repo-1\`) |"
      done ;;
    *) echo "unknown row $r" >&2; exit 2 ;;
  esac
done
