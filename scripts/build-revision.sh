# Sourced by the *-compare scripts and judge.sh: `build_working_tree_and
# "$rev"` builds the working tree and revision $rev, the latter in a
# temporary worktree (left in $base, removed on exit, from whichever
# directory the script is in by then) with its own target directory.
build_working_tree_and() {
    base=$(mktemp -d)
    repo_root=$(pwd)
    git worktree add --quiet --detach "$base" "$1"
    trap 'git -C "$repo_root" worktree remove --force "$base"' EXIT
    cargo build --release --quiet
    (cd "$base" && cargo build --release --quiet --target-dir "$base/target")
}
