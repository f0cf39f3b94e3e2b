#!/usr/bin/env bash
# The strong engine against each seed player: 100 games each on 8x8 at
# 100 ms a move, from 4-ply random openings, both colours.
#   scripts/strong-vs-seed-players.sh [size] [games] [time-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-8}"; games="${2:-100}"; time="${3:-100}"
cargo build --release --quiet
opponents=(greedy first random:1 smarter smartest)
if [ "$size" = 8 ]; then opponents+=(norvig:4 weights:0.1); fi
for opponent in "${opponents[@]}"; do
    ./target/release/reversi match strong "$opponent" --size "$size" --games "$games" \
        --time-ms "$time" --openings random:4 --seed 1
done
