#!/usr/bin/env bash
# Installs platcheck for the composite action (action.yml). Inputs arrive only
# through the environment, never interpolated into the script:
#   PLATCHECK_VERSION      the `version` input: empty (the release matching the
#                          action's own ref), vX.Y.Z, source or preinstalled
#   PLATCHECK_ATTESTATION  the `verify-attestation` input: auto, true or false
#   ACTION_PATH, ACTION_REF, ACTION_REPOSITORY   github.action_path/_ref/_repository
#   GH_TOKEN               for `gh attestation verify`
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT (the runner's)
#   PLATCHECK_RELEASES     release download base (tests point it at 127.0.0.1)
#   PLATCHECK_GH           the gh command (default gh; tests use a stand-in)
#
# `install.sh plan` only resolves what to install and writes the `mode`,
# `version` and `cache-key` outputs (the cache step runs between the two);
# `install.sh` (or `install.sh install`) installs.
set -euo pipefail
set -f

fail() {
  echo "::error title=platcheck::$*"
  exit 1
}

action_path="${ACTION_PATH:?ACTION_PATH is not set}"
root="${RUNNER_TEMP:-/tmp}/platcheck"

cargo_version() {
  sed -n 's/^version = "\([^"]*\)"$/\1/p' "$action_path/Cargo.toml" | head -n 1
}

# What to install: mode (release, source, preinstalled) and, for a release,
# the tag. The default follows the action's own ref, so `uses: …@v0.2.0` runs
# platcheck 0.2.0; a commit pin (zizmor's advice) runs the version that
# commit's Cargo.toml declares, which on a release commit is that release.
resolve() {
  local requested="${PLATCHECK_VERSION:-}"
  case "$requested" in
    preinstalled | source)
      mode="$requested"
      tag=""
      ;;
    "")
      mode=release
      if [[ "${ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
        tag="$ACTION_REF"
      else
        tag="v$(cargo_version)"
      fi
      ;;
    v[0-9]*)
      [[ "$requested" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] \
        || fail "version must be empty, source, preinstalled or a release tag like v1.2.3 (got: $requested)"
      mode=release
      tag="$requested"
      ;;
    *)
      fail "version must be empty, source, preinstalled or a release tag like v1.2.3 (got: $requested)"
      ;;
  esac
}

# The release asset for the runner: Linux builds are static musl.
release_target() {
  case "${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}" in
    Linux-X64) echo x86_64-unknown-linux-musl ;;
    Linux-ARM64) echo aarch64-unknown-linux-musl ;;
    macOS-X64) echo x86_64-apple-darwin ;;
    macOS-ARM64) echo aarch64-apple-darwin ;;
    Windows-X64) echo x86_64-pc-windows-msvc ;;
    *) return 1 ;;
  esac
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum -- "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 -- "$1" | cut -d ' ' -f 1
  fi
}

# Downloads URL to FILE; a missing asset is named as such, not as a curl code.
fetch() {
  local url="$1" file="$2" code
  code="$(curl --silent --show-error --location --proto-redir '=https' --retry 3 \
    --connect-timeout 20 --max-time 300 --output "$file" --write-out '%{http_code}' "$url")" \
    || fail "could not download $url"
  case "$code" in
    200) ;;
    404) fail "release $tag has no asset ${url##*/} ($url answered 404): is $tag a published release? (version: source builds from the action's source)" ;;
    *) fail "$url answered HTTP $code" ;;
  esac
}

plan() {
  resolve
  local key=""
  if [ "$mode" = source ]; then
    # The action's lock file and the toolchain decide what cargo builds; the
    # action's path is outside the workspace, so hashFiles() can't see it.
    key="platcheck-source-${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}-$(rustc --version 2>/dev/null | tr -c 'A-Za-z0-9.\n' '-')-$(sha256 "$action_path/Cargo.lock" | cut -c 1-16)"
  fi
  {
    echo "mode=$mode"
    echo "version=$tag"
    echo "cache-key=$key"
  } >> "${GITHUB_OUTPUT:-/dev/null}"
  echo "platcheck: ${tag:-$mode}"
}

install_preinstalled() {
  command -v platcheck >/dev/null || fail "version: preinstalled, but platcheck is not on PATH"
  echo "using $(command -v platcheck)"
  platcheck --version
}

