#!/usr/bin/env bash
# Exact-solver nodes and time of the working tree against an earlier
# revision on an OBF file, measured in the same run: both binaries run at
# once, one on each of two cores, then again with the cores swapped, so
# that the machine's drift (identical solves here vary by 10-25% from one
# run to the next) and any difference between the cores fall on both.
#   scripts/solve-compare.sh <revision> [file.obf] [core-a core-b]
# (default file: FFO #40-#44; default cores: 0 and 1). Sets that take a
# few seconds still differ by up to 10% between identical binaries; for
# smaller effects use a set of a minute or more.
set -euo pipefail
rev="${1:?usage: scripts/solve-compare.sh <revision> [file.obf] [core-a core-b]}"
# A file given is relative to where the script is run from.
file="$(realpath "${2:-$(dirname "$0")/../data/ffo/fforum-40-59.obf}")"
cd "$(dirname "$0")/.."
core_a="${3:-0}"; core_b="${4:-1}"
. scripts/build-revision.sh
build_working_tree_and "$rev"
if [ -z "${2:-}" ]; then
    head -n 5 "$file" > "$base/problems.obf"
else
    cp "$file" "$base/problems.obf"
fi
now=./target/release/reversi; old="$base/target/release/reversi"
run() { taskset -c "$1" "$2" solve "$base/problems.obf" | tail -n 1; }
for round in 1 2; do
    if [ "$round" = 1 ]; then c_now=$core_a; c_old=$core_b; else c_now=$core_b; c_old=$core_a; fi
    run "$c_now" "$now" > "$base/now-$round" &
    run "$c_old" "$old" > "$base/old-$round" &
    wait
    echo "round $round now ($c_now):  $(cat "$base/now-$round")"
    echo "round $round $rev ($c_old): $(cat "$base/old-$round")"
done
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($(i + 1) == k) print $i }' "$1"; }
sum() { awk '{ s += $1 } END { print s }'; }
t_now=$( (field "$base/now-1" "s,"; field "$base/now-2" "s,") | sum)
t_old=$( (field "$base/old-1" "s,"; field "$base/old-2" "s,") | sum)
n_now=$(field "$base/now-1" "nodes,"); n_old=$(field "$base/old-1" "nodes,")
awk -v tn="$t_now" -v to="$t_old" -v nn="$n_now" -v no="$n_old" -v r="$rev" 'BEGIN {
    printf "nodes: now %d, %s %d (%+.2f%%)\n", nn, r, no, 100 * (nn - no) / no
    printf "time over both rounds: now %.1f s, %s %.1f s, speed ratio %.3f (above 1: faster now)\n", tn, r, to, to / tn
}'
