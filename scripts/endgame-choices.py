#!/usr/bin/env python3
"""How many discs an engine's moves give away near the end, judged exactly.

    scripts/endgame-choices.py harvest OUT.json LO HI RECORDS.ggf... [--max N]
    scripts/endgame-choices.py score IN.json [--movetime MS] [--env K=V]... [-- ENGINE...]

`harvest` takes every position with LO to HI empty squares (and at least
two legal moves) from GGF records (`reversi match --records`), keeps N of
them at random (seed 1) with `--max`, and solves every legal move of each
with `reversi solve`. `score` then asks a GTP engine (by default
`reversi gtp`) for a move in each position under a fixed time per move
and prints the discs its choices lose against the best move on average,
how many were not a best move, and how many turned a win, draw or loss
into another.

Unlike `exact-checkpoints.py`, which follows whole games, this replays the
same positions for every setting, so a change to the clock policy near
the end (when to hand over to the solver, selective solves) shows in
minutes. The harvest is the slow part: 160 positions at 23-26 empties
(1,659 moves) took 50 minutes on two threads. The binary is
target/release/reversi, or $REVERSI.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def flips(cells, sq, colour):
    """The squares a move of `colour` at `sq` flips (none: illegal)."""
    if cells[sq] != "-":
        return []
    other = "O" if colour == "X" else "X"
    x, y = sq % 8, sq // 8
    out = []
    for dx, dy in DIRECTIONS:
        i, j, line = x + dx, y + dy, []
        while 0 <= i < 8 and 0 <= j < 8 and cells[j * 8 + i] == other:
            line.append(j * 8 + i)
            i, j = i + dx, j + dy
        if line and 0 <= i < 8 and 0 <= j < 8 and cells[j * 8 + i] == colour:
            out += line
    return out


def legal(cells, colour):
    return [sq for sq in range(64) if flips(cells, sq, colour)]


def play(cells, sq, colour):
    after = list(cells)
    for k in flips(cells, sq, colour) + [sq]:
        after[k] = colour
    return after


def name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def binary():
    return os.environ.get("REVERSI") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "reversi"
    )


def positions(records):
    """Every position of every 8x8 game in `records`, with its mover."""
    for line in open(records):
        if not line.strip():
            continue
        if "TY[8]" not in line:
            sys.exit("records must be 8x8 games")
        cells = list("-" * 27 + "OX------XO" + "-" * 27)
        for colour, move in re.findall(r"\b([BW])\[([a-hA-H][1-8])\]", line):
            move = move.lower()
            mover = "X" if colour == "B" else "O"
            yield "".join(cells), mover
            sq = (int(move[1]) - 1) * 8 + ord(move[0]) - ord("a")
            if not flips(cells, sq, mover):
                sys.exit(f"illegal move {move} in a record")
            cells = play(cells, sq, mover)


def harvest(args):
    found = set()
    for records in args.records:
        for cells, mover in positions(records):
            if args.lo <= cells.count("-") <= args.hi and len(legal(cells, mover)) >= 2:
                found.add((cells, mover))
    keys = sorted(found)
    if args.max is not None and len(keys) > args.max:
        keys = random.Random(1).sample(keys, args.max)
    items, lines = [], []
    for cells, mover in keys:
        other = "O" if mover == "X" else "X"
        moves = []
        for sq in legal(cells, mover):
            after = play(cells, sq, mover)
            # After a pass the mover moves again: the child's score is
            # then the mover's own.
            side = other if legal(after, other) else mover
            moves.append((name(sq), side == mover))
            lines.append(f"{''.join(after)} {side};")
        items.append({"cells": cells, "mover": mover, "moves": moves})
    print(f"{len(items)} positions, {len(lines)} moves to solve", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "moves.obf")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        out = subprocess.run(
            [binary(), "solve", path, "--first", "1"], capture_output=True, text=True, check=True
        ).stdout
    values = [int(l.split()[3]) for l in out.splitlines() if re.match(r"\s*\d+\s+\d+\s+\S+\s+[+-]\d+", l)]
    if len(values) != len(lines):
        sys.exit(f"the solver answered {len(values)} of {len(lines)} positions")
    k = 0
    for item in items:
        scores = {}
        for move, own in item.pop("moves"):
            scores[move] = values[k] if own else -values[k]
            k += 1
        item["scores"] = scores
    with open(args.out, "w") as f:
        json.dump(items, f)


def score(args):
    items = json.load(open(args.positions))
    env = dict(os.environ, RUST_LOG="error")
    for kv in args.env:
        key, _, value = kv.partition("=")
        env[key] = value
    engine = args.engine or [binary(), "gtp"]
    proc = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def send(command):
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        reply = []
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"the engine ended after `{command}`")
            if not line.strip() and reply:
                break
            reply.append(line.strip())
        if not reply[0].startswith("="):
            sys.exit(f"`{command}`: {reply[0]}")
        return reply[0][1:].strip()

    def choose(item):
        send(f"setup {item['cells']} {item['mover']}")
        return send("genmove " + ("b" if item["mover"] == "X" else "w")).lower()

    send(f"set movetime {args.movetime}")
    # The first moves of a daemon map its table (protocol.md, "Time"):
    # they are played once before the counted ones.
    for item in items[:4]:
        choose(item)
    lost = not_best = changed = 0
    sign = lambda v: (v > 0) - (v < 0)
    for item in items:
        move = choose(item)
        best = max(item["scores"].values())
        got = item["scores"][move]
        lost += best - got
        not_best += got != best
        changed += sign(got) != sign(best)
    proc.stdin.close()
    proc.wait()
    n = len(items)
    print(f"{n} positions: {lost / n:.3f} discs lost a move, {not_best} not a best move, {changed} change the result")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    h = sub.add_parser("harvest")
    h.add_argument("out")
    h.add_argument("lo", type=int)
    h.add_argument("hi", type=int)
    h.add_argument("records", nargs="+")
    h.add_argument("--max", type=int)
    s = sub.add_parser("score")
    s.add_argument("positions")
    s.add_argument("--movetime", type=int, default=200)
    s.add_argument("--env", action="append", default=[])
    s.add_argument("engine", nargs="*")
    args = parser.parse_args()
    (harvest if args.command == "harvest" else score)(args)


if __name__ == "__main__":
    main()
