#!/usr/bin/env bash
# Real-world corpora for the migration-history model (bench/REAL-WORLD.md):
# runs platcheck on each corpus, counts what the history sees (files,
# histories, scripts, statements), checks that no finding in an up script
# changes when every down script is deleted, and prints the per-rule table.
#
#   bench/real-world/run.sh /work/corpora/kratos /work/corpora/lemmy
#
# Needs a built platcheck (PLATCHECK, default target/debug/platcheck) and
# python3. The counting helper is built once in $WORK/stats (it depends on
# this checkout by path).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
PLATCHECK=${PLATCHECK:-$repo/target/debug/platcheck}
WORK=${WORK:-/tmp/platcheck-real-world}
mkdir -p "$WORK/stats/src"
cat > "$WORK/stats/Cargo.toml" <<TOML
[package]
name = "history-stats"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
platcheck = { path = "$repo" }
TOML
cp "$here/history_stats.rs" "$WORK/stats/src/main.rs"
(cd "$WORK/stats" && CARGO_TARGET_DIR="$WORK/stats-target" cargo build -q)
for corpus in "$@"; do
  name=$(basename "$corpus")
  echo "== $name ($(git -C "$corpus" rev-parse --short HEAD))"
  (cd "$(dirname "$corpus")" && "$PLATCHECK" check "$name" --format json --fail-on never --today 2026-11-30 > "$WORK/$name.json")
  "$WORK/stats-target/debug/history-stats" "$corpus" | head -2
  # The SQL alone, with and without the down scripts.
  for variant in all nodown; do
    rm -rf "$WORK/$name-$variant" && mkdir -p "$WORK/$name-$variant"
    filter=()
    if [ "$variant" = nodown ]; then filter=(! -name '*.down.sql' ! -name 'down.sql'); fi
    (cd "$corpus" && find . -type f \( -name '*.sql' -o -name '*.sql.*' -o -name metadata.toml -o -name sqitch.plan \) "${filter[@]}" -print0 \
      | tar --null -cf - -T - | tar -xf - -C "$WORK/$name-$variant")
    (cd "$WORK/$name-$variant" && "$PLATCHECK" check . --format json --fail-on never --today 2026-11-30 > "$WORK/$name-$variant.json")
  done
  python3 - "$WORK" "$name" <<'PY'
import collections, json, sys
work, name = sys.argv[1], sys.argv[2]
down = lambda f: "judged against the schema after" in f["message"]
key = lambda f: (f["file"], f["line"], f["column"], f["rule"], f["message"])
out = json.load(open(f"{work}/{name}.json"))
f = out["findings"]
print("files checked:", out["summary"]["files"], "findings:", len(f), "in down scripts:", sum(map(down, f)))
every = collections.Counter(x["rule"] for x in f)
downs = collections.Counter(x["rule"] for x in f if down(x))
print("| rule | findings | in down scripts |\n|---|---:|---:|")
for r in sorted(every):
    print(f"| {r} | {every[r]} | {downs[r]} |")
# PC012/PC013 count the files left out, which deleting downs changes.
skip = ("PC012", "PC013")
ups = {key(x) for x in json.load(open(f"{work}/{name}-all.json"))["findings"] if not down(x) and x["rule"] not in skip}
nodown = {key(x) for x in json.load(open(f"{work}/{name}-nodown.json"))["findings"] if x["rule"] not in skip}
print(f"up-script findings: {len(ups)} with the downs, {len(nodown)} with every down deleted; "
      f"only with downs: {len(ups - nodown)}, only without: {len(nodown - ups)}")
PY
done
