#!/usr/bin/env bash
# Makes data/book-8x8.bin, the opening book in the repository (built into
# the binary: rebuild after making it), from the WTHOR tournament games:
# the positions of their first PLIES (20) plies that MIN_GAMES (10) games
# reach, each position's best move that no game played searched to DEPTH
# (26) plies, in SHARDS (2) shards run at once (one a core), then merged.
# Its size and cost: docs/research/book.md. Each shard's part is kept in
# the work folder, so a lost one is run again alone; `reversi book merge` gives the same
# bytes whatever machines ran the parts.
#   scripts/make-book.sh [wthor games.txt.xz] [out file] [work folder]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
games="${1:-$here/../shared/data/wthor/games.txt.xz}"
out="${2:-$here/data/book-8x8.bin}"
work="${3:-$(mktemp -d)}"
plies="${PLIES:-20}" min_games="${MIN_GAMES:-10}" depth="${DEPTH:-26}" shards="${SHARDS:-2}"
(cd "$here" && cargo build --release --quiet)
mkdir -p "$work"
# One binary for every step: a rebuild while the shards run does not
# reach the merge.
cp "$here/target/release/reversi" "$work/reversi"
reversi="$work/reversi"
xz -dc "$games" > "$work/games.txt"
pids=()
for k in $(seq 1 "$shards"); do
    "$reversi" book build --games "$work/games.txt" --plies "$plies" --min-games "$min_games" \
        --depth "$depth" --shard "$k/$shards" --out "$work/part-$k.bin" &
    pids+=($!)
done
# Each shard's status: a failed one stops the script before the merge.
for pid in "${pids[@]}"; do
    wait "$pid"
done
"$reversi" book merge --out "$out" "$work"/part-*.bin
