#!/usr/bin/env bash
# Builds the release executable for one Rust target and packs it:
# OUTDIR/platcheck-v<version>-<target>.tar.gz (.zip on Windows) and
# OUTDIR/SHA256SUMS. Linux targets are musl and must come out static.
#
# usage: ci/release/build.sh TARGET [OUTDIR]   (OUTDIR defaults to dist/)
# e.g.   bash ci/release/build.sh x86_64-unknown-linux-musl
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

target="${1:?usage: build.sh TARGET [OUTDIR]}"
out="${2:-$release_root/dist}"
cd -- "$release_root"

if ! rustup target list --installed 2>/dev/null | grep -qx -- "$target"; then
  rustup target add -- "$target"
fi
case "$target" in
  *-linux-musl)
    # libz-sys compiles zlib from C: musl-gcc keeps glibc headers out of it.
    command -v musl-gcc >/dev/null || {
      echo "build.sh: $target needs musl-gcc (apt-get install musl-tools)" >&2
      exit 1
    }
    ;;
esac

cargo build --locked --profile dist --target "$target"
exe="target/$target/dist/$(exe_name "$target")"

case "$target" in
  *-linux-*)
    if command -v readelf >/dev/null && readelf -d -- "$exe" | grep -q NEEDED; then
      readelf -d -- "$exe" | grep NEEDED >&2
      echo "build.sh: $exe links shared libraries; the Linux release must be static" >&2
      exit 1
    fi
    ;;
esac

bash ci/release/package.sh "$target" "$exe" "$out"
