"""8x8 board helpers shared by the scripts that read `reversi match
--records` GGF files: cells are a string or list of 64 `X`/`O`/`-`, a1
first, row by row."""
import os
import re
import subprocess
import sys

DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
START = "-" * 27 + "OX------XO" + "-" * 27


def flips(cells, sq, colour):
    """The squares a move of `colour` (`X` or `O`) at `sq` flips; none
    when the move is illegal."""
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


def play(cells, sq, colour):
    """The cells after `colour`'s move at `sq` (a new list)."""
    after = list(cells)
    for k in flips(cells, sq, colour) + [sq]:
        after[k] = colour
    return after


def square(move):
    """The index of a move such as `f5`."""
    return (int(move[1]) - 1) * 8 + ord(move[0].lower()) - ord("a")


def record_moves(line):
    """A GGF record's moves as (mover, square) pairs, mover `X` for Black
    (a move's time, `B[f5//0.190]`, is left aside)."""
    return [
        ("X" if colour == "B" else "O", square(move))
        for colour, move in re.findall(r"\b([BW])\[([a-hA-H][1-8])(?://[^\]]*)?\]", line)
    ]


def replay(line):
    """Every position of a GGF record before each move, with the side to
    move, in order; exits on an illegal move."""
    cells = list(START)
    positions = []
    for mover, sq in record_moves(line):
        positions.append(("".join(cells), mover))
        if not flips(cells, sq, mover):
            sys.exit(f"illegal move {'abcdefgh'[sq % 8]}{sq // 8 + 1} in a record")
        cells = play(cells, sq, mover)
    return positions


def binary():
    """The engine binary: $REVERSI, or this checkout's release build."""
    return os.environ.get("REVERSI") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "reversi"
    )


def solve(path, threads=None):
    """The exact score of every position of the OBF file at `path`, for
    its side to move, in file order (`reversi solve`)."""
    command = [binary(), "solve", "--first", "1", path]
    if threads is not None:
        command[2:2] = ["--threads", str(threads)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    # The table's rows start with the position's number; the header and
    # the total line do not.
    return [int(l.split()[3]) for l in out.splitlines() if l.split()[:1] and l.split()[0].isdigit()]
