#!/usr/bin/env bash
# Makes a simulated course for `reversi leaderboard`: COUNT programs (200
# by default) in FOLDER, a quarter of each kind:
#   - submissions built from source (FOLDER/submissions/<name>.c): the
#     referee's test program (tests/data/lab8/student.c), each scanning the
#     board for its move from another square;
#   - Lab 8 programs of the built-in players (FOLDER/programs.txt, one
#     NAME=lab8:... a line): random:<seed>, greedy, and norvig:1 and :2.
#   scripts/simulate-course.sh FOLDER [COUNT]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
folder=$1
count=${2:-200}
quarter=$((count / 4))
reversi=${REVERSI:-$here/target/release/reversi}
mkdir -p "$folder/submissions"
: > "$folder/programs.txt"
for k in $(seq 1 "$quarter"); do
    # The k-th variant starts its scan at square k.
    sed "s/for (int i = 0; i < n \* n; i++)/for (int j = 0, i = $k % (n * n); j < n * n; j++, i = (j + $k) % (n * n))/" \
        "$here/tests/data/lab8/student.c" > "$folder/submissions/student$k.c"
    echo "random$k=lab8:$reversi lab8 --player random:$k" >> "$folder/programs.txt"
    echo "greedy$k=lab8:$reversi lab8 --player greedy" >> "$folder/programs.txt"
    echo "norvig$k=lab8:$reversi lab8 --player norvig:$((1 + k % 2))" >> "$folder/programs.txt"
done
echo "$folder: $quarter submissions, $((3 * quarter)) programs in programs.txt"
