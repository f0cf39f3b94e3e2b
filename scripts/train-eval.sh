#!/usr/bin/env bash
# Re-trains the 8x8 pattern evaluation (data/eval.bin) on the WTHOR games
# and on 77,016 games of the engine against itself:
# - WTHOR: every position from 18 empties on is solved exactly; the solved
#   positions are cached in target/samples.bin (about 50 minutes on 2
#   cores). Each earlier position is labelled by a 4-ply search (no
#   ProbCut) with the weights of commit 1e899c9, the evaluation this one
#   replaced: the labels are kept in target/labels4.bin (about 5 minutes).
# - Self-play: the games were played by the engine of commit 07d43c4, 10
#   random plies then depth 8 a move, every position from 18 empties on
#   solved; earlier positions learn their game's first exact score
#   (--selfplay-target outcome). About 55 minutes on 2 cores; the file is
#   resumable, and selfplay-merge puts its games in game order, so the
#   result does not depend on which thread finished which game first.
# Then the weights are fitted with AdaGrad, each position's error shared
# by the two phases it is valued with.
#   scripts/train-eval.sh [path/to/games.txt.xz]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-../shared/data/wthor/games.txt.xz}"
cargo build --release --quiet
if [ ! -f target/selfplay.bin ]; then
    rm -rf target/selfplay-engine
    git worktree add --force --detach target/selfplay-engine 07d43c4
    (cd target/selfplay-engine && cargo build --release --quiet)
    target/selfplay-engine/target/release/reversi selfplay --out target/selfplay-run.bin \
        --games 77016 --openings random:10 --move-depth 8 --label-depth 8 --exact-empties 18 \
        --threads 2 --seed 1
    ./target/release/reversi selfplay-merge --out target/selfplay.bin target/selfplay-run.bin
    git worktree remove --force target/selfplay-engine
fi
git show 1e899c9:data/eval.bin > target/label-weights.bin
xz -dc "$games" | ./target/release/reversi train --solve-empties 18 --epochs 6 --rate 1.0 \
    --cache target/samples.bin --selfplay target/selfplay.bin \
    --selfplay-target outcome --label-depth 4 --labels target/labels4.bin \
    --label-weights target/label-weights.bin --out data/eval.bin
