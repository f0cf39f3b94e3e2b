#!/usr/bin/env bash
# Bench node counts and speed of the working tree against an earlier
# revision, measured in the same run (alternating, best of 3 each).
#   scripts/bench-compare.sh <revision>
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:?usage: scripts/bench-compare.sh <revision>}"
. scripts/build-revision.sh
build_working_tree_and "$rev"
best() { sort -n | head -1; }
new_t=(); old_t=()
for i in 1 2 3; do
    new=$(./target/release/reversi bench | tail -1); old=$("$base/target/release/reversi" bench | tail -1)
    new_t+=("$(echo "$new" | awk '{print $4}')"); old_t+=("$(echo "$old" | awk '{print $4}')")
done
echo "now:      $new"
echo "$rev: $old"
n=$(printf '%s\n' "${new_t[@]}" | best); o=$(printf '%s\n' "${old_t[@]}" | best)
awk -v o="$o" -v n="$n" -v r="$rev" 'BEGIN { printf "best bench time: now %s s, %s %s s, speed ratio %.2f (above 1: faster now)\n", n, r, o, o / n }' 
