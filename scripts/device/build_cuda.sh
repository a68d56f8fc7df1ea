#!/usr/bin/env bash
# Builds a CUDA llama.cpp from the pinned, patched sdist, reader and its model tests against
# it, and llama.cpp's peer programs, for the GPU check (README, "GPU"; check.sh runs it on a
# lent machine). Here, with no GPU, it only compiles: nvcc from /usr/local/cuda, for Hopper
# (sm_90: the H100 and H200 the device tool lends) unless CUDA_ARCH says otherwise. The CPU
# part is built for AVX2, not this CPU: the device's CPU is another. About 25 minutes on 2 cores.
#
#   scripts/device/build_cuda.sh WORK_DIR     # llama.cpp in WORK_DIR, reader in build-cuda/
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/versions.sh
source scripts/llama_sources.sh
[ $# -eq 1 ] || { echo "usage: $0 WORK_DIR" >&2; exit 2; }
work=$(mkdir -p "$1" && cd "$1" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc > /dev/null || { echo "nvcc not found (CUDA toolkit in /usr/local/cuda)" >&2; exit 1; }
SDIST="${XDG_CACHE_HOME:-$HOME/.cache}/reader/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
rm -rf "$work/src" && mkdir -p "$work/src"
prepare_llama_source "$SDIST" "$work/src" || { echo "run scripts/setup.sh first" >&2; exit 1; }
src=$LLAMA_SRC
# No NCCL (one GPU) and no libcuda at link time here: the driver's library is the device's.
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DGGML_CUDA=ON -DGGML_CUDA_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90-real}" \
  -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF \
  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_TOOLS=OFF \
  -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_COMMON=ON -DCMAKE_INSTALL_PREFIX="$work/prefix"
ninja -C "$work/build" -j"$(nproc)"
cmake --install "$work/build" > /dev/null
undefined_ok=-Wl,--allow-shlib-undefined
# Afresh: a cache from another WORK_DIR would mix two llama.cpp installs. The tests are listed
# when ctest runs, not when built: the binary cannot load libcuda here.
rm -rf build-cuda
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DREADER_BUILD_BENCH=OFF -DCMAKE_EXE_LINKER_FLAGS="$undefined_ok" \
  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST
ninja -C build-cuda reader_cli reader_model_tests
mkdir -p "$work/peers"
for pair in "${PEER_EXAMPLES[@]}"; do
  g++ "${LLAMA_CXXFLAGS[@]}" "$src/${pair#*:}" -o "$work/peers/${pair%%:*}" -L"$work/prefix/lib" \
    -Wl,-rpath-link,"$work/prefix/lib":/usr/local/cuda/lib64 "$undefined_ok" \
    -lllama-common -lllama -lggml -lggml-base -pthread
done
echo "CUDA llama.cpp in $work/prefix, reader in build-cuda/bin, peers in $work/peers"
echo "next: scripts/device/make_bundle.sh $work/prefix build-cuda $work/peers 24 60"
