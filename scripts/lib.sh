# Shared by scripts/*: install what a fresh Debian machine lacks. Sourced, not run.

# Runs a command as root (directly, or through sudo when available).
as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        echo "error: '$*' needs root; install it by hand" >&2; return 1; fi
}

# libjemalloc-dev: the allocator the harness links and reads its counters from; zlib1g-dev: samples.csv.gz.
ensure_jemalloc() {
    if pkg-config --exists jemalloc zlib 2>/dev/null; then return 0; fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing libjemalloc-dev and zlib1g-dev (and pkg-config)..." >&2
        as_root apt-get update -qq >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjemalloc-dev zlib1g-dev pkg-config >&2
    elif command -v brew >/dev/null 2>&1; then
        brew install jemalloc zlib pkg-config >&2
    else
        echo "error: install jemalloc (libjemalloc-dev), zlib (zlib1g-dev) and pkg-config, then run again" >&2
        return 1
    fi
}

# swift must be on PATH (it is at /opt/swift/usr/bin on the project's machines).
ensure_swift() {
    if command -v swift >/dev/null 2>&1; then return 0; fi
    if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; return 0; fi
    echo "error: swift 6 is not on PATH; install a Swift 6 toolchain from swift.org" >&2
    return 1
}

# valgrind: callgrind for --instructions.
ensure_valgrind() {
    if command -v valgrind >/dev/null 2>&1; then return 0; fi
    echo "installing valgrind for --instructions..." >&2
    as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >&2
}

# python3: the CLI tests, the script tests, compare-commits' merging, history's step detector.
ensure_python3() {
    if command -v python3 >/dev/null 2>&1; then return 0; fi
    echo "installing python3..." >&2
    as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >&2
}
