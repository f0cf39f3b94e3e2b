#!/usr/bin/env bash
# A round robin of every built-in player on 8x8 at 100 ms a move, scored
# like the Lab 8 Part 3 leaderboard (win 2, loss 0, tie by time share).
#   scripts/tournament.sh [games-per-pairing] [time-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-10}"; time="${2:-100}"
cargo build --release --quiet
./target/release/reversi match strong greedy first random:1 norvig:4 weights:0.1 smarter smartest \
    --games "$games" --time-ms "$time" --openings random:4 --seed 1 --records tournament.ggf
