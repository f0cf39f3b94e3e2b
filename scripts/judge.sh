#!/usr/bin/env bash
# Judges the working tree against an earlier revision: a match between the
# two builds (the working tree first), each opening played once with each
# colour, stopped by an SPRT as soon as it decides. The statistics are
# `reversi match`'s own: pentanomial counts, the score from pairs, the
# log-likelihood ratio and its bounds.
#   scripts/judge.sh <revision> <out-dir> [reversi match options]
# Unless the options say otherwise it plays at 20 ms a move from
# `random:8` openings, one game a core at once, with
# `--sprt elo0=0,elo1=10` and at most 20,000 games. The results go to
# <out-dir>/results.txt: the same command run again goes on where a
# stopped run left off. For example, an SPRT between two Elo bounds at
# 100 ms a move:
#   scripts/judge.sh HEAD~1 judge-out --time-ms 100 --sprt elo0=-5,elo1=5
set -euo pipefail
rev="${1:?usage: scripts/judge.sh <revision> <out-dir> [match options]}"
out="${2:?an output directory}"
shift 2
options=("$@")
# A default for each option the caller did not give.
default() {
    local option=$1
    shift
    for given in "${options[@]}"; do
        [[ $given == "$option" || $given == "$option="* ]] && return
    done
    options+=("$option" "$@")
}
default --sprt elo0=0,elo1=10
default --games 20000
default --time-ms 20
default --openings random:8
default --concurrency "$(nproc)"
here=$(pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/build-revision.sh
build_working_tree_and "$rev"
cd "$here"
mkdir -p "$out"
new="$repo/target/release/reversi"
# The old build is copied out of its worktree, which is removed on exit,
# so that a stopped run's command finds the same binary when run again.
hash=$(git -C "$repo" rev-parse --short "$rev")
old="$out/reversi-$hash"
cp "$base/target/release/reversi" "$old"
"$new" match "tree=cmd:$new gtp" "old-$hash=cmd:$old gtp" "${options[@]}" \
    --results "$out/results.txt" --records "$out/games.ggf" 2> >(tee "$out/stderr.txt" >&2)
