#!/bin/bash
# Builds libggml-cpu alone from the cached llama-cpp-python sdist with the patches of a git
# revision, for swapping in with LD_LIBRARY_PATH (micro.sh, ../ab/run.sh, ../long/run.sh).
#   [EXTRA_CMAKE_ARGS=...] build_lib.sh REV OUT_DIR   e.g. build_lib.sh 51f8890 /tmp/libA; build_lib.sh HEAD /tmp/libB
set -euo pipefail
rev=${1:?usage: build_lib.sh REV OUT_DIR}; out=$(realpath -m "${2:?usage: build_lib.sh REV OUT_DIR}")
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
version=$(sed -n 's/^LLAMA_CPP_PYTHON_VERSION=//p' "$root/scripts/versions.sh")
sdist=${XDG_CACHE_HOME:-$HOME/.cache}/reader/llama_cpp_python-$version.tar.gz
[ -f "$sdist" ] || { echo "no cached sdist at $sdist: run scripts/setup.sh first" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xzf "$sdist" -C "$work"
src=$work/llama_cpp_python-$version/vendor/llama.cpp
for p in $(git -C "$root" ls-tree --name-only "$rev" scripts/patches/); do
  git -C "$root" show "$rev:$p" | patch -p1 -s -d "$src"
done
cmake -S "$src" -B "$work/b" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DLLAMA_CURL=OFF ${EXTRA_CMAKE_ARGS:-} > /dev/null
cmake --build "$work/b" --target ggml-cpu -j2 > /dev/null
mkdir -p "$out" && cp -L "$work"/b/bin/libggml-cpu.so.0 "$out/"
echo "wrote $out/libggml-cpu.so.0 (patches of $rev)"
