#!/usr/bin/env bash
# Builds the PyPI wheel (maturin, `bin` bindings) for one Rust target into
# OUTDIR, or the sdist with TARGET `sdist`. Linux wheels carry the static musl
# executable and are tagged for both glibc (manylinux_2_17) and musl
# (musllinux_1_2), as uv's and ruff's are.
#
# usage: ci/release/wheel.sh TARGET|sdist OUTDIR [maturin options…]
# MATURIN names the maturin to run (default: maturin on PATH).
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

if [ "$target" = sdist ]; then
  "$maturin" sdist --out "$out" "$@"
  exit 0
fi

compat=()
case "$target" in
  *-linux-musl) compat=(--compatibility manylinux_2_17 musllinux_1_2) ;;
esac
"$maturin" build --locked --profile dist --target "$target" --out "$out" ${compat[@]+"${compat[@]}"} "$@"
