#!/usr/bin/env bash
# Perft speed on 8x8 from the start position, against the wide board in
# the same run (the ratio is what to compare across machines).
#   scripts/perft-speed.sh [depth]   (default 11)
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-11}"
cargo build --release --quiet
./target/release/reversi perft --size 8 --depth "$depth" --baseline wide
