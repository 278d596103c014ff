#!/usr/bin/env bash
# Runs two builds of gridstore-bench in alternation, so drifts in the machine's speed touch
# both alike, and keeps each run's report:
#
#   Benchmarks/alternate.sh OLD_BENCH NEW_BENCH ROUNDS GROUP... > report.txt
#
# e.g. an old commit's benchmarks built in /tmp/old against the working tree's:
#   Benchmarks/alternate.sh /tmp/old/Benchmarks/.build/release/gridstore-bench \
#       Benchmarks/.build/release/gridstore-bench 3 toggle bulk
set -euo pipefail
old=$1 new=$2 rounds=$3
shift 3
for round in $(seq 1 "$rounds"); do
    for build in old new; do
        binary=$old
        [ "$build" = new ] && binary=$new
        echo "=== round $round: $build ($binary)"
        "$binary" "$@"
    done
done
