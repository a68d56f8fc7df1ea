#!/usr/bin/env bash
# Builds llama.cpp's own speculative-decoding programs, the peers of `reader bench --peers`:
# llama-speculative-simple (n-gram drafters), llama-lookup and llama-lookup-create (n-gram
# caches). They are compiled from the same pinned, patched sdist as the installed library and
# linked against it (.venv's libllama-common, libllama, libggml), so peers and reader run
# the same kernels. Binaries go to build/peers/; called by scripts/setup.sh; idempotent.
#
#   scripts/build_peers.sh [--force]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
source scripts/versions.sh

die() { echo "build_peers.sh: $*" >&2; exit 1; }
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }
FORCE=0
case "${1:-}" in
  "") ;;
  --force) FORCE=1 ;;
  *) die "unknown option '$1' (usage: scripts/build_peers.sh [--force])" ;;
esac

VENV="$ROOT/.venv"
OUT="$ROOT/build/peers"
[ -x "$VENV/bin/python" ] || die "no .venv with llama.cpp: run scripts/setup.sh first"
# The peers are keyed on the installed llama wheel's key (sdist, flags, patches) and on this
# script, so a new llama build or a new compile line rebuilds them.
WHEEL_KEY=$(cat "$VENV/.llama-build-key" 2>/dev/null) ||
  die "$VENV/.llama-build-key missing: run scripts/setup.sh first"
KEY="$WHEEL_KEY-$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
LLAMA_PREFIX=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
LIBDIR="$LLAMA_PREFIX/lib"
for lib in llama-common llama ggml ggml-base; do
  [ -f "$LIBDIR/lib$lib.so" ] || die "lib$lib.so not found in $LIBDIR (rerun scripts/setup.sh)"
done
BINARIES=(llama-speculative-simple llama-lookup llama-lookup-create)
built=1
for b in "${BINARIES[@]}"; do [ -x "$OUT/$b" ] || built=0; done
if ((!FORCE)) && ((built)) && [ "$(cat "$OUT/.key" 2>/dev/null)" = "$KEY" ]; then
  echo "peers present in build/peers (key $KEY)"
  exit 0
fi
command -v g++ > /dev/null || die "g++ not found (apt-get install build-essential)"

# The sdist, cached and hash-checked (setup.sh reads the same cache).
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/reader"
SDIST="$CACHE/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
if ! sha_ok "$SDIST" "$LLAMA_CPP_PYTHON_SHA256"; then
  echo "[peers] fetching llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist"
  mkdir -p "$CACHE"
  dl=$(mktemp -d)
  echo "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION --hash=sha256:$LLAMA_CPP_PYTHON_SHA256" > "$dl/reqs"
  "$VENV/bin/pip" download --progress-bar off --no-deps --no-binary :all: --require-hashes \
    -r "$dl/reqs" -d "$dl" -q || die "download of the llama-cpp-python sdist failed"
  mv "$dl/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" "$SDIST"
  rm -rf "$dl"
fi
sha_ok "$SDIST" "$LLAMA_CPP_PYTHON_SHA256" || die "sha256 mismatch for $SDIST"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "[peers] extracting llama.cpp sources"
tar -xzf "$SDIST" -C "$work" "llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp" ||
  die "cannot extract $SDIST"
src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
for p in scripts/patches/*.patch; do
  patch -p1 -s -d "$src" < "$p" || die "patch $p does not apply"
done

mkdir -p "$OUT"
rm -f "$OUT/.key"
CXXFLAGS=(-std=c++17 -O2 -DNDEBUG -I"$src/include" -I"$src/ggml/include" -I"$src/common"
  -I"$src/vendor")
# DT_RPATH (not RUNPATH) so that libllama-common finds libggml here too, not only the binary.
LDFLAGS=(-L"$LIBDIR" -Wl,--disable-new-dtags,-rpath,"$LIBDIR" -lllama-common -lllama -lggml -lggml-base -pthread)
i=0
for pair in llama-speculative-simple:examples/speculative-simple/speculative-simple.cpp \
  llama-lookup:examples/lookup/lookup.cpp llama-lookup-create:examples/lookup/lookup-create.cpp; do
  i=$((i + 1))
  name=${pair%%:*}
  file="$src/${pair#*:}"
  [ -f "$file" ] || die "${pair#*:} is not in the sdist"
  echo "[peers $i/${#BINARIES[@]}] compiling $name"
  g++ "${CXXFLAGS[@]}" "$file" -o "$OUT/$name.tmp" "${LDFLAGS[@]}" || die "compiling $name failed"
  mv "$OUT/$name.tmp" "$OUT/$name"
done
"$OUT/llama-speculative-simple" --help > /dev/null 2>&1 ||
  die "build/peers/llama-speculative-simple does not run (library mismatch?)"
echo "$KEY" > "$OUT/.key"
echo "peers built in build/peers (key $KEY)"
