#!/usr/bin/env bash
# Makes data/openings-8x8.txt, a balanced 8x8 opening suite for
# `reversi match --openings file:data/openings-8x8.txt`, from the WTHOR
# tournament games:
# 1. the first PLIES plies (8) of every game, turned by the symmetry of
#    the start position that makes the first move f5, so that the four
#    first moves' mirror images count as one opening;
# 2. those played in at least MIN_GAMES (3) games;
# 3. each searched by `strong` to DEPTH (14) plies: those within MAX_DISCS
#    (2) discs of even are kept, the most played first.
#   scripts/make-openings.sh [wthor games.txt.xz] [out file]
# Variables PLIES, MIN_GAMES, DEPTH and MAX_DISCS change the steps.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
games="${1:-$here/../shared/data/wthor/games.txt.xz}"
out="${2:-$here/data/openings-8x8.txt}"
(cd "$here" && cargo build --release --quiet)
PLIES="${PLIES:-8}" MIN_GAMES="${MIN_GAMES:-3}" DEPTH="${DEPTH:-14}" MAX_DISCS="${MAX_DISCS:-2}" \
    python3 - "$games" "$out" "$here/target/release/reversi" <<'EOF'
import collections, lzma, os, subprocess, sys

games, out, reversi = sys.argv[1:4]
plies, min_games = int(os.environ["PLIES"]), int(os.environ["MIN_GAMES"])
depth, max_discs = int(os.environ["DEPTH"]), float(os.environ["MAX_DISCS"])
COLUMNS = "abcdefgh"

def turned(move, k):
    """`move` under the k-th symmetry of the start position: the identity,
    the two diagonal reflections and the half turn."""
    c, r = COLUMNS.index(move[0]), int(move[1]) - 1
    r, c = [(r, c), (c, r), (7 - c, 7 - r), (7 - r, 7 - c)][k]
    return COLUMNS[c] + str(r + 1)

counts = collections.Counter()
total = 0
for line in lzma.open(games, "rt"):
    if line.startswith("#"):
        continue
    moves = line.split()[1]
    if len(moves) < 2 * plies:
        continue
    total += 1
    prefix = [moves[i:i + 2] for i in range(0, 2 * plies, 2)]
    k = next(k for k in range(4) if turned(prefix[0], k) == "f5")
    counts["".join(turned(m, k) for m in prefix)] += 1
common = [(n, o) for o, n in counts.items() if n >= min_games]
common.sort(key=lambda x: (-x[0], x[1]))

# Each opening's value for Black, from a search of the side to move's
# best move by the daemon (`analyze 1`), depth-limited.
daemon = subprocess.Popen([reversi, "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)

def ask(command):
    daemon.stdin.write(command + "\n")
    lines = []
    while True:
        line = daemon.stdout.readline()
        if line.strip() == "" and lines:
            return lines
        if line.strip():
            lines.append(line.strip())

ask(f"set depth {depth}")
ask("set movetime 600000")
kept = []
for n, opening in common:
    ask(f"loadgame {opening}")
    reply = ask("analyze 1")[0].lstrip("= ").split()
    value = float(reply[1])
    # Black moves after an even number of plies.
    black = value if plies % 2 == 0 else -value
    if abs(black) <= max_discs:
        kept.append((n, opening, black))
ask("quit")

with open(out, "w") as f:
    f.write(f"# {len(kept)} balanced 8x8 openings of {plies} plies, made by scripts/make-openings.sh\n")
    f.write(f"# from {total} WTHOR games: the {len(common)} openings (the first {plies} plies, up to\n")
    f.write(f"# the start's symmetry, first move f5) played in {min_games} games or more, kept\n")
    f.write(f"# where strong's search to {depth} plies gives Black {max_discs:g} discs or fewer\n")
    f.write("# either way. Each line: the moves, then the games that played it and the value.\n")
    for n, opening, black in kept:
        f.write(f"{opening} # {n} games, {black:+.2f}\n")
print(f"{out}: {len(kept)} of {len(common)} openings kept", file=sys.stderr)
EOF
