#!/usr/bin/env bash
# Builds the PyPI wheel (maturin, `bin` bindings) for one Rust target into
# OUTDIR, or the sdist with TARGET `sdist`. Linux wheels carry the static musl
# executable and are tagged for both glibc (manylinux_2_17) and musl
# (musllinux_1_2), as uv's and ruff's are.
#
# usage: ci/release/wheel.sh TARGET|host|sdist OUTDIR [maturin options…]
# `host` builds for this machine without --target, reusing target/<profile>.
# MATURIN names the maturin to run (default: maturin on PATH);
# PLATCHECK_PROFILE the cargo profile (default dist; .ci/integration.sh: dev).
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

target="${1:?usage: wheel.sh TARGET|sdist OUTDIR}"
out="${2:?usage: wheel.sh TARGET|sdist OUTDIR}"
shift 2
mkdir -p -- "$out"
out="$(cd -- "$out" && pwd)"
maturin="${MATURIN:-maturin}"

# The wheel's licenses: maturin takes them from the pyproject's directory and
# refuses `..` paths, and a symlink would be a text file on Windows.
cp -- "$release_root/LICENSE-MIT" "$release_root/LICENSE-APACHE" "$release_root/pypi/"
cd -- "$release_root/pypi"

# (maturin 1.16's sdist prints "error: manifest path `Cargo.toml` does not
# exist" while it looks for a crate beside this pyproject, then follows
# manifest-path and builds the sdist: the line is noise, not a failure.)
if [ "$target" = sdist ]; then
  "$maturin" sdist --out "$out" "$@"
  exit 0
fi

options=(--locked --profile "${PLATCHECK_PROFILE:-dist}" --out "$out")
case "$target" in
  host) ;;
  *-linux-musl) options+=(--target "$target" --compatibility manylinux_2_17 musllinux_1_2) ;;
  *) options+=(--target "$target") ;;
esac
"$maturin" build "${options[@]}" "$@"
