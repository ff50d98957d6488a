#!/usr/bin/env bash
# Packs one built executable as a release archive and refreshes SHA256SUMS in
# the output directory. The release workflow runs it after `build.sh`; the
# install-script tests run it on the test binary to make a fake release.
#
# usage: ci/release/package.sh TARGET EXECUTABLE OUTDIR
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

target="${1:?usage: package.sh TARGET EXECUTABLE OUTDIR}"
exe="${2:?usage: package.sh TARGET EXECUTABLE OUTDIR}"
out="${3:?usage: package.sh TARGET EXECUTABLE OUTDIR}"
[ -f "$exe" ] || { echo "package.sh: no executable at $exe" >&2; exit 1; }

mkdir -p -- "$out"
out="$(cd -- "$out" && pwd)"
stem="$(archive_stem "$target")"
stage="$(mktemp -d)"
trap 'rm -rf -- "$stage"' EXIT
mkdir -- "$stage/$stem"
cp -- "$exe" "$stage/$stem/$(exe_name "$target")"
chmod 0755 -- "$stage/$stem/$(exe_name "$target")"
for doc in README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE; do
  cp -- "$release_root/$doc" "$stage/$stem/"
done

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH="$(git -C "$release_root" log -1 --format=%ct 2>/dev/null || date +%s)"
  export SOURCE_DATE_EPOCH
fi
archive="$out/$stem.$(archive_ext "$target")"
"$(python_cmd)" "$release_root/ci/release/archive.py" "$archive" "$stage/$stem"
echo "packed $archive"
bash "$release_root/ci/release/sums.sh" "$out"
