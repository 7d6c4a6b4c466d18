#!/usr/bin/env bash
# Build times a contributor meets, at one revision, on a fresh checkout:
#   1. `cargo run --release -- build` (the README's first command: the compile, then the
#      build itself, which stops at once without network);
#   2. `cargo test --release` (the README's second command);
#   3. `cargo build --release` after touching one analyzer file;
#   4. `cargo build --release` after touching one render file.
#
#   bench/build_times.sh REV ANALYZER_FILE RENDER_FILE
#
# The checkout is a git worktree in a new temporary folder (its own empty target folder;
# the crates.io sources already downloaded are reused), removed at the end. HOME is a
# temporary folder for every command. Prints one line per step: seconds of wall time.
set -euo pipefail
rev=$1 analyzer=$2 render=$3
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
home=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf -- "$home"' EXIT
git -C "$repo" worktree add --detach "$work/tree" "$rev" >/dev/null 2>&1
cd "$work/tree"
export HOME=$home CARGO_HOME=${CARGO_HOME:-/root/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-/root/.rustup}
step() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/$name.log" 2>&1 || true
  end=$(date +%s.%N)
  printf '%s %s %.0f s\n' "$rev" "$name" "$(echo "$end - $start" | bc)"
}
step run-build cargo run --release -- build
step test cargo test --release
touch "$analyzer"
step touch-analyzer cargo build --release
touch "$render"
step touch-render cargo build --release
grep -h "^test result" "$work/test.log" | awk '{p+=$4; f+=$6; i+=$8} END {print "'"$rev"' tests: " p " passed, " f " failed, " i " ignored"}'
