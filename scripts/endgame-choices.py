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

Unlike `reversi analyze`, which follows whole games, this replays the
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
import subprocess
import sys
import tempfile

from othello import binary, flips, play, replay, solve


def legal(cells, colour):
    return [sq for sq in range(64) if flips(cells, sq, colour)]


def name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def positions(records):
    """Every position of every 8x8 game in `records`, with its mover."""
    for line in open(records):
        if not line.strip():
            continue
        if "TY[8]" not in line:
            sys.exit("records must be 8x8 games")
        yield from replay(line)


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
        values = solve(path)
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
    # Discs lost and positions, by what the position is worth with best
    # play: a fix for one kind (say, lost positions) shows where it acts.
    by_outcome = {outcome: [0, 0] for outcome in ("won", "drawn", "lost")}
    for item in items:
        move = choose(item)
        best = max(item["scores"].values())
        got = item["scores"][move]
        lost += best - got
        not_best += got != best
        changed += sign(got) != sign(best)
        tally = by_outcome[("lost", "drawn", "won")[sign(best) + 1]]
        tally[0] += best - got
        tally[1] += 1
    proc.stdin.close()
    proc.wait()
    n = len(items)
    print(f"{n} positions: {lost / n:.3f} discs lost a move, {not_best} not a best move, {changed} change the result")
    print("  " + ", ".join(f"{k} {v[1]}: {v[0] / max(v[1], 1):.3f}" for k, v in by_outcome.items()))


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
