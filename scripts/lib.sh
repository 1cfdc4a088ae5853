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

# On macOS, Homebrew's keg-only formulae (icu4c, zlib) are not linked into its prefix, so
# pkg-config finds them only through PKG_CONFIG_PATH: each installed one's lib/pkgconfig is put in
# front of it (`brew --prefix FORMULA`), for pkg-config here and for the swift build after it.
# Without brew, or for a formula not installed, it does nothing.
brew_pkg_config_path() {
    command -v brew >/dev/null 2>&1 || return 0
    local formula prefix
    for formula in "$@"; do
        prefix=$(brew --prefix "$formula" 2>/dev/null) || continue
        [ -d "$prefix/lib/pkgconfig" ] || continue
        case ":${PKG_CONFIG_PATH:-}:" in *":$prefix/lib/pkgconfig:"*) ;; *)
            export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" ;;
        esac
    done
}

# libjemalloc-dev: the allocator the harness links and reads its counters from; zlib1g-dev: samples.csv.gz.
ensure_jemalloc() {
    brew_pkg_config_path zlib
    if pkg-config --exists jemalloc zlib 2>/dev/null; then return 0; fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing libjemalloc-dev and zlib1g-dev (and pkg-config)..." >&2
        as_root apt-get update -qq >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjemalloc-dev zlib1g-dev pkg-config >&2
    elif command -v brew >/dev/null 2>&1; then
        echo "installing jemalloc, zlib and pkg-config with Homebrew..." >&2
        brew install jemalloc zlib pkg-config >&2
        brew_pkg_config_path zlib
        pkg-config --exists jemalloc zlib || { echo "error: jemalloc or zlib is still missing (pkg-config jemalloc zlib)" >&2; return 1; }
    else
        echo "error: install jemalloc (libjemalloc-dev), zlib (zlib1g-dev) and pkg-config, then run again" >&2
        return 1
    fi
}

# Real text (docs/text.md): HarfBuzz, FreeType and ICU with their headers and pkg-config files,
# and the fonts labels may name (DejaVu for Latin and Cyrillic, WenQuanYi Micro Hei for CJK),
# found where FontLibrary looks: Debian's /usr/share/fonts (below it as Debian installs them),
# on macOS the Library/Fonts folders and Homebrew's share/fonts (directly in them).
font_folders() {
    if [ "$(uname -s)" = Darwin ]; then
        echo "$HOME/Library/Fonts" /Library/Fonts /System/Library/Fonts /System/Library/Fonts/Supplemental \
            /opt/homebrew/share/fonts /usr/local/share/fonts
    else
        echo /usr/share/fonts /usr/local/share/fonts
    fi
}
font_present() {
    local folder
    for folder in $(font_folders); do
        if [ -r "$folder/$1" ] || [ -r "$folder/${1##*/}" ]; then return 0; fi
    done
    return 1
}
text_fonts_present() {
    font_present truetype/dejavu/DejaVuSans.ttf && font_present truetype/dejavu/DejaVuSerif.ttf &&
        font_present truetype/wqy/wqy-microhei.ttc
}
# WenQuanYi Micro Hei has no Homebrew cask: on macOS the file Debian ships (fonts-wqy-microhei
# 0.2.0-beta-3.1, the one the Linux figures are measured on) is taken from Debian's .deb and
# checked by its SHA-256 before it goes into ~/Library/Fonts.
install_wqy_microhei_from_debian() {
    local work status=0
    work=$(mktemp -d)
    (
        cd "$work" &&
            curl -fsSL -o wqy.deb https://deb.debian.org/debian/pool/main/f/fonts-wqy-microhei/fonts-wqy-microhei_0.2.0-beta-3.1_all.deb &&
            ar -x wqy.deb && tar -xf data.tar.* ./usr/share/fonts/truetype/wqy/wqy-microhei.ttc &&
            [ "$(shasum -a 256 usr/share/fonts/truetype/wqy/wqy-microhei.ttc | cut -d' ' -f1)" = \
                2420e8078af796b19a3f6ef13de527a1a91c1e7171eea115926c614ced1009b3 ] &&
            mkdir -p "$HOME/Library/Fonts" && cp usr/share/fonts/truetype/wqy/wqy-microhei.ttc "$HOME/Library/Fonts/"
    ) || status=$?
    rm -rf "$work"
    [ $status = 0 ] || echo "error: could not install WenQuanYi Micro Hei from Debian's fonts-wqy-microhei: put wqy-microhei.ttc into ~/Library/Fonts or set LAYOUT_BENCH_FONT_DIRS" >&2
    return $status
}
ensure_text() {
    brew_pkg_config_path icu4c
    if pkg-config --exists harfbuzz freetype2 icu-uc 2>/dev/null && { [ -n "${LAYOUT_BENCH_FONT_DIRS:-}" ] || text_fonts_present; }; then
        return 0
    fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing HarfBuzz, FreeType, ICU and the fonts for real text..." >&2
        as_root apt-get update -qq >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            libharfbuzz-dev libfreetype-dev libicu-dev pkg-config fonts-dejavu-core fonts-wqy-microhei >&2
    elif command -v brew >/dev/null 2>&1; then
        echo "installing HarfBuzz, FreeType, ICU (icu4c, keg-only) and the fonts with Homebrew..." >&2
        brew install harfbuzz freetype icu4c pkg-config >&2
        brew_pkg_config_path icu4c
        if [ -z "${LAYOUT_BENCH_FONT_DIRS:-}" ]; then
            { font_present truetype/dejavu/DejaVuSans.ttf && font_present truetype/dejavu/DejaVuSerif.ttf; } ||
                brew install --cask font-dejavu >&2
            font_present truetype/wqy/wqy-microhei.ttc || install_wqy_microhei_from_debian || return 1
            text_fonts_present || { echo "error: DejaVu Sans, DejaVu Serif or WenQuanYi Micro Hei is still missing from $(font_folders)" >&2; return 1; }
        fi
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

# valgrind: callgrind for --instructions. Without apt (macOS, where valgrind does not run) it
# says so in one line and returns 1.
ensure_valgrind() {
    if command -v valgrind >/dev/null 2>&1; then return 0; fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: --instructions needs valgrind (callgrind), which runs on Linux, not on $(uname -s)" >&2
        return 1
    fi
    echo "installing valgrind for --instructions..." >&2
    as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >&2
}

# python3: the CLI tests, the script tests, compare-commits' merging, history's step detector.
ensure_python3() {
    if command -v python3 >/dev/null 2>&1; then return 0; fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing python3..." >&2
        as_root apt-get update -qq >&2 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >&2
    elif command -v brew >/dev/null 2>&1; then
        echo "installing python3 with Homebrew..." >&2
        brew install python >&2
    else
        echo "error: install python3, then run again" >&2
        return 1
    fi
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
