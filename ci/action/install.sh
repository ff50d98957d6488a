#!/usr/bin/env bash
# Installs platcheck for the composite action. Inputs arrive only through the
# environment (never interpolated into the script): PLATCHECK_VERSION,
# ACTION_PATH, and the runner's RUNNER_TEMP / RUNNER_OS / RUNNER_ARCH / GITHUB_PATH.
set -euo pipefail

version="${PLATCHECK_VERSION:-source}"
root="${RUNNER_TEMP:-/tmp}/platcheck"
mkdir -p "$root/bin"

case "$version" in
  preinstalled)
    command -v platcheck >/dev/null || { echo "::error title=platcheck::version: preinstalled, but platcheck is not on PATH"; exit 1; }
    echo "using $(command -v platcheck)"
    exit 0
    ;;
  source)
    cargo install --locked --quiet --path "$ACTION_PATH" --root "$root"
    ;;
  v[0-9]*)
    case "${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}" in
      Linux-X64) target=x86_64-unknown-linux-gnu ;;
      Linux-ARM64) target=aarch64-unknown-linux-gnu ;;
      macOS-X64) target=x86_64-apple-darwin ;;
      macOS-ARM64) target=aarch64-apple-darwin ;;
      *) echo "::error title=platcheck::no release binary for ${RUNNER_OS:-?}-${RUNNER_ARCH:-?}; use version: source"; exit 1 ;;
    esac
    asset="platcheck-$version-$target.tar.gz"
    base="${PLATCHECK_RELEASES:-https://github.com/platcheck/platcheck/releases/download}/$version"
    tmp="$(mktemp -d)"
    curl -fsSL --retry 3 -o "$tmp/$asset" "$base/$asset"
    curl -fsSL --retry 3 -o "$tmp/SHA256SUMS" "$base/SHA256SUMS"
    (cd "$tmp" && grep " $asset\$" SHA256SUMS | sha256sum --check --strict -)
    tar -xzf "$tmp/$asset" -C "$root/bin" platcheck
    ;;
  *)
    echo "::error title=platcheck::version must be source, preinstalled or a release tag like v0.1.0 (got: $version)"
    exit 1
    ;;
esac

echo "$root/bin" >> "$GITHUB_PATH"
"$root/bin/platcheck" --version
