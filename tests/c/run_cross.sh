#!/usr/bin/env bash
# Portable C, checked: the C core and its C test programs built
#   1. natively with gcc and with clang, -Wall -Wextra -Wpedantic -std=c11
#      -Werror (no warning allowed),
#   2. with -DTHREES_NO_SIMD (the portable code paths on x86-64),
#   3. cross-compiled for aarch64 (gcc-aarch64-linux-gnu) and run under
#      qemu-user,
#   4. cross-compiled for Windows with mingw-w64 (Win32 threads) and run
#      under wine,
# every build's tests/c/checksums.c output compared with the native gcc
# build's: the same seed gives the same game on every platform and with or
# without SIMD. The test programs run at a reduced scale under emulation.
#
# Usage (from the repository root):  bash tests/c/run_cross.sh
# Installs what is missing with apt-get (CI runs as root): clang,
# gcc-aarch64-linux-gnu, qemu-user, gcc-mingw-w64-x86-64, wine64.
# Environment: BUILD_ROOT (default build/cross), GAMES (checksums per
# configuration, default 200). Exits non-zero on any failure. The full-size
# C tests run natively under the sanitizers (run_sanitizers.sh); here each
# build runs them at a reduced scale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT="${BUILD_ROOT:-build/cross}"
GAMES="${GAMES:-200}"
TESTS=(threes_engine_test threes_three_thirteen_test threes_meld_test threes_ismcts_test threes_vector_test threes_checksums)

