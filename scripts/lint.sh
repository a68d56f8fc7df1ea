#!/usr/bin/env bash
# Static checks on our own code (never third-party): clang-format (.clang-format) and
# clang-tidy (.clang-tidy) over src/, include/, apps/, tests/, bench/ and fuzz/. Fails on any
# formatting difference or tidy warning. clang-tidy reads the compile commands of a
# configured build (default build/, from `cmake --preset release`).
#   scripts/lint.sh [BUILD_DIR]        about 10 minutes on 2 cores; --format-only: seconds
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
FORMAT_ONLY=0
if [ "${1:-}" = "--format-only" ]; then FORMAT_ONLY=1; shift; fi
BUILD=${1:-build}
mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.h' 'include/*.h' 'apps/*.cpp' 'apps/*.h' \
                       'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'fuzz/*.cpp')
echo "lint: clang-format on ${#files[@]} files"
clang-format --dry-run -Werror "${files[@]}"
[ "$FORMAT_ONLY" = 1 ] && { echo "lint: format clean"; exit 0; }
[ -f "$BUILD/compile_commands.json" ] ||
  { echo "lint: no $BUILD/compile_commands.json (configure with cmake --preset release)" >&2; exit 2; }
mapfile -t sources < <(printf '%s\n' "${files[@]}" | grep '\.cpp$')
echo "lint: clang-tidy on ${#sources[@]} translation units "
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Progress: the name of each file as clang-tidy starts it; the findings go to $log.
run-clang-tidy -p "$BUILD" -j "$(nproc)" -quiet "${sources[@]/#/$ROOT/}" 2>&1 | tee "$log" |
  sed -u 's/\x1b\[[0-9;]*m//g' | grep --line-buffered '^clang-tidy' | sed -u 's|.* '"$ROOT"'/|  |' || true
if grep -q 'warning:\|error:' "$log"; then
  grep -A3 'warning:\|error:' "$log" >&2
  echo "lint: clang-tidy found problems (above)" >&2
  exit 1
fi
echo "lint: clean"
