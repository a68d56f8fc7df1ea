#!/usr/bin/env bash
# Sets everything up (idempotent) and runs the test suite CI runs:
#   - unit tests (pure logic: trie, suffix array, search, trees, acceptance) in Release
#     and again under AddressSanitizer + UBSan;
#   - model tests on the real SmolLM2 and Gemma 3 models (CLI, tree decode, losslessness);
#   - clang-format on our sources, libFuzzer briefly on every target.
# Long sweeps are labelled "sweep": run them with  ctest --preset release -L sweep
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

scripts/setup.sh
LLAMA_PREFIX=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

# Formatting is a few seconds; clang-tidy (scripts/lint.sh, ~10 minutes) runs before commits.
echo; echo "[test] clang-format"
scripts/lint.sh --format-only

echo; echo "[test] unit tests (Release)"
ctest --preset release -L unit --no-tests=error -j "$(nproc)" --timeout 900
# One model test at a time: each already uses every core, and llama.cpp's threads spin-wait,
# so two at once run several times slower than one after the other.
echo; echo "[test] model tests (Release, real SmolLM2 and Gemma 3)"
ctest --preset release -L model --no-tests=error -j 1 --timeout 1200

if [ "${READER_SKIP_ASAN:-0}" != 1 ]; then
  echo; echo "[test] unit tests under ASan + UBSan (Debug)"
  cmake --preset debug -DCMAKE_PREFIX_PATH="$LLAMA_PREFIX" > /dev/null
  cmake --build --preset debug -j "$(nproc)" --target reader_unit_tests reader_draft_tests reader_apps_tests
  ctest --preset debug -L unit --no-tests=error -j "$(nproc)" --timeout 900
fi

# A short libFuzzer run of every target (request parser, datastore loader, tree-shape and
# profile loaders); the long runs are documented in the README ("Fuzzing").
if [ "${READER_SKIP_FUZZ:-0}" != 1 ]; then
  echo; echo "[test] fuzzing (30 s per target)"
  scripts/fuzz.sh --seconds 30
fi
