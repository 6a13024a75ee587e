#!/usr/bin/env bash
# Builds the C engine and tests/c/test_engine.c (and three_thirteen/test_three_thirteen.c, test_meld.c,
# test_ismcts.c, test_vector.c) with AddressSanitizer and
# UndefinedBehaviorSanitizer in a fresh build directory and runs the test
# program, split into two processes that run in parallel.
#
# Usage (from the repository root):  bash tests/c/run_sanitizers.sh
# Needs gcc (or clang) and cmake >= 3.15 on PATH (`pip install cmake` will do).
# Environment: BUILD_DIR (default build/sanitize), PARTS (default 2),
# TEST_ARGS (extra arguments for the test program, e.g. "--scale 0.1").
# Exits non-zero if the build fails, any check fails, or any sanitizer
# report appears.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

BUILD_DIR="${BUILD_DIR:-build/sanitize}"
PARTS="${PARTS:-2}"
TEST_ARGS="${TEST_ARGS:-}"

if ! command -v cmake >/dev/null 2>&1; then
  echo "run_sanitizers.sh: cmake not found on PATH (try: python3 -m pip install cmake)" >&2
  exit 2
fi

start=$(date +%s)
rm -rf "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DTHREES_BUILD_C_TESTS=ON -DTHREES_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build "$BUILD_DIR" --target threes_engine_test threes_three_thirteen_test threes_meld_test threes_ismcts_test \
  threes_vector_test --parallel 2

exe="$BUILD_DIR/threes_engine_test"
if [[ ! -x "$exe" ]]; then
  echo "run_sanitizers.sh: $exe was not built" >&2
  exit 2
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

logs="$BUILD_DIR/logs"
mkdir -p "$logs"
pids=()
for ((k = 0; k < PARTS; k++)); do
  # shellcheck disable=SC2086 # TEST_ARGS is meant to split into words
  "$exe" --part "$k/$PARTS" $TEST_ARGS >"$logs/part$k.out" 2>"$logs/part$k.err" &
  pids+=("$!")
done

status=0
for ((k = 0; k < PARTS; k++)); do
  rc=0
  wait "${pids[$k]}" || rc=$?
  echo "==================== part $k/$PARTS (exit code $rc) ===================="
  cat "$logs/part$k.out"
  if [[ -s "$logs/part$k.err" ]]; then
    echo "---- stderr of part $k ----"
    cat "$logs/part$k.err"
  fi
  if [[ $rc -ne 0 ]]; then
    status=1
  fi
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)" \
    "$logs/part$k.err"; then
    echo "part $k: sanitizer report(s) above" >&2
    status=1
  fi
  if ! grep -qE "^[0-9]+ passed, [0-9]+ failed$" "$logs/part$k.out"; then
    echo "part $k: no final 'N passed, M failed' line (crashed?)" >&2
    status=1
  fi
done

# The Three Thirteen meld solver against its brute force (tests/c/test_meld.c).
meld_rc=0
"$BUILD_DIR/threes_meld_test" --hands "${MELD_HANDS:-6000}" --big "${MELD_BIG:-100}" --timing 0 \
  >"$logs/meld.out" 2>"$logs/meld.err" || meld_rc=$?
echo "==================== meld solver (exit code $meld_rc) ===================="
tail -n 15 "$logs/meld.out"
if [[ -s "$logs/meld.err" ]]; then cat "$logs/meld.err"; fi
if [[ $meld_rc -ne 0 ]] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$logs/meld.err"; then
  echo "meld solver test: FAILED" >&2
  status=1
fi

# One more test program ($2 and on: the program and its arguments), named $1:
# its output's tail, and a failure on a nonzero exit or a sanitizer report.
run_program() {
  local name=$1 rc=0
  shift
  "$@" >"$logs/$name.out" 2>"$logs/$name.err" || rc=$?
  echo "==================== $name (exit code $rc) ===================="
  tail -n 15 "$logs/$name.out"
  if [[ -s "$logs/$name.err" ]]; then cat "$logs/$name.err"; fi
  if [[ $rc -ne 0 ]] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$logs/$name.err"; then
    echo "$name test: FAILED" >&2
    status=1
  fi
}

# Three Thirteen's own units (tests/c/three_thirteen/test_three_thirteen.c).
run_program three_thirteen "$BUILD_DIR/threes_three_thirteen_test"

# The generic ISMCTS on Three Thirteen (tests/c/test_ismcts.c).
run_program ismcts "$BUILD_DIR/threes_ismcts_test" --games "${ISMCTS_GAMES:-40}"

# The vector environments on both games (tests/c/test_vector.c).
run_program vector "$BUILD_DIR/threes_vector_test" --steps "${VECTOR_STEPS:-1000}"

# The vector envs' thread pool under ThreadSanitizer: the differential runs
# (1 and 2 threads) and a benchmark loop on 2 threads (many pool runs).
tsan_exe="$BUILD_DIR/threes_vector_test_tsan"
"${CC:-cc}" -std=c11 -O1 -g -fsanitize=thread -Isrc/threes_core -Itests/c tests/c/test_vector.c \
  src/threes_core/common/*.c src/threes_core/shithead/*.c src/threes_core/three_thirteen/*.c \
  -lpthread -lm -o "$tsan_exe"
for args in "--steps 1000" "--bench 64 --threads 2"; do
  # shellcheck disable=SC2086
  if ! TSAN_OPTIONS=halt_on_error=1 "$tsan_exe" $args > "$logs/tsan.out" 2> "$logs/tsan.err" ||
    grep -q "ThreadSanitizer" "$logs/tsan.err"; then
    cat "$logs/tsan.out" "$logs/tsan.err"
    echo "vector test under ThreadSanitizer ($args): FAILED" >&2
    status=1
  else
    echo "vector test under ThreadSanitizer ($args): $(tail -n 1 "$logs/tsan.out")"
  fi
done

sum_field() { # sums the first number after $1 over the parts' outputs
  cat "$logs"/part*.out | sed -n "s/^$1\([0-9][0-9]*\).*/\1/p" | awk '{s += $1} END {print s + 0}'
}
games=$(sum_field "games played: ")
normal=$(sum_field "games ended normally: ")
truncated=$(cat "$logs"/part*.out | sed -n 's/.*truncated at the move cap: \([0-9][0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}')
checks=$(sum_field "checks: ")
passed=$(cat "$logs"/part*.out | sed -n 's/^\([0-9][0-9]*\) passed, [0-9][0-9]* failed$/\1/p' | awk '{s += $1} END {print s + 0}')
failed=$(cat "$logs"/part*.out | sed -n 's/^[0-9][0-9]* passed, \([0-9][0-9]*\) failed$/\1/p' | awk '{s += $1} END {print s + 0}')
end=$(date +%s)

echo "===================================================================="
echo "games played: $games over $PARTS parts ($normal ended normally, $truncated truncated at the move cap)"
echo "checks: $checks"
echo "units: $passed passed, $failed failed"
echo "time: $((end - start)) s (build and run)"
if [[ $status -ne 0 ]]; then
  echo "run_sanitizers.sh: FAILED" >&2
  exit 1
fi
echo "run_sanitizers.sh: all passed"
