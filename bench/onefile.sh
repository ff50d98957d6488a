#!/usr/bin/env bash
# Benchmark (not a test): a one-file run on the 1x bench repo, per file kind
# (cluster contract, event contract, migration, document), for one or two
# binaries, each on its own copy of the repo with a warm contract cache (the
# cache is stamped with the binary, so two binaries must not share one).
#
#   bench/onefile.sh BIN [BIN2]
#
# Prints hyperfine's table per file (wall; `-N`, 2 warmups, RUNS runs) and,
# with CALLGRIND=1 (default), each binary's instruction count (Ir, all
# threads) per file: on the shared machine the counts are the ratios to quote.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${BENCH_OUT:-$(dirname "$HERE")/target/bench}
RUNS=${RUNS:-10}
CALLGRIND=${CALLGRIND:-1}
FILES=(contracts/clusters/orders-db-0000.yaml contracts/events/order-confirmed-0000.yaml
  migrations/orders-db-0000/0001_indexes_1.sql docs/runbooks/archival.md)
[ -f "$OUT/repo-1/platcheck.yaml" ] || python3 "$HERE/gen.py" "$OUT/repo-1" --scale 1
bins=()
for i in "$@"; do bins+=("$(realpath "$i")"); done
for n in "${!bins[@]}"; do
  rm -rf "$OUT/onefile-$n" && cp -r "$OUT/repo-1" "$OUT/onefile-$n"
  rm -rf "$OUT/onefile-$n/.platcheck_cache"
  (cd "$OUT/onefile-$n" && "${bins[$n]}" check "${FILES[0]}" >/dev/null || true)
done
for f in "${FILES[@]}"; do
  cmds=()
  for n in "${!bins[@]}"; do cmds+=("cd $OUT/onefile-$n && ${bins[$n]} check $f"); done
  # hyperfine -N runs no shell: each command goes through `sh -c` by hand.
  args=()
  for c in "${cmds[@]}"; do args+=("sh -c '$c >/dev/null'"); done
  hyperfine -N -i --warmup 2 --runs "$RUNS" "${args[@]}"
  if [ "$CALLGRIND" = 1 ]; then
    for n in "${!bins[@]}"; do
      ir=$(cd "$OUT/onefile-$n" && valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "${bins[$n]}" check "$f" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
      echo "callgrind $f bin$n: Ir $ir"
    done
  fi
done
