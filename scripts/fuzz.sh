#!/usr/bin/env bash
# Builds the libFuzzer targets (cmake --preset fuzz: clang, ASan + UBSan, build-fuzz/) and runs
# each for N seconds on its seeds (fuzz/corpus/<target>/, read only) plus a growing working
# corpus (build-fuzz/corpus/<target>/). Fails if any target crashes, leaks, times out or trips
# a sanitizer; the reproducer is kept in build-fuzz/artifacts/<target>/ and the log in
# build-fuzz/logs/<target>.log.
#   scripts/fuzz.sh [--seconds N] [TARGET...]   (default: 30 s each, every target)
# Needs clang-14 and libclang-rt-14-dev (scripts/versions.sh) and the venv's llama.cpp
# (scripts/setup.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

ALL_TARGETS=(fuzz_request fuzz_datastore fuzz_tree_shape fuzz_profile)
SECONDS_EACH=30
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_EACH=${2:?--seconds needs a number}; shift 2 ;;
    --seconds=*) SECONDS_EACH=${1#--seconds=}; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    fuzz_*) TARGETS+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (targets: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
  esac
done
[[ "$SECONDS_EACH" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --seconds must be a positive integer" >&2; exit 2; }
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")

command -v clang++ > /dev/null || { echo "fuzz.sh: clang++ not found: apt-get install clang libclang-rt-14-dev" >&2; exit 1; }
[ -x .venv/bin/python ] || { echo "fuzz.sh: no .venv with llama.cpp: run scripts/setup.sh first" >&2; exit 1; }
LLAMA_PREFIX=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
LAUNCHER=()
if command -v ccache > /dev/null; then
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

echo "[fuzz] building ${TARGETS[*]} (preset fuzz, build-fuzz/)"
cmake --preset fuzz -DCMAKE_PREFIX_PATH="$LLAMA_PREFIX" "${LAUNCHER[@]}" > /dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${TARGETS[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p build-fuzz/logs
SUMMARY=()
FAILED=0
for t in "${TARGETS[@]}"; do
  work="build-fuzz/corpus/$t"
  artifacts="build-fuzz/artifacts/$t/"
  log="build-fuzz/logs/$t.log"
  mkdir -p "$work" "$artifacts"
  args=(-max_total_time="$SECONDS_EACH" -timeout=25 -rss_limit_mb=4096 -print_final_stats=1
        -artifact_prefix="$artifacts")
  [ -f "fuzz/$t.dict" ] && args+=(-dict="fuzz/$t.dict")
  echo "[fuzz] $t: ${SECONDS_EACH} s (log $log)"
  "build-fuzz/bin/$t" "${args[@]}" "$work" "fuzz/corpus/$t" > "$log" 2>&1 &
  pid=$!
  # Progress: libFuzzer's latest status line (executions, coverage, corpus) every 10 s.
  start=$(date +%s)
  while kill -0 "$pid" 2> /dev/null; do
    sleep 2
    now=$(date +%s)
    if [ $(( (now - start) % 10 )) -lt 2 ]; then
      status=$(grep -aE '^#[0-9]+' "$log" | tail -n 1 | cut -c1-100 || true)
      printf '[fuzz] %s %3d/%d s  %s\n' "$t" $((now - start)) "$SECONDS_EACH" "${status:-starting}"
    fi
  done
  rc=0
  wait "$pid" || rc=$?
  execs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n 1)
  if [ "$rc" -eq 0 ]; then
    SUMMARY+=("$(printf '%-16s ok      %12s executions' "$t" "${execs:-?}")")
  else
    FAILED=1
    SUMMARY+=("$(printf '%-16s FAILED  %12s executions  (exit %d, see %s)' "$t" "${execs:-?}" "$rc" "$log")")
    echo "[fuzz] $t FAILED (exit $rc); reproducer(s) in $artifacts:"
    ls -1 "$artifacts" | sed 's/^/  /'
    grep -aE 'ERROR|SUMMARY|runtime error|deadly signal|Test unit written' "$log" | head -n 20 | sed 's/^/  /'
    echo "  replay: build-fuzz/bin/$t <reproducer>"
  fi
done

echo; echo "[fuzz] summary (${SECONDS_EACH} s each)"
printf '  %s\n' "${SUMMARY[@]}"
exit "$FAILED"
