# Shared by scripts/*: install what a fresh Debian machine lacks. Sourced, not run.

# Runs a command and says on stderr how long it took ("time: LABEL N s"), so that a log of
# scripts/test or .ci/run shows where its minutes go. Usage: timed LABEL COMMAND [ARGUMENT ...]
timed() {
    local label=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    echo "time: $label $((SECONDS - start)) s" >&2
    return $status
}

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

# Real text (docs/text.md): HarfBuzz, FreeType and ICU with their headers and pkg-config files,
# and the fonts labels may name (DejaVu for Latin and Cyrillic, WenQuanYi Micro Hei for CJK).
text_fonts_present() {
    [ -r /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && [ -r /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] &&
        [ -r /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]
}
ensure_text() {
    if pkg-config --exists harfbuzz freetype2 icu-uc 2>/dev/null && { [ -n "${LAYOUT_BENCH_FONT_DIRS:-}" ] || text_fonts_present; }; then
        return 0
    fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing HarfBuzz, FreeType, ICU and the fonts for real text..." >&2
        as_root apt-get update -qq >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            libharfbuzz-dev libfreetype-dev libicu-dev pkg-config fonts-dejavu-core fonts-wqy-microhei >&2
    elif command -v brew >/dev/null 2>&1; then
        brew install harfbuzz freetype icu4c pkg-config >&2
        echo "note: set LAYOUT_BENCH_FONT_DIRS to a directory holding truetype/dejavu/DejaVuSans.ttf, DejaVuSerif.ttf and truetype/wqy/wqy-microhei.ttc" >&2
    else
        echo "error: install HarfBuzz (libharfbuzz-dev), FreeType (libfreetype-dev), ICU (libicu-dev) and the fonts fonts-dejavu-core and fonts-wqy-microhei, then run again" >&2
        return 1
    fi
    pkg-config --exists harfbuzz freetype2 icu-uc || { echo "error: HarfBuzz, FreeType or ICU is still missing (pkg-config harfbuzz freetype2 icu-uc)" >&2; return 1; }
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

# scipy (linprog with HiGHS), numpy and kiwisolver: the template oracles (Tests/Oracle); uharfbuzz
# and PyICU: the text oracle (PyICU builds against libicu-dev, so ensure_text comes first). Sets
# ORACLE_PYTHON to a python3 that has them: python3 itself when it has them or pip installs them
# there; otherwise a virtual environment, .build-oracle/venv, when pip refuses the system Python
# (PEP 668, Debian) or python3 has no pip.
oracle_python_ok() {
    "$1" -c 'import numpy, kiwisolver, uharfbuzz, icu; from scipy.optimize import linprog
assert linprog([1.0], bounds=[(2.0, None)], method="highs").status == 0' >/dev/null 2>&1
}
ensure_oracle_python() {
    ensure_python3
    ORACLE_PYTHON=python3
    if oracle_python_ok python3; then return 0; fi
    local venv
    venv="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build-oracle/venv"
    ORACLE_PYTHON="$venv/bin/python"
    if oracle_python_ok "$ORACLE_PYTHON"; then return 0; fi
    echo "installing scipy, numpy, kiwisolver, uharfbuzz and PyICU for the template and text oracles..." >&2
    # PyICU has no binary wheel: pip builds it against libicu-dev with a C++ compiler and Python's headers.
    if command -v apt-get >/dev/null 2>&1 &&
        ! { command -v g++ >/dev/null 2>&1 && python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' &&
            pkg-config --exists icu-uc 2>/dev/null; }; then
        as_root apt-get update -qq >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ python3-dev libicu-dev pkg-config >&2
    fi
    if python3 -m pip --version >/dev/null 2>&1 &&
        python3 -m pip install --quiet --disable-pip-version-check scipy numpy kiwisolver uharfbuzz PyICU >/dev/null 2>&1 &&
        oracle_python_ok python3; then
        ORACLE_PYTHON=python3
        return 0
    fi
    echo "pip cannot install into python3; using a virtual environment, $venv" >&2
    if ! python3 -c "import ensurepip" >/dev/null 2>&1; then
        as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    fi
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check scipy numpy kiwisolver uharfbuzz PyICU >&2 || {
        echo "error: could not install scipy, numpy, kiwisolver, uharfbuzz and PyICU (pip install into $venv failed)" >&2; return 1; }
    oracle_python_ok "$ORACLE_PYTHON" || {
        echo "error: $ORACLE_PYTHON lacks a working scipy (linprog, HiGHS), numpy, kiwisolver, uharfbuzz or PyICU" >&2; return 1; }
}
