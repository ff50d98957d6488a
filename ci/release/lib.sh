# shellcheck shell=bash
# Shared by the release scripts (sourced, never run): the repository root, the
# version, artifact names and checksums. One place, so that the archives the
# release workflow publishes are the ones ci/action/install.sh looks for.
release_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# The package version: the first top-level `version = "…"` of Cargo.toml
# (dependency versions sit inside inline tables, never at a line start).
cargo_version() {
  sed -n 's/^version = "\([^"]*\)"$/\1/p' "$release_root/Cargo.toml" | head -n 1
}

# The executable's name for a Rust target triple.
exe_name() {
  case "$1" in
    *-windows-*) echo platcheck.exe ;;
    *) echo platcheck ;;
  esac
}

# platcheck-v<version>-<target>.tar.gz (.zip on Windows): the archive holds a
# directory of the same stem with the executable, the README, the changelog
# and both licenses.
archive_stem() { echo "platcheck-v$(cargo_version)-$1"; }
archive_ext() {
  case "$1" in
    *-windows-*) echo zip ;;
    *) echo tar.gz ;;
  esac
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

python_cmd() {
  if command -v python3 >/dev/null 2>&1; then echo python3; else echo python; fi
}