install_source() {
  mkdir -p -- "$root/bin"
  cargo install --locked --quiet --path "$action_path" --root "$root" \
    --target-dir "${PLATCHECK_TARGET_DIR:-$HOME/.cache/platcheck-action/target}"
  echo "$root/bin" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
  "$root/bin/platcheck" --version
}

verify_attestation() {
  local file="$1" gh="${PLATCHECK_GH:-gh}" repo="${ACTION_REPOSITORY:-}"
  [ -n "$repo" ] || repo=platcheck/platcheck
  case "${PLATCHECK_ATTESTATION:-auto}" in
    false) echo "attestation: not verified (verify-attestation: false)"; return 0 ;;
    auto | true) ;;
    *) fail "verify-attestation must be auto, true or false (got: $PLATCHECK_ATTESTATION)" ;;
  esac
  if ! command -v -- "$gh" >/dev/null 2>&1; then
    [ "${PLATCHECK_ATTESTATION:-auto}" = true ] \
      && fail "verify-attestation: true, but the gh CLI is not on PATH"
    echo "::notice title=platcheck::gh is not on PATH: the build provenance attestation was not verified (the SHA256SUMS checksum was)"
    return 0
  fi
  "$gh" attestation verify "$file" --repo "$repo" >/dev/null \
    || fail "${file##*/}: its build provenance attestation does not verify for $repo (gh attestation verify)"
  echo "attestation: verified for $repo"
}

install_release() {
  local target stem ext asset base expected actual exe
  target="$(release_target)" \
    || fail "no release binary for ${RUNNER_OS:-?}-${RUNNER_ARCH:-?}; use version: source (cargo) or preinstalled"
  stem="platcheck-$tag-$target"
  case "$target" in
    *-windows-*) ext=zip exe=platcheck.exe ;;
    *) ext=tar.gz exe=platcheck ;;
  esac
  asset="$stem.$ext"
  local repo="${ACTION_REPOSITORY:-}"
  [ -n "$repo" ] || repo=platcheck/platcheck
  base="${PLATCHECK_RELEASES:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}"
  case "$base" in
    https://* | http://127.0.0.1:* | http://127.0.0.1/* | http://localhost:* | http://localhost/*) ;;
    *) fail "release downloads must use https (got $base)" ;;
  esac
  base="$base/$tag"

  tmp="$(mktemp -d)" # global: the EXIT trap runs after this function returns
  trap 'rm -rf -- "$tmp"' EXIT
  fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS"
  fetch "$base/$asset" "$tmp/$asset"

  expected="$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")"
  [ -n "$expected" ] || fail "SHA256SUMS of $tag has no line for $asset"
  actual="$(sha256 "$tmp/$asset")"
  [ "$expected" = "$actual" ] \
    || fail "checksum mismatch for $asset: SHA256SUMS of $tag says $expected, the download is $actual; not installed"
  echo "checksum: $asset matches SHA256SUMS"
  verify_attestation "$tmp/$asset"

  mkdir -p -- "$tmp/x" "$root/bin"
  case "$ext" in
    zip)
      if command -v unzip >/dev/null 2>&1; then
        unzip -q -o "$tmp/$asset" "$stem/$exe" -d "$tmp/x"
      else
        tar -xf "$tmp/$asset" -C "$tmp/x" "$stem/$exe"
      fi
      ;;
    *) tar -xzf "$tmp/$asset" -C "$tmp/x" "$stem/$exe" ;;
  esac
  [ -f "$tmp/x/$stem/$exe" ] || fail "$asset holds no $stem/$exe"
  mv -f -- "$tmp/x/$stem/$exe" "$root/bin/$exe"
  chmod 0755 -- "$root/bin/$exe"

  local says
  says="$("$root/bin/$exe" --version)" || fail "the downloaded platcheck does not run on this runner"
  [ "$says" = "platcheck ${tag#v}" ] || fail "$asset runs as '$says', not platcheck ${tag#v}"
  echo "$root/bin" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
  echo "installed $says in $root/bin"
}

case "${1:-install}" in
  plan) plan ;;
  install)
    resolve
    case "$mode" in
      preinstalled) install_preinstalled ;;
      source) install_source ;;
      release) install_release ;;
    esac
    ;;
  *) fail "install.sh: unknown command ${1:-}" ;;
esac
