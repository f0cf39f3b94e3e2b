#!/usr/bin/env bash
# Submits a leaderboard to Slurm as four jobs, each waiting for the one
# before: the submissions' build, an array of SHARDS tasks for the
# qualification, one for the finals, and the standings. The folder (--out)
# must be on a file system every node sees. Prints the four job ids.
#   scripts/leaderboard-slurm.sh SHARDS LEADERBOARD-ARGS...
# e.g., with one program a line in programs.txt:
#   mapfile -t programs < programs.txt
#   scripts/leaderboard-slurm.sh 8 --submissions subs --out "$PWD/board" "${programs[@]}"
set -euo pipefail
shards=$1
shift
step="$(cd "$(dirname "$0")" && pwd)/leaderboard.sbatch"
after=()
if printf '%s\n' "$@" | grep -qx -- --submissions; then
    build=$(sbatch --parsable --job-name=lb-build "$step" "$@" --build-only)
    after=(--dependency="afterok:$build")
fi
qualify=$(sbatch --parsable "${after[@]}" --array="1-$shards" --job-name=lb-qualify "$step" "$@")
final=$(sbatch --parsable --dependency="afterok:$qualify" --array="1-$shards" --job-name=lb-final "$step" "$@")
standings=$(sbatch --parsable --dependency="afterok:$final" --job-name=lb-standings "$step" "$@")
echo "${build:-} $qualify $final $standings"
