#!/usr/bin/env bash
# Builds llama.cpp's own speculative-decoding programs, the peers of `reader bench --peers`:
# llama-speculative-simple (n-gram drafters), llama-lookup and llama-lookup-create (n-gram
# caches), and llama-server (tools/server: an OpenAI-compatible server, n-gram speculation
# with --spec-type ngram-*). They are compiled from the same pinned, patched sdist as the
# installed library and linked against it (.venv's libllama-common, libmtmd, libllama,
# libggml), so peers and reader run the same kernels. Binaries go to build/peers/; called by
# scripts/setup.sh; idempotent. The examples take seconds, llama-server a few minutes.
#
#   scripts/build_peers.sh [--force]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
source scripts/versions.sh
source scripts/llama_sources.sh

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
for lib in llama-common mtmd llama ggml ggml-base; do
  [ -f "$LIBDIR/lib$lib.so" ] || die "lib$lib.so not found in $LIBDIR (rerun scripts/setup.sh)"
done
BINARIES=(llama-speculative-simple llama-lookup llama-lookup-create llama-server)
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
prepare_llama_source "$SDIST" "$work" || die "cannot prepare llama.cpp's sources"
src=$LLAMA_SRC

mkdir -p "$OUT"
rm -f "$OUT/.key"
CXXFLAGS=("${LLAMA_CXXFLAGS[@]}")
# DT_RPATH (not RUNPATH) so that libllama-common finds libggml here too, not only the binary.
LDFLAGS=(-L"$LIBDIR" -Wl,--disable-new-dtags,-rpath,"$LIBDIR" -lllama-common -lllama -lggml -lggml-base -pthread)
i=0
for pair in "${PEER_EXAMPLES[@]}"; do
  i=$((i + 1))
  name=${pair%%:*}
  file="$src/${pair#*:}"
  [ -f "$file" ] || die "${pair#*:} is not in the sdist"
  echo "[peers $i/${#BINARIES[@]}] compiling $name"
  g++ "${CXXFLAGS[@]}" "$file" -o "$OUT/$name.tmp" "${LDFLAGS[@]}" || die "compiling $name failed"
  mv "$OUT/$name.tmp" "$OUT/$name"
done

# llama-server: tools/server's sources plus a generated, empty web-UI table (the UI needs
# npm or a download; the HTTP API does not). cpp-httplib comes from libllama-common, which
# exports it: the server must see the same build options, OpenSSL support included when
# that library links libssl. LLAMA_SUBPROCESS is llama.cpp's default on Linux; it changes
# the layout of common_subproc, shared with the library.
i=$((i + 1))
echo "[peers $i/${#BINARIES[@]}] compiling llama-server (a few minutes)"
server="$src/tools/server"
[ -f "$server/server.cpp" ] || die "tools/server is not in the sdist"
command -v cmake > /dev/null || die "cmake not found"
cmake -DUI_SOURCE_DIR="$src/tools/ui" -DUI_BINARY_DIR="$work/ui" -DLLAMA_SOURCE_DIR="$src" \
  -DHF_ENABLED=OFF -DBUILD_UI=OFF -DLLAMA_UI_GZIP=OFF -DHF_BUCKET= -DHF_VERSION= \
  -P "$src/scripts/ui-assets.cmake" > "$work/ui.log" 2>&1 ||
  { cat "$work/ui.log" >&2; die "generating llama-server's UI table failed"; }
SERVER_FLAGS=("${CXXFLAGS[@]}" -DLLAMA_SUBPROCESS -I"$server" -I"$src/tools/mtmd" -I"$src" -I"$work/ui")
if readelf -d "$LIBDIR/libllama-common.so" | grep -q 'NEEDED.*libssl'; then
  SERVER_FLAGS+=(-DCPPHTTPLIB_OPENSSL_SUPPORT)
fi
mkdir -p "$work/obj"
# One compiler per core: the server is ~15 translation units, some of them large.
# shellcheck disable=SC2016 # $1.. expand in the inner bash
printf '%s\n' "$server"/*.cpp "$work/ui/ui.cpp" | xargs -P "$(nproc)" -I{} bash -c \
  'g++ "${@:3}" -c "$1" -o "$2/$(basename "$1" .cpp).o"' _ {} "$work/obj" "${SERVER_FLAGS[@]}" ||
  die "compiling llama-server failed"
# -L applies to every -l wherever it stands; libmtmd (images/audio) needs libllama after it.
g++ "$work"/obj/*.o -o "$OUT/llama-server.tmp" -lmtmd "${LDFLAGS[@]}" ||
  die "linking llama-server failed"
mv "$OUT/llama-server.tmp" "$OUT/llama-server"

for b in llama-speculative-simple llama-server; do
  "$OUT/$b" --help > /dev/null 2>&1 || die "build/peers/$b does not run (library mismatch?)"
done
echo "$KEY" > "$OUT/.key"
echo "peers built in build/peers (key $KEY)"
