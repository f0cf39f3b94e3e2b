#!/usr/bin/env bash
# Re-trains the 8x8 pattern evaluation (data/eval.bin) on the WTHOR games:
# every position from 18 empties on is solved exactly (earlier positions
# take the score solved at 18 empties), then the weights are fitted with
# AdaGrad, each position training its own phase and the two next to it.
# The solved positions are cached in target/samples.bin. About 50 minutes
# on 2 cores; from 20 empties on, solving takes hours.
#   scripts/train-eval.sh [path/to/games.txt.xz]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-../shared/data/wthor/games.txt.xz}"
cargo build --release --quiet
xz -dc "$games" | ./target/release/reversi train --solve-empties 18 --epochs 6 --rate 1.0 \
    --smooth 1.0 --cache target/samples.bin --out data/eval.bin
