#!/bin/bash
# Builds libggml-cpu.so.0 from the cached llama-cpp-python sdist with scripts/patches/ as they
# were at COMMIT (the flags setup's wheel uses: Release, GGML_NATIVE), for run.sh's LIB_A/LIB_B:
#   build_lib.sh 1266dc8 /tmp/lib_a; build_lib.sh 7bcaf48 /tmp/lib_b     (a minute each)
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source scripts/versions.sh
source scripts/llama_sources.sh
commit=${1:?usage: build_lib.sh COMMIT OUT_DIR}; out=${2:?usage: build_lib.sh COMMIT OUT_DIR}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/patches"
for p in $(git ls-tree --name-only "$commit" scripts/patches/); do
  git show "$commit:$p" > "$work/patches/$(basename "$p")"
done
prepare_llama_source "${XDG_CACHE_HOME:-$HOME/.cache}/reader/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" \
  "$work" "$work/patches"
cmake -S "$LLAMA_SRC" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DLLAMA_CURL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF > /dev/null
echo "building libggml-cpu from the patches of $commit"
cmake --build "$work/build" -j "$(nproc)" --target ggml-cpu > /dev/null
mkdir -p "$out"
cp -L "$work/build/bin/libggml-cpu.so" "$out/libggml-cpu.so.0"
echo "wrote $out/libggml-cpu.so.0"
