#!/usr/bin/env python3
"""Where a match is won and lost, judged by the exact solver.

    scripts/exact-checkpoints.py <records.ggf> <player> <empties>...

Reads the GGF records `reversi match --records` writes and solves each
game's position at every checkpoint (the first position with at most that
many empties) with `reversi solve --threads 1`. Then it prints, for
`player` (the name in PB/PW, e.g. `strong`), the wins, draws and losses
that perfect play from each checkpoint would give, and the discs each
side gave away between consecutive checkpoints and the end.

A search's own score is no judge here: an engine over-values the
positions its own moves chose, so all of its loss shows up where its
judge turns exact. Keep checkpoints at 28 empties or fewer (a 26-empty
solve takes 1-40 s on one thread). The binary is target/release/reversi,
or $REVERSI.
"""
import os
import re
import sys
import tempfile

import othello


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    records, player = sys.argv[1], sys.argv[2]
    checkpoints = sorted({int(e) for e in sys.argv[3:]}, reverse=True)
    games = []  # (player's colour, final result for Black, {empties: (cells, mover)})
    for line in open(records):
        if not line.strip():
            continue
        tags = dict(re.findall(r"(PB|PW|RE|TY)\[([^\]]*)\]", line))
        if tags.get("TY") != "8" or player not in (tags["PB"], tags["PW"]):
            sys.exit("records must be 8x8 games in which the player plays")
        at = {}
        for cells, mover in othello.replay(line):
            for e in checkpoints:
                if e not in at and cells.count("-") <= e:
                    at[e] = (cells, mover)
        us = "X" if tags["PB"] == player else "O"
        games.append((us, int(tags["RE"]), at))

    values = []  # per checkpoint, the exact value for the player (None: game ended before it)
    with tempfile.TemporaryDirectory() as tmp:
        for e in checkpoints:
            positions = [g[2].get(e) for g in games]
            path = os.path.join(tmp, f"at{e}.obf")
            with open(path, "w") as f:
                for p in filter(None, positions):
                    f.write(f"{p[0]} {p[1]} ; a1:+0;\n")
            scores = iter(othello.solve(path, threads=1))
            column = []
            for (us, _, _), p in zip(games, positions):
                column.append(None if p is None else next(scores) * (1 if p[1] == us else -1))
            values.append(column)
    final = [res if us == "X" else -res for us, res, _ in games]
    values.append(final)
    names = [f"{e} empties" for e in checkpoints] + ["final result"]

    print(f"{len(games)} games of {player}")
    print("point          W-D-L       score")
    for name, column in zip(names, values):
        known = [v for v in column if v is not None]
        w, d, l = (sum(v > 0 for v in known), sum(v == 0 for v in known), sum(v < 0 for v in known))
        print(f"{name:14} {w:3}-{d}-{l:<6} {(w + d / 2) / len(known):6.1%}  ({len(known)} games)")
    print("stretch                      player lost   opponent lost   (discs a game)")
    for k in range(len(names) - 1):
        pairs = [(a, b) for a, b in zip(values[k], values[k + 1]) if a is not None and b is not None]
        ours = sum(a - b for a, b in pairs if b < a) / max(len(pairs), 1)
        theirs = sum(b - a for a, b in pairs if b > a) / max(len(pairs), 1)
        print(f"{names[k]} -> {names[k + 1]:14} {ours:8.2f} {theirs:15.2f}")


if __name__ == "__main__":
    main()
