#!/usr/bin/env bash
# Benchmarks platcheck on a generated monorepo (bench/gen.py) against the
# I/O floor (cat), check-jsonschema and squawk. Prints a Markdown table of
# wall / user / sys / peak RSS, one row per command, with the command.
#
#   bench/run.sh [SCALES...]        default: 1 2 4
#
# Environment: BENCH_DIR (default /tmp/platcheck-bench) holds the generated
# repos and the tool venv; RUNS (default 3) is how many times each command is
# timed (the median wall time is kept, with that run's user/sys/RSS);
# CARGO_TARGET_DIR is honoured. Needs Debian `time` and `hyperfine`, and
# installs them with apt-get when missing.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
BENCH_DIR=${BENCH_DIR:-/tmp/platcheck-bench}
RUNS=${RUNS:-3}
SCALES=("${@:-1 2 4}")
read -r -a SCALES <<<"${SCALES[*]}"
mkdir -p "$BENCH_DIR"

need_apt() {
  if ! command -v "$2" >/dev/null; then
    apt-get update -qq && apt-get install -y -qq "$1" >/dev/null
  fi
}
need_apt time /usr/bin/time
need_apt hyperfine hyperfine

VENV=$BENCH_DIR/venv
if [ ! -x "$VENV/bin/squawk" ] || [ ! -x "$VENV/bin/check-jsonschema" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q squawk-cli check-jsonschema
fi
SQUAWK=$VENV/bin/squawk
CJS=$VENV/bin/check-jsonschema

(cd "$REPO" && cargo build --release -q)
BIN=${CARGO_TARGET_DIR:-$REPO/target}/release/platcheck
SCHEMAS=$BENCH_DIR/schemas
mkdir -p "$SCHEMAS"
"$BIN" schema cluster >"$SCHEMAS/cluster.json"
"$BIN" schema event-boundary >"$SCHEMAS/event-boundary.json"

echo "$("$BIN" --version), $(nproc) CPUs, $("$SQUAWK" --version), $("$CJS" --version)"
echo
echo "| scale | what | wall s | user s | sys s | peak RSS MB | command (run in the repo) |"
echo "|---|---|---:|---:|---:|---:|---|"

# measure SCALE LABEL CMD: runs CMD (a shell string, in the repo) RUNS times
# under /usr/bin/time -v and prints the median-wall run as a table row.
measure() {
  local scale=$1 label=$2 cmd=$3 i rows=()
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -v -o "$BENCH_DIR/time.txt" bash -c "$cmd" >/dev/null 2>&1 || true
    rows+=("$(awk -F': ' '
      /Elapsed \(wall clock\)/ { n = split($2, t, ":"); w = 0; for (k = 1; k <= n; k++) w = w * 60 + t[k] }
      /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { r = $2 }
      END { printf "%.3f %.2f %.2f %.1f\n", w, u, s, r / 1024 }' "$BENCH_DIR/time.txt")")
  done
  local med
  med=$(printf '%s\n' "${rows[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  read -r w u s r <<<"$med"
  echo "| ${scale}× | $label | $w | $u | $s | $r | \`${cmd//|/\\|}\` |"
}

for scale in "${SCALES[@]}"; do
  R=$BENCH_DIR/repo-$scale
  [ -f "$R/platcheck.yaml" ] || python3 "$HERE/gen.py" "$R" --scale "$scale" >/dev/null
  cd "$R"
  # Warm the page cache: every figure below is a warm-cache figure.
  find . -type f -print0 | xargs -0 cat >/dev/null
  measure "$scale" "cat floor (walk + read every file)" "find . -type f -print0 | xargs -0 cat > /dev/null"
  measure "$scale" "platcheck, whole repo, human" "$BIN check --color never ."
  measure "$scale" "platcheck, whole repo, JSON" "$BIN check --format json ."
  measure "$scale" "platcheck, whole repo, SARIF" "$BIN check --format sarif ."
  [ "$scale" = 1 ] || continue
  measure 1 "platcheck, contracts/ only" "$BIN check --format json contracts"
  measure 1 "check-jsonschema, clusters" "$CJS --schemafile $SCHEMAS/cluster.json contracts/clusters/*.yaml"
  measure 1 "check-jsonschema, event boundaries" "$CJS --schemafile $SCHEMAS/event-boundary.json contracts/events/*.yaml"
  measure 1 "platcheck, migrations/ only, JSON" "$BIN check --format json migrations"
  measure 1 "squawk, migrations, tty reporter" "$SQUAWK --pg-version 16 --reporter tty migrations/*/*.sql"
  measure 1 "squawk, migrations, JSON reporter" "$SQUAWK --pg-version 16 --reporter json migrations/*/*.sql"
done

# The pre-commit case: one file of each kind, from the repo root.
cd "$BENCH_DIR/repo-${SCALES[0]}"
echo
echo "One-file runs (hyperfine, warm, repo ${SCALES[0]}×):"
echo
hyperfine -N -i --warmup 3 --runs 30 --style none --export-markdown "$BENCH_DIR/one-file.md" \
  "$BIN check contracts/clusters/orders-db-0000.yaml" \
  "$BIN check contracts/events/order-confirmed-0000.yaml" \
  "$BIN check migrations/orders-db-0000/$(ls migrations/orders-db-0000 | head -1)" \
  "$BIN check docs/architecture/python/read-model-sync-000.md" >/dev/null
cat "$BENCH_DIR/one-file.md"
for f in contracts/clusters/orders-db-0000.yaml docs/architecture/python/read-model-sync-000.md; do
  /usr/bin/time -v -o "$BENCH_DIR/time.txt" "$BIN" check "$f" >/dev/null 2>&1 || true
  echo "peak RSS, one-file run of $f: $(awk -F': ' '/Maximum resident/ { printf "%.1f MB", $2 / 1024 }' "$BENCH_DIR/time.txt")"
done
