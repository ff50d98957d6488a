#!/usr/bin/env bash
# The release workflow's first gate: the pushed tag is v<Cargo.toml version>,
# its changelog section is dated, and every pin of the version agrees
# (pre-commit hook, shim, docs). Runs anywhere: `bash ci/release/check-tag.sh v0.2.0`.
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tag="${1:?usage: check-tag.sh TAG}"
version="$(cargo_version)"
[ "$tag" = "v$version" ] || { echo "check-tag.sh: tag $tag but Cargo.toml says $version (expected v$version)" >&2; exit 1; }
bash "$release_root/ci/release/notes.sh" "$version" >/dev/null
"$(python_cmd)" "$release_root/ci/release/versions.py" --check "$version"
echo "tag $tag: version, changelog and pins agree"
