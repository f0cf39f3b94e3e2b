#!/usr/bin/env python3
"""Makes an evaluation-accuracy suite for `reversi evaltest`: positions
from WTHOR games with every legal move scored by our own engine (GTP
`analyze` with the book off), as OBF lines (`<cells> <side>; f5:+4; ...`,
scores rounded to whole discs).

    scripts/make-evaltest.py --empties 20-26 --count 300 --depth 60 \\
        --out data/evaltest/wthor-exact-20-26.obf
    scripts/make-evaltest.py --empties 30-40 --count 200 --depth 16 \\
        --out data/evaltest/wthor-depth16-30-40.obf

With --depth 60 every score is exact (the solver's); a shallower depth
labels each move by a search that deep. The games are drawn from
`--seed` (one position a game, its number of empties drawn in the range);
the positions are scored on `--jobs` engines at once. The same command
writes the same file.
"""
import argparse
import lzma
import os
import random
import subprocess
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from othello import START, binary, flips, play, square  # noqa: E402


def positions(games_path, lo, hi, count, seed):
    """(cells, side, moves played) for `count` games drawn from the file."""
    with lzma.open(games_path, "rt") as f:
        games = [l.split()[1] for l in f if l[:1].isdigit()]
    rng = random.Random(seed)
    out = []
    for line in rng.sample(games, len(games)):
        moves = [line[i:i + 2] for i in range(0, len(line), 2)]
        want = rng.randint(lo, hi)
        cells, side, played = list(START), "X", []
        for mv in moves:
            if 60 - len(played) == want:
                break
            if not flips(cells, square(mv), side):
                side = "O" if side == "X" else "X"
            cells = play(cells, square(mv), side)
            side = "O" if side == "X" else "X"
            played.append(mv)
        if 60 - len(played) != want:
            continue
        # The side to move must have a move (a pass is no test).
        if not any(flips(cells, k, side) for k in range(64)):
            continue
        out.append(("".join(cells), side, "".join(played)))
        if len(out) == count:
            break
    return out


def score(job):
    """Every legal move's score for one position, by `analyze`."""
    (cells, side, played), depth = job
    engine = subprocess.Popen(
        [binary(), "gtp", "--book", "off", "--hash", "256"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(command):
        # One command, its reply read whole before the next is sent: a
        # `quit` already waiting would stop the search.
        engine.stdin.write(command + "\n")
        engine.stdin.flush()
        lines = []
        while (line := engine.stdout.readline()) not in ("\n", ""):
            lines.append(line)
        if not lines or not lines[0].startswith("="):
            sys.exit(f"the engine answered {command!r} with {lines}")
        return [l.lstrip("= ").split() for l in lines]

    for command in [f"set depth {depth}", "set movetime 1000000000", f"loadgame {played}"]:
        ask(command)
    scored = [(m, round(float(s))) for m, s, *_ in ask("analyze")]
    ask("quit")
    engine.wait()
    return cells, side, scored


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "wthor", "games.txt.xz"))
    ap.add_argument("--empties", required=True, help="LO-HI")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--depth", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    lo, hi = map(int, args.empties.split("-"))
    chosen = positions(args.games, lo, hi, args.count, args.seed)
    with Pool(args.jobs) as pool:
        scored = pool.map(score, [(p, args.depth) for p in chosen], chunksize=1)
    kind = "exact scores" if args.depth >= hi else f"scores of a {args.depth}-ply search"
    tmp = args.out + ".partial"
    with open(tmp, "w") as f:
        f.write(f"% {len(scored)} WTHOR positions of {lo}-{hi} empties, every move with its {kind}\n")
        f.write(f"% (scripts/make-evaltest.py --empties {args.empties} --count {args.count} "
                f"--depth {args.depth} --seed {args.seed})\n")
        for cells, side, moves in scored:
            f.write(f"{cells} {side};" + "".join(f" {m.upper()}:{s:+d};" for m, s in moves) + "\n")
    os.replace(tmp, args.out)
    print(f"{len(scored)} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
