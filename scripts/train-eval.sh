#!/usr/bin/env bash
# Re-trains the 8x8 pattern evaluation (data/eval.bin) on the WTHOR games
# and on four sets of games of the engine against itself:
# - WTHOR: every position from 18 empties on is solved exactly; the solved
#   positions are cached in target/samples.bin (about 50 minutes on 2
#   cores). Each earlier position is labelled by a 4-ply search (no
#   ProbCut) with the weights of commit 1e899c9, two evaluations back
#   (6 plies with ca5983f's weights did no better: see
#   docs/research/evaluation.md); the labels are kept in
#   target/labels4.bin (about 5 minutes).
# - Self-play, every position from 18 empties on solved; earlier positions
#   learn their game's first exact score (--selfplay-target outcome):
#   1. 77,016 games of the engine of commit 07d43c4, 10 random plies then
#      depth 8 a move (about 55 minutes on 2 cores);
#   2. the same from seed 2 by the engine of commit fd08ae5 (53 minutes);
#   3. 80,000 games of the engine of commit 06ddfc9 from the WTHOR games'
#      positions after 8 to 44 plies, each turned by one random ply, then
#      depth 8 a move (about 45 minutes);
#   4. 60,000 games of the engine of commit eca5b44, as the third from
#      seed 4 (about 25 minutes).
#   Each file is resumable, and selfplay-merge puts its games in game
#   order, so the result does not depend on which thread finished which
#   game first (GNU parallel can run the shards: see README).
# Then the weights are fitted with AdaGrad, each position's error shared
# by the two phases it is valued with. The fit is deterministic, and so is
# each set for its seed: run again, this makes data/eval.bin byte for
# byte. What each set is worth: docs/research/evaluation.md.
#   scripts/train-eval.sh [path/to/games.txt.xz]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-../shared/data/wthor/games.txt.xz}"
cargo build --release --quiet
# The third and fourth sets' openings are read from the games as a plain file.
if { [ ! -f target/selfplay3.bin ] || [ ! -f target/selfplay4.bin ]; } && [ ! -f target/wthor.txt ]; then
    xz -dc "$games" > target/wthor.part && mv target/wthor.part target/wthor.txt
fi
# One self-play set: games of the engine of commit $2 (seed $3, $4 games,
# openings $5, non-exact labels $6 plies deep: only the exact ones are
# trained on), merged into target/$1. A stopped run goes on where it
# stopped.
selfplay_set() {
    local out="$1" commit="$2" seed="$3" count="$4" openings="$5" label_depth="$6"
    [ -f "target/$out" ] && return
    rm -rf target/selfplay-engine
    git worktree add --force --detach target/selfplay-engine "$commit"
    (cd target/selfplay-engine && cargo build --release --quiet)
    target/selfplay-engine/target/release/reversi selfplay --out "target/run-$out" \
        --games "$count" --openings "$openings" --move-depth 8 --label-depth "$label_depth" \
        --exact-empties 18 --threads 2 --seed "$seed"
    ./target/release/reversi selfplay-merge --out "target/$out" "target/run-$out"
    git worktree remove --force target/selfplay-engine
}
selfplay_set selfplay.bin 07d43c4 1 77016 random:10 8
selfplay_set selfplay2.bin fd08ae5 2 77016 random:10 8
selfplay_set selfplay3.bin 06ddfc9 3 80000 wthor:target/wthor.txt:8-44+1 1
selfplay_set selfplay4.bin eca5b44 4 60000 wthor:target/wthor.txt:8-44+1 1
git show 1e899c9:data/eval.bin > target/label-weights.bin
# The labelling weights have the layout before the opponent's and the
# potential mobility terms, which this binary cannot read: the last commit
# of that layout labels the games (its own fit, one epoch, is thrown away).
# Both train runs get the games by process substitution, not a pipe:
# with the solved positions cached, train does not read them, and the
# unpacker's broken pipe would fail the run under pipefail once the
# weights are written.
if [ ! -f target/labels4.bin ]; then
    rm -rf target/label-engine
    git worktree add --force --detach target/label-engine 1357425
    (cd target/label-engine && cargo build --release --quiet)
    target/label-engine/target/release/reversi train --solve-empties 18 \
        --epochs 1 --cache target/samples.bin --label-depth 4 --labels target/labels4.bin \
        --label-weights target/label-weights.bin --out target/label-engine-fit.bin \
        < <(xz -dc "$games")
    git worktree remove --force target/label-engine
fi
./target/release/reversi train --solve-empties 18 --epochs 6 --rate 1.0 \
    --cache target/samples.bin --selfplay target/selfplay.bin \
    --selfplay target/selfplay2.bin --selfplay target/selfplay3.bin \
    --selfplay target/selfplay4.bin \
    --selfplay-target outcome --label-depth 4 --labels target/labels4.bin \
    --label-weights target/label-weights.bin --out data/eval.bin < <(xz -dc "$games")
