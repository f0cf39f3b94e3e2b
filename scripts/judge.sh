#!/usr/bin/env bash
# Judges the working tree against an earlier revision by playing both
# against the same opponent on the same openings in the same run: each
# plays half the games (one shard) at once, one per core, then the other
# half with the two started the other way round. Prints each side's match
# table and the difference of their scores game by game, with its 95%
# interval. Runs of one engine far apart in time differ by more than
# their games' spread on this machine (a 2,000-game run against NTest
# scored 51.1% and, played again, 49.7%), so a candidate is best measured
# beside its baseline.
#   scripts/judge.sh <revision> <opponent> <out-dir> [reversi match options]
# The opponent is any `reversi match` player; the matches run in the
# current directory (where NTest finds its parameters.txt). For example,
# from NTest's folder, at 20 ms a move against its depth 14:
#   scripts/judge.sh HEAD~1 "nboard:./ntest x" judge-out --games 2000 \
#       --time-ms 20 --nboard-depth 14 --margin-ms 5000 --openings random:8 --seed 64
set -euo pipefail
rev="${1:?usage: scripts/judge.sh <revision> <opponent> <out-dir> [match options]}"
opponent="${2:?an opponent player}"
out="${3:?an output directory}"
shift 3
here=$(pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/build-revision.sh
build_working_tree_and "$rev"
cd "$here"
mkdir -p "$out"
new="$repo/target/release/reversi"
old="$base/target/release/reversi"
options=("$@")
# One side: name, binary, shard.
arm() {
    "$new" match "cmd:$2 gtp" "$opponent" "${options[@]}" --shard "$3/2" \
        --results "$out/$1-$3.txt" > /dev/null 2> "$out/$1-$3.err"
}
arm new "$new" 1 & arm old "$old" 1 & wait
arm old "$old" 2 & arm new "$new" 2 & wait
echo "working tree:"
"$new" match-merge "$out"/new-1.txt "$out"/new-2.txt
echo "$rev:"
"$new" match-merge "$out"/old-1.txt "$out"/old-2.txt
python3 - "$out" <<'EOF'
import math, sys
def scores(prefix):
    """The first player's score in every game of both shards (it has
    Black in even games; `black_discs` is Black's disc margin, the whole
    board to the winner of a forfeit)."""
    out = {}
    for shard in (1, 2):
        for line in open(f"{sys.argv[1]}/{prefix}-{shard}.txt"):
            w = line.split()
            if w[:1] == ["result"]:
                game, black = int(w[2]), int(w[3])
                margin = black if game % 2 == 0 else -black
                out[game] = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return out
new, old = scores("new"), scores("old")
games = sorted(set(new) & set(old))
d = [new[g] - old[g] for g in games]
mean = sum(d) / len(d)
sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1))
print(f"working tree minus baseline over {len(d)} games: "
      f"{100 * mean:+.1f} +- {196 * sd / math.sqrt(len(d)):.1f} points")
EOF
