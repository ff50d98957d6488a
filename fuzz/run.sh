#!/usr/bin/env bash
# Runs one fuzz target for N seconds (default 600), seeded from the repo's
# examples and fixtures. Needs cargo-fuzz (`cargo install cargo-fuzz`); on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the nightly-only flags.
# FUZZ_SANITIZER=none skips AddressSanitizer (cargo-fuzz's default): the
# code is safe Rust, and without ASan a loaded machine runs several times
# the inputs (panics, hangs, stack overflows and OOMs are still caught).
# FUZZ_DEV=1 uses the dev profile (`cargo fuzz build --dev`): it compiles in
# a fraction of the release build's time on a loaded machine, and runs slower.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: fuzz/run.sh <target> [seconds]}"
seconds="${2:-600}"
corpus="corpus/$target"
extra=""
mkdir -p "$corpus"
case "$target" in
  contract|report) find ../examples ../tests/fixtures ../src/init -name '*.yaml' -exec sh -c 'for f; do cp "$f" "'"$corpus"'/$(echo "$f" | tr / _)"; done' _ {} + ;;
  config) find ../examples ../tests/fixtures ../src/init -name 'platcheck.yaml' -exec sh -c 'for f; do cp "$f" "'"$corpus"'/$(echo "$f" | tr / _)"; done' _ {} + ;;
  sql) find ../examples ../tests/fixtures -name '*.sql' -exec sh -c 'for f; do cp "$f" "'"$corpus"'/$(echo "$f" | tr / _)"; done' _ {} + ;;
  # A config, a NUL, a baseline: every config paired with every baseline of the repo.
  config_baseline)
    for c in $(find ../examples ../tests/fixtures ../src/init -name 'platcheck.yaml'); do
      for b in $(find ../examples ../tests/fixtures -name '*baseline*.json'); do
        { cat "$c"; printf '\0'; cat "$b"; } > "$corpus/$(echo "$c+$b" | tr / _)"
      done
    done ;;
  markdown) find ../examples ../tests/fixtures -name '*.md' -exec sh -c 'for f; do cp "$f" "'"$corpus"'/$(echo "$f" | tr / _)"; done' _ {} + ;;
  # Built from the fuzzer's bytes (files, findings, messages): no seeds. At
  # a few inputs a second libFuzzer's length control keeps it at 4 bytes (no
  # findings) for the whole run, so lengths are free from the start.
  printers) extra="-len_control=0" ;;
esac
RUSTC_BOOTSTRAP=1 cargo fuzz run ${FUZZ_DEV:+--dev} --sanitizer "${FUZZ_SANITIZER:-address}" "$target" "$corpus" -- -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 $extra
