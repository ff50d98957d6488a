#!/usr/bin/env bash
# Prints the CHANGELOG.md section of a version (the release notes), and fails
# when it is missing or still `Unreleased`: a tag must not ship undated notes.
#
# usage: ci/release/notes.sh VERSION   (without the leading v)
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

version="${1:?usage: notes.sh VERSION}"
changelog="$release_root/CHANGELOG.md"
heading="$(grep -m 1 -F -- "## [$version]" "$changelog" || true)"
[ -n "$heading" ] || { echo "notes.sh: CHANGELOG.md has no '## [$version]' section" >&2; exit 1; }
if ! printf '%s\n' "$heading" | grep -Eq -- '- [0-9]{4}-[0-9]{2}-[0-9]{2}$'; then
  echo "notes.sh: '$heading' has no release date (## [$version] - YYYY-MM-DD)" >&2
  exit 1
fi
awk -v h="$heading" '
  $0 == h { inside = 1; next }
  inside && (/^## / || /^\[[^]]+\]: /) { exit }
  inside { print }
' "$changelog"
