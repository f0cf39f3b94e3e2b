#!/usr/bin/env bash
# Runs `reversi leaderboard` in SHARDS shards with GNU parallel on this
# machine, JOBS at once: the submissions are built once, then each stage's
# shards play their parts into the shared folder (the finals' shards once
# the qualification is complete), then one run writes the standings.
# Every step can be run again: it plays only what is missing.
#   scripts/leaderboard-shards.sh SHARDS JOBS LEADERBOARD-ARGS...
# e.g., with one program a line in programs.txt:
#   mapfile -t programs < programs.txt
#   scripts/leaderboard-shards.sh 8 2 --submissions subs --out board "${programs[@]}"
set -euo pipefail
shards=$1
jobs=$2
shift 2
reversi=${REVERSI:-reversi}
if printf '%s\n' "$@" | grep -qx -- --submissions; then
    "$reversi" leaderboard "$@" --build-only
fi
for stage in qualify final; do
    echo "stage $stage: $shards shards, $jobs at once" >&2
    parallel -q --halt now,fail=1 -j "$jobs" "$reversi" leaderboard "$@" --shard {}/"$shards" \
        ::: $(seq 1 "$shards") > /dev/null
done
"$reversi" leaderboard "$@"
