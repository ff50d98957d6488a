#!/usr/bin/env bash
# Runs platcheck for the composite action: annotations on stdout, SARIF to a
# file, the Markdown step summary, and the `findings` / `sarif-file` outputs.
# Inputs arrive only through the environment (see action.yml).
set -euo pipefail

args=(check --format github --fail-on "${PLATCHECK_FAIL_ON:-error}")
sarif="${PLATCHECK_SARIF:-platcheck.sarif}"
json="$(mktemp)"
args+=(--output "sarif=$sarif" --output "json=$json")
[ -n "${PLATCHECK_CONFIG:-}" ] && args+=(--config "$PLATCHECK_CONFIG")
[ -n "${PLATCHECK_BASE:-}" ] && args+=(--changed-since "$PLATCHECK_BASE")
# Word splitting of the free-form inputs is intended: they are lists.
# shellcheck disable=SC2206
extra=(${PLATCHECK_ARGS:-})
# shellcheck disable=SC2206
paths=(${PLATCHECK_PATHS:-})

set +e
platcheck "${args[@]}" "${extra[@]}" "${paths[@]}"
status=$?
set -e

# The launch-checklist report goes to the step summary after the check's
# own summary; it never changes the step's result.
case "${PLATCHECK_REPORT:-false}" in
  true)
    report=(report --compact --format markdown)
    [ -n "${PLATCHECK_CONFIG:-}" ] && report+=(--config "$PLATCHECK_CONFIG")
    if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_SHA:-}" ]; then
      report+=(--links "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/")
    fi
    if ! platcheck "${report[@]}" "${paths[@]}" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"; then
      echo "::warning title=platcheck::the launch-checklist report could not be written"
    fi
    ;;
  false | "") ;;
  *) echo "::warning title=platcheck::report must be true or false, not ${PLATCHECK_REPORT}; no report written" ;;
esac

findings=0
if [ -s "$json" ]; then
  # One `"rule":` key per finding in platcheck's JSON output (output.md).
  findings=$(grep -c '^      "rule": ' "$json" || true)
fi
{
  echo "findings=$findings"
  echo "sarif-file=$sarif"
} >> "$GITHUB_OUTPUT"
rm -f "$json"
exit "$status"
