# Sourced by the *-compare scripts: `build_working_tree_and "$rev"` builds
# the working tree and revision $rev, the latter in a temporary worktree
# (left in $base, removed on exit) with its own target directory.
build_working_tree_and() {
    base=$(mktemp -d)
    git worktree add --quiet --detach "$base" "$1"
    trap 'git worktree remove --force "$base"' EXIT
    cargo build --release --quiet
    (cd "$base" && cargo build --release --quiet --target-dir "$base/target")
}
