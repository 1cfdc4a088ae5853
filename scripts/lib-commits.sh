# Shared by scripts/build-commit, scripts/compare-commits, scripts/history and scripts/aa-compare:
# build any commit of this repository in its own git worktree and build folder, and this checkout's
# layout-bench. Sourced, not run; needs scripts/lib.sh first. Everything else the drivers do (rounds,
# duets, merging, shards, judging) is `layout-bench compare-commits` and `history` (BenchDriver).
#
# Worktrees live in .build-commits/<commit> (git ignores .build*), each with its own .build, so a
# commit is built once and reused. Remove them with: rm -rf .build-commits && git worktree prune

# Prints the full hash of REF, or fails with one clear line.
resolve_commit() {
    local ref=$1 sha
    if ! sha=$(git rev-parse --verify --quiet "$ref^{commit}"); then
        echo "error: '$ref' is not a commit of this repository (try a hash, a branch, a tag or HEAD~1)" >&2
        return 1
    fi
    echo "$sha"
}

# Every function of a commit's build starts on a 64-byte boundary. A change to one function then
# moves the code after it by whole cache lines, so the loops of functions it did not touch keep
# their alignment (and their speed): without it, a comparison with a few lines added to one module
# called rows 7-10% slower or faster that run none of the changed code. Both commits are built so.
COMMIT_BUILD_FLAGS=(-Xswiftc -Xllvm -Xswiftc -align-all-functions=6 -Xcc -falign-functions=64)

# Builds the layout-bench of commit SHA (release, COMMIT_BUILD_FLAGS) and prints the path of its
# binary. Progress and the build log go to stderr and .build-commits/<sha>.build.log.
#
# Interrupted (SIGINT, SIGTERM: the driver passes its interrupt on as SIGTERM), it stops the build
# and leaves no worktree half checked out: a worktree counts once .build-commits/<sha>.checkout
# says its checkout finished (or a finished build's stamp is in it), else it is made again; and a
# build stopped half way starts over where it stopped, without the stamp.
build_commit() {
    local sha=$1 root="$PWD/.build-commits"
    local tree="$root/$sha" log="$root/$sha.build.log" short
    short=$(git rev-parse --short "$sha")
    mkdir -p "$root"
    local binary="$tree/.build/release/layout-bench"
    local stamp="$tree/.build/.built-$sha-aligned"
    if [ ! -e "$tree/.git" ] || { [ ! -e "$root/$sha.checkout" ] && [ ! -e "$stamp" ]; }; then
        rm -f "$root/$sha.checkout"
        git worktree remove --force "$tree" >/dev/null 2>&1 || true
        rm -rf "$tree"
        git worktree prune
        git worktree add --detach --quiet "$tree" "$sha" >&2 || {
            echo "build-commit: cannot check out $short into $tree" >&2; return 1; }
        touch "$root/$sha.checkout"
    fi
    if [ ! -d "$tree/Sources/layout-bench" ] || [ ! -d "$tree/Scenarios" ]; then
        echo "build-commit: commit $short has no harness (no Sources/layout-bench or Scenarios/); pick a later commit" >&2
        git worktree remove --force "$tree" >/dev/null 2>&1 || true
        rm -f "$root/$sha.checkout"
        return 1
    fi
    if [ ! -x "$binary" ] || [ ! -e "$stamp" ]; then
        echo "building $short (release, functions aligned) in $tree ..." >&2
        # In the background, so that a signal runs the trap at once (bash runs it only after a
        # foreground command ends), which ends the build and the compilers it started.
        (cd "$tree" && exec swift build -c release --product layout-bench "${COMMIT_BUILD_FLAGS[@]}") >"$log" 2>&1 &
        local build=$!
        trap 'kill -TERM $(descendants '"$build"') '"$build"' 2>/dev/null; wait '"$build"' || true; exit 130' INT TERM
        local status=0
        wait "$build" || status=$?
        trap - INT TERM
        if [ "$status" != 0 ]; then
            echo "build-commit: commit $short does not build; the last lines of $log:" >&2
            tail -n 15 "$log" | sed 's/^/    /' >&2
            return 1
        fi
        touch "$stamp"
    fi
    echo "$binary"
}

# The processes below PID, the deepest first (a build's compilers, then what started them).
descendants() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do descendants "$child"; echo "$child"; done
}

# The layout-bench of this checkout (for `compare` and `steps`), built in release mode when needed.
current_tool() {
    if ! swift build -c release --product layout-bench >&2; then
        echo "error: this checkout does not build; run swift build and fix it first" >&2
        return 1
    fi
    echo "$PWD/.build/release/layout-bench"
}
