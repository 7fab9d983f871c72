#!/usr/bin/env bash
# The whole compatibility matrix: the agent's core story on every tested Kafka version, one cluster at a time,
# plus the ZooKeeper-mode refusal on 3.9.1. Usage: compat/run-matrix.sh [VERSIONS]   (default: all; or e.g. 4.1.2,4.4.0)
# Upstream modules are built but their tests are not run. Results: compat/target/compat-results/kafka-VERSION.md
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf compat/target/compat-results
status=0
mvn -B -pl compat -am verify -Dcompat.versions="${1:-all}" \
    -Dtest='CompatibilityStoryTest,ZooKeeperModeRefusalTest' -Dsurefire.failIfNoSpecifiedTests=false || status=$?
for f in compat/target/compat-results/kafka-*.md; do
    [ -e "$f" ] && { cat "$f"; echo; }
done
exit "$status"