need=()
command -v clang >/dev/null || need+=(clang)
command -v file >/dev/null || need+=(file)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
find_wine() { command -v wine64 || command -v wine || { [[ -x /usr/lib/wine/wine64 ]] && echo /usr/lib/wine/wine64; } || true; }
[[ -n "$(find_wine)" ]] || need+=(wine64)
if ((${#need[@]})); then
  echo "run_cross.sh: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
command -v cmake >/dev/null || { echo "run_cross.sh: cmake not found (pip install cmake)" >&2; exit 2; }

build() { # name, cmake arguments...
  local name=$1; shift
  rm -rf "$ROOT/$name"
  cmake -S . -B "$ROOT/$name" -DTHREES_BUILD_C_TESTS=ON -DTHREES_WERROR=ON -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$ROOT/$name" --target "${TESTS[@]}" --parallel 2 >"$ROOT/$name.log" 2>&1 ||
    { cat "$ROOT/$name.log"; echo "run_cross.sh: the $name build failed" >&2; exit 1; }
  if grep -q "warning:" "$ROOT/$name.log"; then
    grep "warning:" "$ROOT/$name.log"; echo "run_cross.sh: the $name build has warnings" >&2; exit 1
  fi
  echo "built: $name"
}

run_tests() { # name, runner... (the C test programs at a reduced scale)
  local name=$1 dir=$ROOT/$1 ext=${EXT:-}; shift
  "$@" "$dir/threes_engine_test$ext" --scale "${SCALE:-0.05}" --quiet >"$ROOT/$name.engine.log" 2>&1 ||
    { tail -30 "$ROOT/$name.engine.log"; echo "run_cross.sh: threes_engine_test failed on $name" >&2; exit 1; }
  "$@" "$dir/threes_three_thirteen_test$ext" --scale "${SCALE:-0.05}" --quiet >"$ROOT/$name.three_thirteen.log" 2>&1 ||
    { tail -30 "$ROOT/$name.three_thirteen.log"; echo "run_cross.sh: threes_three_thirteen_test failed on $name" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$@" "$dir/threes_meld_test$ext" ${MELD_ARGS:---hands 2000 --big 20 --drop 300 --timing 0} >"$ROOT/$name.meld.log" 2>&1 ||
    { tail -30 "$ROOT/$name.meld.log"; echo "run_cross.sh: threes_meld_test failed on $name" >&2; exit 1; }
  "$@" "$dir/threes_ismcts_test$ext" >"$ROOT/$name.ismcts.log" 2>&1 ||
    { tail -30 "$ROOT/$name.ismcts.log"; echo "run_cross.sh: threes_ismcts_test failed on $name" >&2; exit 1; }
  "$@" "$dir/threes_vector_test$ext" --steps 1000 >"$ROOT/$name.vector.log" 2>&1 ||
    { tail -30 "$ROOT/$name.vector.log"; echo "run_cross.sh: threes_vector_test failed on $name" >&2; exit 1; }
  echo "tests passed: $name ($(tail -1 "$ROOT/$name.engine.log" | tr -d '\r'); ${SECONDS} s so far)"
}

checksums() { # name, runner...
  local name=$1 dir=$ROOT/$1 ext=${EXT:-}; shift
  "$@" "$dir/threes_checksums$ext" "$GAMES" | tr -d '\r' >"$ROOT/$name.checksums"
  if [[ $name != gcc ]]; then
    if ! diff -u "$ROOT/gcc.checksums" "$ROOT/$name.checksums"; then
      echo "run_cross.sh: $name plays different games from the native gcc build" >&2; exit 1
    fi
  fi
  echo "checksums: $name = gcc ($(wc -l <"$ROOT/$name.checksums") configurations, $(md5sum <"$ROOT/$name.checksums" | cut -c1-12))"
}

SECONDS=0
mkdir -p "$ROOT"
build gcc -DCMAKE_C_COMPILER=gcc
SCALE=0.1 run_tests gcc
checksums gcc

build clang -DCMAKE_C_COMPILER=clang
SCALE=0.1 run_tests clang
checksums clang

build no-simd -DCMAKE_C_COMPILER=gcc -DTHREES_NO_SIMD=ON
SCALE=0.1 run_tests no-simd
checksums no-simd

build aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
[[ $(file "$ROOT/aarch64/threes_checksums") == *"ARM aarch64"* ]] || { echo "run_cross.sh: not an aarch64 binary" >&2; exit 1; }
SCALE=0.02 run_tests aarch64 qemu-aarch64 -L /usr/aarch64-linux-gnu
checksums aarch64 qemu-aarch64 -L /usr/aarch64-linux-gnu

build mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake
[[ $(file "$ROOT/mingw/threes_checksums.exe") == *"PE32+"* ]] || { echo "run_cross.sh: not a Windows binary" >&2; exit 1; }
WINE=$(find_wine)
[[ -n $WINE ]] || { echo "run_cross.sh: no wine found after installing wine64" >&2; exit 1; }
# wine's prefix outside the checkout: its dosdevices/z: links to /, which a
# tool walking the tree (the sdist's file list) would follow
if [[ -z ${WINEPREFIX:-} ]]; then
  wine_home=$(mktemp -d)
  # the wineserver may still write into the prefix when the tests end: stop
  # it first, then remove the prefix (a few tries; a leftover in /tmp is no
  # failure of the builds)
  cleanup_wine() {
    local ws
    ws=$(command -v wineserver || command -v wineserver64 || ls /usr/lib/wine/wineserver* 2>/dev/null | head -n 1)
    [[ -n $ws ]] && WINEPREFIX=$wine_home/wine "$ws" -k >/dev/null 2>&1
    for _ in 1 2 3 4 5; do
      rm -rf "$wine_home" 2>/dev/null && return 0
      sleep 1
    done
    echo "run_cross.sh: could not remove $wine_home (left behind)" >&2
    return 0
  }
  trap cleanup_wine EXIT
  WINEPREFIX=$wine_home/wine
fi
export WINEPREFIX WINEDEBUG=-all
SCALE=0.05 EXT=.exe run_tests mingw timeout 600 "$WINE"
EXT=.exe checksums mingw timeout 600 "$WINE"
echo "run_cross.sh: gcc, clang, no-simd, aarch64 (qemu) and mingw (wine) builds agree"
